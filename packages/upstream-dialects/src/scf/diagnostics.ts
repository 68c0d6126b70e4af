/** Every message text of the scf dialect (verifiers, assembly, interpreter), worded as MLIR 22 words them. */
const q = (s: string) => `'${s}'`;

/** Messages of the scf dialect. */
export const ScfMessages = {
  // ---------------------------------------------------------------- scf.for (LoopLikeOpInterface)
  boundsSameType: 'failed to verify that all of {lowerBound, upperBound, step} have same type',
  initsVsIterArgs: (a: number, b: number) => `different number of inits and region iter_args: ${a} != ${b}`,
  iterArgsVsYielded: (a: number, b: number) => `different number of region iter_args and yielded values: ${a} != ${b}`,
  resultsVsIterArgs: 'mismatch in number of loop-carried values and defined values',
  initVsIterArgType: (i: number, a: string, b: string) => `${i}-th init and ${i}-th region iter_arg have different type: ${q(a)} != ${q(b)}`,
  iterArgVsYieldType: (i: number, a: string, b: string) =>
    `${i}-th region iter_arg and ${i}-th yielded value have different type: ${q(a)} != ${q(b)}`,
  iterArgVsResultType: (i: number, a: string, b: string) =>
    `${i}-th region iter_arg and ${i}-th loop result have different type: ${q(a)} != ${q(b)}`,
  inductionVarType: 'expected induction variable to be same type as bounds and step',
  forBodyArgs: 'expected body to have at least one argument for the induction variable',
  // ---------------------------------------------------------------- RegionBranchOpInterface
  branchCount: (from: string, to: string, got: number, expected: number) =>
    `along control flow edge from ${from} to ${to}: region branch point has ${got} operands, but region successor needs ${expected} inputs`,
  branchType: (from: string, to: string, i: number, got: string, expected: string) =>
    `along control flow edge from ${from} to ${to}: successor operand type #${i} ${q(got)} should match successor input type #${i} ${q(expected)}`,
  branchPointNote: 'region branch point',
  yieldParent: (names: readonly string[]) => `expects parent op to be one of '${names.join(', ')}'`,
  // ---------------------------------------------------------------- scf.if
  ifNeedsElse: 'must have an else block if defining values',
  // ---------------------------------------------------------------- scf.forall
  dpsResultType: (operand: number, got: string, result: string) =>
    `expected type of operand #${operand} (${q(got)}) to match type of corresponding result (${q(result)})`,
  forallResultCount: (results: number, outputs: number) => `produces ${results} results, but has only ${outputs} outputs`,
  forallRegionArgs: (n: number) => `region expects ${n} arguments`,
  forallIndexArg: (i: number) => `expects ${i}-th block argument to be an index`,
  forallOutputType: (i: number) => `type mismatch between ${i}-th output and corresponding block argument`,
  forallListCount: (expected: number, name: string, got: number) => `expected ${expected} ${name} values, got ${got}`,
  forallDynamicCount: (expected: number, name: string) => `expected ${expected} dynamic ${name} values`,
  forallMapping: "attribute 'mapping' failed to satisfy constraint: Device Mapping array attribute",
  inParallelOnlyCombining: 'expected only ParallelCombiningOpInterface ops',
  inParallelDestination: 'may only insert into an output block argument',
  // ---------------------------------------------------------------- interpreter
  runtimeZeroStep: (step: number | bigint) => `step must be positive at run time, got ${step}`,
  runtimeOverlap: (a: string, b: string, slot: string) =>
    `lanes publish overlapping slices of the same output: ${a} and ${b} both write ${slot}`,
  runtimeNoPublication: (op: string) => `unsupported op in an in-parallel region: ${q(op)}`,
} as const;
