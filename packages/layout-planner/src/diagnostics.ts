/**
 * Every message text the layout planner emits, in one place: gate refusals (why a row-strip
 * alternative is not offered), planner diagnostics and layout-verification errors.
 */

/** Gate refusal reasons (the `reason` of a failed {@link GateVerdict}). */
export const GateMessages = {
  notStaticTensor: (what: string, type: string) => `${what} must be a static ranked tensor, got ${type}`,
  notRank: (what: string, type: string, rank: number) => `${what} must have rank ${rank}, got ${type}`,
  notPositive: (what: string, value: number) => `${what} must be positive, got ${value}`,
  negative: (what: string, value: number) => `${what} must be non-negative, got ${value}`,
  groupDivides: (group: number, what: string, value: number) => `group ${group} must divide ${what} ${value}`,
  weightShape: (got: string, expected: string) => `weight shape ${got} does not match [Cout, Cin/group, kh, kw] = ${expected}`,
  outputShape: (what: string, got: number, expected: number) => `output ${what} is ${got}, the window formula gives ${expected}`,
  batchChannel: (input: string, output: string) => `batch and channel dimensions of ${input} and ${output} must match`,
  padCoversWindow: (axis: string, pad: number, extent: number) =>
    `${axis} padding ${pad} is not smaller than the dilated window extent ${extent} (a window would contain only padding)`,
  workingSet: (what: string, bytes: number, limit: number) =>
    `${what} needs ${bytes} bytes of local memory per lane, the target has ${limit} (local_memory_config.memory_size)`,
  crossbarBudget: (tiles: number, limit: number) =>
    `the weights need ${tiles} crossbar tiles, the target has ${limit} (core_cnt x xbar_array_count)`,
  flattenOrder: (channels: number, spatial: number) =>
    `row strips of ${channels} channels x ${spatial} pixels are not in NCHW flatten order (needs channels == 1 or H*W == 1; use a materialization)`,
  biasShape: (type: string, channels: number) => `bias ${type} is not a scalar, [${channels}], [1, ${channels}] or [1, ${channels}, 1, 1] static tensor`,
} as const;
