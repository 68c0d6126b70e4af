/** Every message text the compiler package emits, in one place. */
export const CompilerMessages = {
  schedulerUnused: (scheduler: string, pass: string) =>
    `compile: the scheduler '${scheduler}' is not used: the pipeline has no scheduler stage (${pass})`,
  // compile()
  badPipeline: (pipeline: string) => `compile: invalid pipeline '${pipeline}' (see the diagnostic above)`,
  dumpAfterUnknownPass: (name: string, passes: readonly string[]) =>
    `compile: dumpAfter names '${name}', which is not a pass of the pipeline; the pipeline runs: ${passes.join(', ') || '(no passes)'}`,
  nonSquareCrossbar: (rows: number, cols: number) =>
    `compile: the ONNX frontend tiles weights on square crossbars; the target's xbar_size is [${rows}, ${cols}]`,
  passFailedSilently: (pass: string) => `compile: pass '${pass}' failed without reporting a diagnostic (a bug in the pass: it must say why)`,
  targetLoadFailed: (file: string) => `compile: cannot use the target configuration '${file}' (see the diagnostics above)`,
  // entry functions and interpretation
  noEntryFunction: () => `the module has no func.func to run (expected @main or exactly one public function)`,
  ambiguousEntry: (names: readonly string[]) =>
    `the module has no @main and ${names.length} public functions (${names.map((n) => '@' + n).join(', ')}); choose one with --entry NAME`,
  unknownEntry: (name: string, names: readonly string[]) =>
    `no function @${name} in the module; the functions are: ${names.map((n) => '@' + n).join(', ') || '(none)'}`,
  entryIsDeclaration: (name: string) => `@${name} is a declaration (no body) and cannot be run`,
  unsupportedArgumentType: (name: string, index: number, type: string) =>
    `argument #${index} of @${name} has type ${type}; only ranked tensors and memrefs of static shape can be given as .npy inputs`,
  inputCount: (name: string, got: number, expected: number) => `@${name} takes ${expected} argument(s), ${got} input(s) given`,
  inputShape: (index: number, name: string, got: readonly number[], expected: readonly number[]) =>
    `input #${index} '${name}' has shape [${got.join('x')}], the function expects [${expected.join('x')}]`,
  unsupportedResult: (index: number, type: string) => `result #${index} has type ${type}, which cannot be written as an .npy array`,
  interpretationFailed: (message: string) => `interpretation failed: ${message}`,
} as const;
