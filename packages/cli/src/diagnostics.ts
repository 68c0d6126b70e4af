/** Every message text the CLI itself prints (commands add theirs here). */
export const CLI_MESSAGES = {
  unknownCommand: (name: string) => `raptor: unknown command '${name}'`,
  internalError: (invocation: string, detail: string) =>
    `raptor: internal error (please report it with the input that triggered it)\n  invocation: raptor ${invocation}\n${detail}`,
  // raptor sim
  simNeedsBundle: () => `raptor sim: expected exactly one BUNDLE directory`,
  simMissingValue: (option: string) => `raptor sim: option ${option} needs a value`,
  simUnknownOption: (option: string) => `raptor sim: unknown option '${option}'`,
  simBadMode: (mode: string) => `raptor sim: --mode must be 'latency' or 'throughput', got '${mode}'`,
  simBadInput: (text: string) => `raptor sim: --input expects NAME=FILE.npy, got '${text}'`,
  simBadBudget: (text: string) => `raptor sim: --budget-ns expects a positive number, got '${text}'`,
  simBadConfig: (file: string) => `raptor sim: cannot use the hardware configuration '${file}'`,
  simNoBundle: (dir: string) => `raptor sim: '${dir}' is not a bundle directory`,
  simCannotRead: (file: string) => `raptor sim: cannot read '${file}'`,
  simBadNpy: (file: string, why: string) => `raptor sim: ${file}: ${why}`,
  simFailed: (message: string) => `raptor sim: error: ${message}`,
  simTimingOnlyHint: () =>
    `raptor sim: note: pimsim-nn computes no values; --timing-only times the program without the value checks`,
  simInvalidBundle: (errors: number) => `raptor sim: error: the bundle is invalid (${errors} error${errors === 1 ? '' : 's'} above)`,
  // raptor opt
  optUnknownOption: (option: string) => `raptor opt: unknown option '${option}'`,
  optMissingValue: (option: string) => `raptor opt: option ${option} needs a value`,
  optTooManyInputs: (files: readonly string[]) => `raptor opt: expected one input file, got ${files.length}: ${files.join(' ')}`,
  optCannotRead: (file: string, why: string) => `raptor opt: cannot read '${file}' (${why})`,
  optCannotWrite: (file: string, why: string) => `raptor opt: cannot write '${file}' (${why})`,
  optBadPipeline: (pipeline: string) => `raptor opt: invalid --pass-pipeline '${pipeline}'`,
  optBadTarget: (file: string) => `raptor opt: cannot use the target configuration '${file}'`,
  optRunFlagWithoutRun: (flag: string) => `raptor opt: ${flag} needs --run`,
  optRunWithSplit: () => `raptor opt: --run cannot be combined with --split-input-file or --verify-diagnostics`,
  optCrashInputSaved: (file: string) => `the input that triggered it was saved to ${file}`,
  optCrashInputNotSaved: (length: number) => `(the input, ${length} characters, could not be saved)`,
  // raptor import
  importNeedsModel: () => `raptor import: expected exactly one MODEL.onnx`,
  importMissingValue: (option: string) => `raptor import: option ${option} needs a value`,
  importUnknownOption: (option: string) => `raptor import: unknown option '${option}'`,
  importBadCrossbar: (text: string) => `raptor import: --crossbar-size expects a positive integer, got '${text}'`,
  importBadInputBinding: (what: string, names: readonly string[]) =>
    `raptor import: --input '${what}' matches no graph input; the inputs are: ${names.join(', ')}`,
  importBadConstInput: (text: string) => `raptor import: --const-input expects NAME=FILE.npy, got '${text}'`,
  // raptor import --run / raptor opt --run (src/run/run-entry.ts)
  cannotRead: (command: string, file: string, why: string) => `raptor ${command}: cannot read '${file}' (${why})`,
  cannotWrite: (command: string, file: string, why: string) => `raptor ${command}: cannot write '${file}' (${why})`,
  runBadInputBinding: (command: string, what: string, inputKind: string, names: readonly string[]) =>
    `raptor ${command}: --input '${what}' matches no ${inputKind}; the inputs are: ${names.join(', ')}`,
  runMissingInput: (command: string, inputKind: string, name: string) => `raptor ${command}: no --input given for ${inputKind} '${name}'`,
  runWroteOutput: (k: number, name: string, shape: readonly number[], file: string) => `output ${k} '${name}' [${shape.join('x')}] -> ${file}`,
  runCompared: (k: number, maxAbs: number, ok: boolean) =>
    `output ${k}: max |diff| vs reference = ${maxAbs.toExponential(3)} (rtol 1e-3, atol 1e-5*max|ref|): ${ok ? 'ok' : 'MISMATCH'}`,
  // raptor compile / raptor run (src/compile/*.ts)
  compileNeedsModel: (command: string) => `raptor ${command}: expected exactly one MODEL.onnx`,
  compileNeedsOutput: () => `raptor compile: -o DIR (the bundle directory) is required`,
  compileMissingValue: (command: string, option: string) => `raptor ${command}: option ${option} needs a value`,
  compileUnknownOption: (command: string, option: string) => `raptor ${command}: unknown option '${option}'`,
  compileFailed: (command: string, errors: number) => `raptor ${command}: compilation failed (${errors} error${errors === 1 ? '' : 's'} above); no bundle written`,
  compileNoBundle: (command: string) => `raptor ${command}: the pipeline ran but emitted no bundle (it must end with pim-emit); no bundle written`,
  compileInvalidBundle: (command: string, errors: number) =>
    `raptor ${command}: the emitted bundle is invalid (${errors} error${errors === 1 ? '' : 's'} above); no bundle written`,
  compileOutputNotBundle: (dir: string) =>
    `raptor compile: -o '${dir}' exists and is not a bundle directory (no config.json); choose a new or empty directory`,
  compileWroteBundle: (dir: string, cores: number) => `bundle (${cores} core${cores === 1 ? '' : 's'}) -> ${dir}`,
  compileWroteReport: (file: string) => `compile report -> ${file}`,
  compileProgress: (pass: string, step: number, steps: number) => `${pass} (step ${step + 1} of ${steps})`,
  compileDumpHeader: (pass: string) => `// -----// IR Dump After ${pass} //----- //`,
  compileInferredShape: (name: string, shape: readonly number[]) => `input '${name}': shape ${shape.join('x')} taken from its --input file`,
  // raptor run
  runNeedsInput: () => `raptor run: --input FILE.npy is required (one per graph input, in order, or NAME=FILE.npy)`,
  runSimFailed: (message: string) => `raptor run: simulation failed: ${message}`,
  runInputShapeMismatch: (name: string, given: readonly number[], file: string, got: readonly number[]) =>
    `raptor run: --input-shape ${name}=${given.join('x')} disagrees with its --input file '${file}' (shape ${got.join('x')}); drop --input-shape to take the file's shape`,
  runSimInput: (name: string, expected: readonly number[], got: readonly number[]) =>
    `raptor run: --input for '${name}' has shape ${got.join('x')}, the bundle expects ${expected.join('x')}`,
  runLatency: (ns: number, ratio: string) => `latency:    ${formatNs(ns)}${ratio}`,
  runThroughput: (perSecond: number, ratio: string) => `throughput: ${perSecond.toFixed(1)} inferences/s${ratio}`,
  runEnergy: (pj: number) => `energy:     ${(pj / 1e6).toFixed(3)} uJ per inference`,
  runLatencyRatio: (ratio: number, boundNs: number) => ` (${ratio.toFixed(2)}x the bound latency_min ${formatNs(boundNs)})`,
  runThroughputRatio: (ratio: number, bound: number) => ` (bound throughput_max ${bound.toFixed(1)}/s is ${ratio.toFixed(2)}x)`,
  runEstimate: (strategy: string, latencyNs: number, throughput: number) =>
    `schedule:   ${strategy}, estimated latency ${formatNs(latencyNs)}, throughput ${throughput.toFixed(1)}/s`,
} as const;

/** `12.345 us` / `1.234 ms` (nanoseconds in, three decimals out). */
function formatNs(ns: number): string {
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(3)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(3)} us`;
  return `${ns.toFixed(0)} ns`;
}
