/**
 * Every message text of the scheduling and communication ops (verifiers, custom assembly and
 * the multi-core interpreter). Kept beside the scheduling interpreter because the package's
 * `src/diagnostics.ts` belongs to the dialect's other half; the dialect README points here.
 */
export const SchedulingMessages = {
  // ---------------------------------------------------------------- assembly
  crossbarWeightsMismatch: (written: number, derived: number): string =>
    `crossbarWeights ${written} does not match the ${derived} distinct resident weight(s) used by the body (the count is derived)`,
  laneRangeMustStartAtZero: (lower: number): string => `lane range must start at 0, got ${lower}`,
  sharedOutsCount: (outs: number, results: number): string =>
    `shared_outs declares ${outs} argument(s) but the op has ${results} result(s)`,
  deferredTypeCount: (types: number, sources: number): string =>
    `deferred_communication lists ${types} source type(s) for ${sources} source(s)`,
  expectedOneResultType: 'expected exactly one result type',

  // ---------------------------------------------------------------- scheduled_compute(_batch)
  emptyBody: 'body region must not be empty',
  blockArgCount: (block: number, expected: number, got: number, order: string): string =>
    `block #${block} must have ${expected} argument(s) (${order}), got ${got}`,
  argTypeMismatch: (role: string, index: number, argType: string, outerType: string): string =>
    `${role} argument #${index} has type ${argType}, expected ${outerType} (the bound value's exact type)`,
  laneArgNotIndex: (type: string): string => `lane argument must have type index, got ${type}`,
  yieldCount: (values: number, results: number): string =>
    `terminator yields ${values} value(s) but the op has ${results} result(s)`,
  yieldType: (index: number, yielded: string, result: string): string =>
    `terminator value #${index} has type ${yielded}, expected ${result} (the result's complete type)`,
  unusedInput: (index: number): string => `input argument #${index} is never used by the single-block body`,
  weightNotConstant: (index: number): string =>
    `weight #${index} must be compile-time computable (defined by a constant-like op)`,
  captureOfComputeResult: (user: string, producer: string): string =>
    `'${user}' in the body directly captures a result of '${producer}'; bind it as an input instead`,
  nonConstantCapture: (user: string): string =>
    `'${user}' in the body captures a non-constant value defined outside; bind it as an input`,
  scalarRegionShape: (blocks: number, terminator: string): string =>
    `scheduled region must have exactly one block ending in 'spat.yield', got ${blocks} block(s) ending in '${terminator}'`,
  laneCountNotPositive: (n: number): string => `laneCount must be positive, got ${n}`,
  coreIdsLength: (len: number, lanes: number): string => `coreIds has ${len} entries, expected laneCount = ${lanes}`,
  coreIdNegative: (index: number, id: number): string => `coreIds[${index}] = ${id} must be nonnegative`,
  coreIdDuplicate: (id: number, first: number, second: number): string =>
    `core ${id} appears twice in coreIds (lanes ${first} and ${second}); each lane needs a distinct core`,
  batchResultfulTerminator: (got: string): string =>
    `a batch with results must end its body with 'spat.in_parallel', got '${got}'`,
  batchResultlessTerminator: (got: string): string =>
    `a batch without results must end its body with 'spat.yield' (no values), got '${got}'`,
  batchYieldValues: (n: number): string => `a resultless batch must end with an empty 'spat.yield', got ${n} value(s)`,

  // ---------------------------------------------------------------- block_yield
  blockYieldSuccessors: (n: number): string => `expects at most one successor, got ${n}`,
  blockYieldArgCount: (values: number, args: number): string =>
    `forwards ${values} value(s) but the successor block has ${args} argument(s)`,
  blockYieldArgType: (index: number, value: string, arg: string): string =>
    `forwarded value #${index} has type ${value}, but successor argument #${index} has type ${arg}`,

  // ---------------------------------------------------------------- deferred ops
  deferredNoSources: 'requires at least one source',
  deferredBlocks: (n: number): string => `body must have exactly one block, got ${n}`,
  deferredArgCount: (expected: number, got: number): string =>
    `body block must have ${expected} argument(s) (the sources, plus an index case argument when specialization_count > 1), got ${got}`,
  deferredSourceArgType: (index: number, arg: string, source: string): string =>
    `source argument #${index} has type ${arg}, expected ${source} (the source's exact type)`,
  deferredCaseArgType: (type: string): string => `specialization argument must have type index, got ${type}`,
  deferredTerminator: (got: string): string => `body must end in 'spat.yield', got '${got}'`,
  deferredYieldCount: (n: number): string => `body must yield exactly one value, got ${n}`,
  deferredOrdinaryType: (yielded: string, output: string): string =>
    `yielded fragment type ${yielded} must equal the output type ${output}`,
  deferredGroupedStatic: (what: string, type: string): string =>
    `grouped ${what} type ${type} must be a statically shaped ranked tensor`,
  deferredGroupedShape: (output: string, expected: string): string =>
    `grouped output shape ${output} must be ${expected} ([specialization_count] + fragment shape)`,
  deferredGroupedElement: (output: string, fragment: string): string =>
    `grouped output element type ${output} must equal the fragment element type ${fragment}`,
  specializationCountNotPositive: (n: string): string => `specialization_count must be positive, got ${n}`,
  sourceSelectNoSources: 'requires a nonempty source list',
  sourceSelectType: (index: number, source: string, output: string): string =>
    `source #${index} has type ${source}, but all sources and the output must have type ${output}`,
  sourceSelectParent: (parent: string): string =>
    `expects parent op 'spat.deferred_communication', 'spat.scheduled_compute' or 'spat.scheduled_compute_batch', got '${parent}'`,

  // ---------------------------------------------------------------- interpreter
  selectorOutOfRange: (selector: number, count: number): string =>
    `selector ${selector} is out of range for ${count} source(s)`,
  sizeMismatch: (sendBytes: number, recvBytes: number, key: string): string =>
    `mismatched transfer on ${key}: the send carries ${sendBytes} bytes but the receive expects ${recvBytes} bytes`,
  sendOpNote: 'the matching spat.channel_send',
  receiveNoSender: (key: string): string => `receive on ${key} has no sender: no remaining spat.channel_send can match it`,
  deadlockHeader: 'all cores blocked (deadlock)',
  signalNote: (op: string): string => `signal from '${op}'`,
  sendNeverReceived: (key: string): string =>
    `send on ${key} was never received (sends and receives must match in program order)`,
  waitOvershoot: (core: string, event: number, value: number, expected: number): string =>
    `wait overshoots: event register ${event} on ${core} holds ${value} signals, more than the awaited ${expected}`,
  waitNeedsPlacedCore:
    'spat.wait / spat.host_wait_load need a placed core (coreId or coreIds) to know whose event register to read',
  hostRangeUnwritten: (offset: number, bytes: number): string =>
    `host byte range [${offset}, ${offset + bytes}) was never stored (out-of-bounds host read)`,
  hostOffsetInvalid: (offset: number): string => `host offset ${offset} must be a nonnegative integer`,
  idNotInteger: (what: string, value: string): string => `${what} must be a nonnegative integer, got ${value}`,
  blockingInNestedRegion: (op: string): string =>
    `'${op}' would block inside a nested region; the interpreter suspends cores only at the top level of a scheduled body`,
  communicationOutsideSchedule: (op: string): string =>
    `'${op}' executes outside a scheduled compute; communication ops run on scheduled cores`,
  unsupportedElementType: (type: string): string => `unsupported element type ${type} for a payload`,
  branchInScheduledBody: 'branches between blocks are not supported in scheduled bodies by the interpreter',
  notAShapedValue: (what: string): string => `${what} must be a tensor or buffer value`,
  blockedOnInput: (value: string, producer: string): string => `waits for ${value} produced by '${producer}'`,
  blockedOnReceive: (key: string): string => `waits for data on ${key}`,
  blockedOnWait: (core: string, event: number, have: number, want: number): string =>
    `waits for event register ${event} on ${core} to reach ${want} (has ${have})`,
  blockedOnCoreOrder: (op: string): string => `waits for an earlier computation on the same core ('${op}')`,
  stepLimit: (n: number): string => `scheduled run exceeded ${n} steps`,
} as const;
