/**
 * Every diagnostic text of the `pim` dialect (verifiers, parsers and interpreter rules).
 */
export const PimMessages = {
  // ------------------------------------------------------------ parser
  /** A property also given in the attribute dictionary (`axis` of `pim.concat`). */
  duplicateProperty: (name: string) => `'${name}' is printed positionally and must not appear in the attribute dictionary`,
  /** Operand/type count mismatch in a custom form. */
  typeCount: (what: string, expected: number, got: number) => `expected ${expected} ${what} type(s), got ${got}`,
  /** The lane range of `pim.core_batch` must start at 0. */
  laneRangeStart: (lower: number) => `lane range must start at 0, got ${lower}`,
  // ------------------------------------------------------------ verifiers
  /** `pim.concat` without inputs. */
  concatNoInputs: 'requires at least one input',
  /** `pim.concat` axis out of range. */
  concatAxisRange: (axis: number, rank: number) => `axis ${axis} is out of range [0, ${rank})`,
  /** `pim.concat` input rank differs from the output rank. */
  concatRank: (index: number, rank: number, outRank: number) => `input #${index} has rank ${rank}, expected the output rank ${outRank}`,
  /** `pim.concat` element type differs. */
  concatElement: (index: number, got: string, expected: string) => `input #${index} has element type ${got}, expected ${expected}`,
  /** `pim.concat` static non-axis dimension mismatch. */
  concatDim: (index: number, dim: number, got: number, expected: number) =>
    `input #${index} has size ${got} in non-axis dimension ${dim}, expected ${expected}`,
  /** `pim.concat` axis sizes do not add up. */
  concatAxisSum: (sum: number, expected: number) => `input sizes along the axis add up to ${sum}, expected the output size ${expected}`,
  /** Tensors mixed with memrefs. */
  containerKind: (what: string) => `${what}: all values must be tensors or all memrefs`,
  /** Destination and result differ. */
  destinationResult: (what: string, dst: string, result: string) => `${what} destination type ${dst} does not match result type ${result}`,
  /** Rank-2 requirement of `pim.vmm`. */
  vmmRank: (role: string, rank: number) => `${role} must have rank 2, got rank ${rank}`,
  /** Non-positive weight dimension. */
  vmmWeightDims: (rows: number, cols: number) => `weight dimensions must be positive, got ${rows}x${cols}`,
  /** Input must be 1 x positive width. */
  vmmInputShape: (shape: string) => `input must be 1xW with W > 0, got ${shape}`,
  /** Output must be 1 x M. */
  vmmOutputShape: (shape: string, cols: number) => `output must be 1x${cols} (weight columns), got ${shape}`,
  /** `pim.vmv` length. */
  vmvLength: (length: number) => `length must be positive, got ${length}`,
  /** `pim.vmv` source/target element type. */
  elementMismatch: (what: string, a: string, b: string) => `${what}: element types ${a} and ${b} differ`,
  /** Core body shape. */
  coreOneBlock: (blocks: number) => `body must have exactly one block, got ${blocks}`,
  /** Core body argument count. */
  coreArgCount: (expected: number, got: number, order: string) => `body must have ${expected} argument(s) (${order}), got ${got}`,
  /** Core body argument type. */
  coreArgType: (index: number, got: string, expected: string) => `body argument #${index} has type ${got}, expected ${expected}`,
  /** Lane argument type. */
  laneType: (got: string) => `lane argument must have type index, got ${got}`,
  /** laneCount must be positive. */
  laneCount: (n: number) => `laneCount must be positive, got ${n}`,
  /** Capture rule of core bodies. */
  coreCapture: (inner: string) =>
    `body op '${inner}' uses a value defined outside the core that is neither a constant nor an explicit host-transfer operand`,

  // ------------------------------------------------------------ interpreter
  /** Value not available (unsupported op etc.). */
  notStatic: (op: string, what: string) => `'${op}': ${what} does not resolve to a static integer`,
  /** Byte range out of bounds. */
  outOfBounds: (op: string, what: string, offset: number, size: number, bytes: number) =>
    `'${op}': ${what} byte range [${offset}, ${offset + size}) is out of bounds of a ${bytes}-byte buffer`,
  /** Negative offsets or sizes. */
  negative: (op: string, what: string, v: number) => `'${op}': ${what} must be nonnegative, got ${v}`,
  /** Byte range not a multiple of the element size. */
  unaligned: (op: string, what: string, v: number, elementBytes: number) =>
    `'${op}': ${what} ${v} is not a multiple of the element size ${elementBytes}`,
  /** Unsupported element type. */
  elementType: (op: string, type: string) => `'${op}': unsupported element type ${type} (f32, f64, i8/i16/i32/i64 supported)`,
  /** Shape mismatch the interpreter sees. */
  shape: (op: string, what: string) => `'${op}': ${what}`,
  /** Send/receive sizes differ. */
  transferSize: (send: string, receive: string, sent: number, expected: number) =>
    `transfer size mismatch: ${send} sends ${sent} bytes, ${receive} expects ${expected}`,
  /** Receive without sender. */
  noSender: (receive: string, core: number, source: number) =>
    `${receive} on core ${core} waits for core ${source}, which has no matching send (finished or halted)`,
  /** Send whose receiver finished. */
  noReceiver: (send: string, core: number, target: number) =>
    `${send} on core ${core} sends to core ${target}, which finished without a matching receive`,
  /** Header of the deadlock report (ir-core's `deadlockFailure` lists every blocked stream after it). */
  deadlockHeader: 'all cores are blocked',
  /** A blocked send, in the deadlock report. */
  waitsForReceiver: (target: number) => `waits for core ${target} to receive`,
  /** A blocked receive, in the deadlock report. */
  waitsForData: (source: number) => `waits for data from core ${source}`,
  /** A blocked wait, in the deadlock report. */
  waitsForEvent: (register: number, count: number, value: number) =>
    `waits for event register ${register} to reach ${count} (now ${value})`,
  /** A stream blocked for no recorded reason, in the deadlock report. */
  blockedStream: 'is blocked',
  /** Wait overshoot. */
  waitOvershoot: (wait: string, core: number, register: number, value: number, expected: number) =>
    `${wait} on core ${core}: event register ${register} holds ${value}, beyond the expected count ${expected}`,
  /** Sync to a missing core. */
  unknownCore: (op: string, core: number) => `'${op}' targets core ${core}, which runs no stream`,
  /** Two lanes write the same bytes. */
  laneOverlap: (a: string, b: string, laneA: number, laneB: number, start: number, end: number) =>
    `lanes ${laneA} (${a}) and ${laneB} (${b}) both write host bytes [${start}, ${end})`,
  /** Operation without rule inside a core. */
  unsupportedInCore: (op: string) => `'${op}' cannot be interpreted inside a pim core stream`,
  /** Stream ran past the end without pim.halt. */
  noHalt: (core: number) => `core ${core}: stream ends without pim.halt`,
  /** coreIds length. */
  coreIdsLength: (got: number, lanes: number) => `coreIds has ${got} entries for ${lanes} lanes`,
  /** A core id used twice. */
  duplicateCore: (core: number) => `core ${core} runs more than one stream`,
  /** A stream op outside a core. */
  outsideCore: (op: string) => `'${op}' executes only inside a pim.core or pim.core_batch stream`,
  /** A blocking op inside a nested region of a stream. */
  blockingInNestedRegion: (op: string) =>
    `'${op}' blocks inside a nested region of a core stream (only top-level transfers and waits can block)`,
  /** A branch at the top level of a stream. */
  branchInStream: (op: string) => `'${op}': branches between blocks are not supported in core streams`,
  /** Step limit of the core machine. */
  stepLimit: (n: number) => `core streams exceeded the step limit of ${n} ops`,
  /** Tensor destination of a transfer inside a core is not a memref. */
  hostNotMemref: (op: string) => `'${op}': host operands must be memrefs defined outside the core`,
} as const;
