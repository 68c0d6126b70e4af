/**
 * Every message text of the codegen package, in one place. Each says what is wrong and what
 * would be right; the op and location come from the diagnostic itself.
 */

/** The diagnostic texts of code generation, one function per message (arguments: the facts it names). */
export const CodegenMessages = {
  // ---------------------------------------------------------------- streams and cores
  noCoreStreams: () => `pim-emit: the module has no 'pim.core' or 'pim.core_batch' stream to emit (run spatial-to-pim and bufferization first)`,
  batchWithoutCoreIds: () => `needs 'coreIds' (one core id per lane) for code generation`,
  coreIdsLength: (ids: number, lanes: number) => `has ${ids} coreIds for ${lanes} lanes; code generation needs exactly one core id per lane`,
  coreIdRange: (core: number, cores: number) =>
    `core id ${core} is outside the target's cores [0, ${cores}) (chip_config.core_cnt)`,
  twoStreamsOnCore: (core: number) => `core ${core} already runs another stream; each core runs exactly one stream`,
  hostOp: (name: string) =>
    `'${name}' at function level would run on the host, which has no instruction stream; only core streams, host allocations, constants, views and the return can be emitted`,
  nestedCore: () => `must be at the top level of the entry function to be emitted (core streams run once, side by side)`,
  noHalt: () => `core stream must end with 'pim.halt'`,
  unsupportedOp: (name: string) => `'${name}' is not supported inside a core stream by code generation (supported: pim ops, memref.alloc and views, arith/affine index arithmetic, scf.for with static bounds)`,
  tensorOperand: (what: string, type: string) =>
    `${what} has type ${type}: code generation needs bufferized operands (memrefs); run pim-bufferize and pim-plan-memory first`,

  // ---------------------------------------------------------------- static evaluation
  notStatic: (what: string, lane: string) =>
    `${what} does not resolve to a static integer${lane}; lane, address, peer and event expressions must fold to constants`,
  laneSuffix: (core: number, lane: number | undefined) => (lane === undefined ? ` on core ${core}` : ` for lane ${lane} (core ${core})`),
  loopTooLong: (trips: number, limit: number) => `has ${trips} iterations; code generation unrolls at most ${limit}`,

  // ---------------------------------------------------------------- memory plan
  notPlanned: () => `local allocation has no planned address (a 'pim.address' attribute set by pim-plan-memory)`,
  noLocalMemorySize: () => `has no 'pim.local_memory_size' attribute (set by pim-plan-memory)`,
  localMemoryTooBig: (size: number, capacity: number) =>
    `pim.local_memory_size ${size} exceeds the target's local memory of ${capacity} bytes (local_memory_config.memory_size)`,
  negativeAddress: (address: number) => `planned address ${address} is negative`,
  misaligned: (address: number, alignment: number) => `planned address ${address} is not aligned to ${alignment} bytes (raptor_config.local_memory_alignment)`,
  outsideArena: (address: number, bytes: number, arena: number) =>
    `allocation [${address}, ${address + bytes}) lies outside the core's arena of ${arena} bytes (pim.local_memory_size)`,
  dynamicShape: (type: string) => `has type ${type}: code generation needs static shapes`,
  unknownStorage: (what: string) => `${what} is not a planned local allocation, a view of one, or a host buffer (function argument, host allocation or memref.global)`,
  notContiguous: (what: string) => `${what} is not contiguous in memory; code generation needs dense row-major buffers`,
  wrongSpace: (what: string, expected: 'local' | 'host', actual: 'local' | 'host') =>
    `${what} must be ${expected === 'local' ? 'device-local storage' : 'a host buffer'}, but it is ${actual === 'local' ? 'device-local storage' : 'a host buffer'}`,
  outOfBounds: (what: string, start: number, end: number, size: number) =>
    `${what} accesses bytes [${start}, ${end}) of a ${size}-byte buffer`,
  negativeValue: (what: string, value: number) => `${what} is ${value}; it must be non-negative`,
  hostAddressNotPlanned: (name: string) => `host buffer ${name} has a planned address that is not a non-negative integer`,
  hostArgAddresses: (entries: number | undefined, args: number) =>
    `pim.host_arg_addresses must list one address per argument (${args}), it ${entries === undefined ? 'is not an i64 array' : `has ${entries}`}`,
  hostOverlap: (a: string, b: string) => `host buffers ${a} and ${b} overlap in global memory`,
  hostTooBig: (end: number, capacity: number) =>
    `host buffers need ${end} bytes of global memory, the target has ${capacity} (global_memory_config.memory_size)`,
  hostMisaligned: (name: string, address: number) => `host buffer ${name} is at address ${address}, which is not 4-byte aligned`,

  // ---------------------------------------------------------------- operations and ISA fields
  elementType: (what: string, type: string) =>
    `${what} has element type ${type}; vector and matrix instructions are emitted for f32 (setbw 32/32)`,
  elementMisaligned: (what: string, address: number) => `${what} is at local address ${address}, not aligned to its 4-byte f32 elements`,
  lengthMismatch: (what: string, got: number, expected: number) => `${what} has ${got} elements, expected ${expected}`,
  fieldRange: (field: string, value: number, max: number) => `${field} ${value} does not fit the ISA field (at most ${max})`,
  positiveSize: (field: string, value: number) => `${field} is ${value}; it must be positive`,
  peerRange: (what: string, core: number, cores: number) =>
    `${what} is core ${core}, which is not one of the target's cores [0, ${cores})`,
  peerSelf: (what: string, core: number) => `${what} is core ${core}, the executing core itself (pimsim-nn cannot message its own core)`,
  peerNoStream: (what: string, core: number) => `${what} is core ${core}, which runs no stream`,
  selfSyncUnconsumed: (core: number, event: number, count: number) =>
    `core ${core} signals its own event register ${event} ${count} more time(s) than its later waits consume`,
  eventRange: (value: number, count: number) => `event register ${value} is outside [0, ${count})`,
  vsoftmaxDisabled: () =>
    `'pim.vsoftmax' needs raptor_config.allow_vsoftmax (opcode 21 is rejected by pimsim-nn); the model needs softmax, enable it in the target configuration or lower softmax before code generation`,
  permutation: (perm: string, rank: number) => `permutation ${perm} is not a permutation of the ${rank} dimensions of the source`,
  transposeShape: (dst: string, expected: string) => `destination shape ${dst} does not follow the permutation (expected ${expected})`,
  concatShape: () => `inputs do not concatenate to the destination shape`,
  vavgDestination: (n: number) => `destination has ${n} elements; 'pim.vavg' writes exactly one`,

  // ---------------------------------------------------------------- weights and array groups
  weightNotConstant: () => `weight is not a compile-time constant (an arith.constant dense tensor or a constant memref.global)`,
  weightType: (type: string) => `weight has type ${type}; code generation supports static 2-D f32 weights`,
  weightRows: (rows: number, xbarRows: number) =>
    `weight has ${rows} rows, more than one crossbar's ${xbarRows} (matrix_config.xbar_size[0]); plan the weight into crossbar-sized tiles first`,
  vmmInputWidth: (width: number, rows: number) => `input has ${width} elements but the weight has ${rows} rows; the mvmul reads exactly one element per weight row`,
  crossbarsExceeded: (core: number, needed: number, available: number) =>
    `core ${core} needs ${needed} crossbars for its resident weights, the target has ${available} per core (matrix_config.xbar_array_count)`,
  badRecordedGroup: (group: number, groups: number) =>
    `records array group ${group}, but its core records ${groups} groups (pim.array_group_crossbars)`,
  recordedGroupTooSmall: (group: number, crossbars: number, needed: number) =>
    `records array group ${group} of ${crossbars} crossbars, the weight needs ${needed}`,

  // ---------------------------------------------------------------- communication
  transferSizeMismatch: (from: number, to: number, index: number, sent: number, received: number) =>
    `transfer #${index} from core ${from} to core ${to} sends ${sent} bytes but the matching receive takes ${received}`,
  unmatchedSend: (from: number, to: number, index: number) =>
    `send #${index} from core ${from} to core ${to} has no matching 'pim.receive' on core ${to} (it would block forever)`,
  unmatchedReceive: (from: number, to: number, index: number) =>
    `receive #${index} on core ${to} from core ${from} has no matching 'pim.send' on core ${from} (it would block forever)`,
  waitsExceedSyncs: (core: number, event: number, waited: number, signalled: number) =>
    `core ${core} waits for ${waited} signals on event register ${event}, but only ${signalled} 'pim.sync' target it (deadlock)`,
  deadlock: (core: number, what: string, blocked: string) =>
    `deadlock: core ${core} blocks here: it ${what} (cores that cannot finish: ${blocked})`,
  syncsExceedWaits: (core: number, event: number, signalled: number, waited: number) =>
    `${signalled} signals reach event register ${event} of core ${core}, its waits consume ${waited}; pimsim-nn's counting wait and the ISA's exact wait then differ`,

  initialValueType: (name: string, type: string) =>
    `the initial value of ${name} has element type ${type}, which the global memory image cannot hold yet (f32, f64 and integer types of 8 to 64 bits are supported)`,

  // ---------------------------------------------------------------- emission
  emitFailed: (count: number) => `pim-emit: ${count} error(s) in the input; no bundle written`,
  bundleInvalid: (message: string) => `pim-emit: the emitted bundle does not validate: ${message}`,
  writeFailed: (dir: string, message: string) => `pim-emit: cannot write the bundle to '${dir}': ${message}`,
} as const;
