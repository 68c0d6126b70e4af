/** Every message text the compiler package emits, in one place. */
export const CompilerMessages = {
  // raptor-schedule
  noSchedulerStage: () =>
    `raptor-schedule: no scheduler stage: no Scheduler was given and @raptor-pim/scheduler provides no built-in strategy yet; ` +
    `pass one with compile(model, { scheduler }), or stop the pipeline before raptor-schedule (e.g. pipeline 'raptor-frontend')`,
  schedulerMismatch: (wanted: string, available: readonly string[]) =>
    `raptor-schedule: strategy '${wanted}' is not available; the available schedulers are: ${available.length ? available.join(', ') : '(none)'}`,
  schedulerBadOption: (scheduler: string, message: string) => `raptor-schedule: scheduler '${scheduler}': ${message}`,
  schedulerFailed: (scheduler: string) => `raptor-schedule: scheduler '${scheduler}' failed (its diagnostics are above)`,
  schedulerReturnedNonModule: (scheduler: string, name: string) =>
    `raptor-schedule: scheduler '${scheduler}' returned a '${name}' op, expected a 'builtin.module'`,
  schedulerForeignContext: (scheduler: string) =>
    `raptor-schedule: scheduler '${scheduler}' returned a module of another MLIRContext; build the scheduled module in the input's context`,
  noTarget: (pass: string) => `${pass}: no target machine in the pass context (key 'raptor.target'); run it through compile() or raptor opt`,
  // compile()
  badPipeline: (pipeline: string) => `compile: invalid pipeline '${pipeline}' (see the diagnostic above)`,
  dumpAfterUnknownPass: (name: string, passes: readonly string[]) =>
    `compile: dumpAfter names '${name}', which is not a pass of the pipeline; the pipeline runs: ${passes.join(', ') || '(no passes)'}`,
  nonSquareCrossbar: (rows: number, cols: number) =>
    `compile: the ONNX frontend tiles weights on square crossbars; the target's xbar_size is [${rows}, ${cols}]`,
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
