import type { SetValueNameFn, Value } from '@raptor-pim/ir-core';

/** The body arguments of a compute-like region, by role. */
export interface ComputeBlockArguments {
  readonly lane?: Value;
  readonly weights: readonly Value[];
  readonly inputs: readonly Value[];
  readonly outputs: readonly Value[];
}

/**
 * Suggests the canonical body-argument names used by the reference examples: `%lane`, weights
 * `%warg`, inputs `%arg`, shared outputs `%out` (the printer uniques repeats as `%arg_0`, ...).
 * Call it from an op's `getAsmBlockArgumentNames` hook.
 */
export function setComputeBlockArgumentNames(setName: SetValueNameFn, args: ComputeBlockArguments): void {
  if (args.lane) setName(args.lane, 'lane');
  for (const w of args.weights) setName(w, 'warg');
  for (const i of args.inputs) setName(i, 'arg');
  for (const o of args.outputs) setName(o, 'out');
}
