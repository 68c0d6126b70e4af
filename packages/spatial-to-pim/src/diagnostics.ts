/**
 * Every message text of `@raptor-pim/spatial-to-pim`, in one place. Each names what is wrong,
 * where, and what would be right.
 */
export const SpatToPimMessages = {
  unplaced: (op: string) =>
    `'${op}' has no core placement (coreId / coreIds); spat-to-pim converts scheduled programs whose computes are placed on physical cores`,
  notChannelized: (op: string, user: string) =>
    `a result of '${op}' is used by '${user}'; spat-to-pim needs channelized schedules: computes exchange data through spat.channel_send/receive or host slots, and only graph outputs (func.return) may use a compute result`,
  capturedCompute: (op: string) =>
    `an input of '${op}' is the result of a scheduled compute on another core (or of a batch); SSA forwarding works only between earlier and later computes of one core, other data must travel through spat.channel_send/receive or host slots`,
  unsupportedInput: (op: string, producer: string) =>
    `an input of '${op}' is defined by '${producer}'; spat-to-pim accepts function arguments (host inputs) and constants as compute inputs`,
  unsupportedTopLevel: (op: string) =>
    `'${op}' at the top level of a scheduled function is not supported by spat-to-pim; only constants, scheduled computes and func.return may appear there`,
  unsupportedOutput: (producer: string) =>
    `a graph output is produced by '${producer}'; spat-to-pim needs every graph output to be a scheduled compute's result (or a host reassembly or spat.blueprint of such results), a function argument or a constant`,
  noPimEquivalent: (op: string, flag: string) =>
    `'${op}' has no PIM equivalent on this target: ${flag} is false; enable it in the target configuration or lower the op before spat-to-pim (no CPU fallback exists)`,
  unsupportedOp: (op: string) => `spat-to-pim: '${op}' inside a scheduled compute is not supported yet`,
  nestedRegion: (op: string) =>
    `spat-to-pim: '${op}' has regions; in scheduled bodies spat-to-pim resolves scf.for (static bounds), scf.if (static condition) and spat.deferred_communication, no other op with regions`,
  notStatic: (op: string, what: string) =>
    `${what} of '${op}' does not resolve to a static integer (constants, index arithmetic of constants and the lane); PIM streams need static offsets, peers and events`,
  dynamicShape: (op: string, type: string) =>
    `'${op}' has the type ${type}; spat-to-pim needs static shapes with a known element width`,
  nonUnitStride: (op: string) => `'${op}' has dynamic or non-positive strides; spat-to-pim lowers slices with static positive strides`,
  badPublication: (op: string) =>
    `'${op}' publishes into a value that is not a graph output; resultful scheduled batches are accepted only when every result is a graph output (func.return)`,
  unusedOutputArg: (op: string) => `a shared output of '${op}' is used by an op other than tensor.parallel_insert_slice`,
  yieldCount: (op: string) => `'${op}' yields values but its results are not graph outputs`,
  notAFunction: () => `spat-to-pim runs on func.func operations of a module`,
} as const;
