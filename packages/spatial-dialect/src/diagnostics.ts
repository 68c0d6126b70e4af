/**
 * Every message text of the `spat` dialect's attributes, ops (parsers and verifiers) and
 * interpreter rules (parts A; the scheduling ops keep theirs in
 * `interpreter/scheduling-messages.ts`). Verifier messages follow after MLIR's
 * `'spat.op' op ` prefix.
 */
const list = (xs: readonly (number | string)[]): string => `[${xs.join(', ')}]`;

/** Message texts of the `spat` dialect. */
export const SpatMessages = {
  // ---------------------------------------------------------------- attributes / parsing
  expectedEnumCase: (kind: string, cases: readonly string[], got: string | null) =>
    `expected ${kind} value (one of ${cases.join(', ')})${got === null ? '' : `, got '${got}'`}`,
  unknownAttributeKind: (kinds: readonly string[], got: string | null) =>
    `unknown spat attribute${got === null ? '' : ` '${got}'`}: expected one of ${kinds.join(', ')}`,
  typeCountMismatch: (what: string, values: number, types: number) => `${what}: ${values} value(s) but ${types} type(s)`,
  crossbarWeightsMismatch: (printed: number, derived: number) =>
    `crossbarWeights ${printed} does not match the body, which uses ${derived} distinct resident weight(s)`,
  sharedOutsCount: (outs: number, results: number) => `shared_outs declares ${outs} argument(s) but the op has ${results} result(s)`,
  laneRangeMustStartAtZero: (lower: number) => `lane range must start at 0, got ${lower}`,

  // ---------------------------------------------------------------- shared type rules
  notRankedTensor: (what: string, type: string) => `${what} must be a ranked tensor, got ${type}`,
  notStatic: (what: string, type: string) => `${what} must have a static shape, got ${type}`,
  wrongRank: (what: string, type: string, rank: number | string) => `${what} must have rank ${rank}, got ${type}`,
  elementTypeMismatch: (what: string, type: string, expected: string) => `${what} element type of ${type} does not match ${expected}`,
  typeMismatch: (what: string, type: string, expected: string) => `${what} has type ${type}, expected ${expected}`,
  nonPositiveDim: (what: string, type: string) => `${what} must have positive dimensions, got ${type}`,
  arrayLength: (name: string, length: number, expected: number) => `'${name}' must have ${expected} entries, got ${length}`,

  // ---------------------------------------------------------------- plans
  biasShape: (type: string, channels: number) =>
    `bias of type ${type} must be a scalar (rank 0), [C], [1, C] or [1, C, 1, 1] with C = ${channels}`,
  concatPlanAxis: (axis: number) => `axis must be 1 (the channel axis), got ${axis}`,
  noInputs: 'requires at least one input',
  inputRankMismatch: (k: number, type: string, rank: number) => `input #${k} of type ${type} must have rank ${rank} (the output rank)`,
  nonAxisDimMismatch: (k: number, dim: number, got: number, expected: number) =>
    `input #${k} dimension ${dim} is ${got}, expected ${expected} (the output's, outside the concatenation axis)`,
  axisSumMismatch: (sum: number, expected: number) => `input sizes along the axis sum to ${sum}, but the output has ${expected}`,
  axisInDictionary: "'axis' is printed after the 'axis' keyword and cannot also appear in the attribute dictionary",
  concatAxisRange: (axis: number, rank: number) => `axis ${axis} must be in [0, ${rank})`,
  groupNotPositive: (group: number) => `group must be >= 1, got ${group}`,
  flattenAxisRange: (axis: number, rank: number) => `axis ${axis} must be in [${-rank}, ${rank}]`,
  flattenDim: (which: 'first' | 'second', got: number, expected: number) =>
    `output ${which} dimension is ${got}, expected ${expected} (the product of the input dimensions ${which === 'first' ? 'before' : 'from'} axis)`,
  batchNotOne: (type: string) => `input batch dimension must be 1, got ${type}`,
  channelMismatch: (input: number, output: number) => `output channels ${output} must equal input channels ${input}`,
  poolOutputSpatial: (type: string) => `output must have H = W = 1, got ${type}`,
  batchChannelMismatch: (input: string, output: string) => `output ${output} must keep the batch and channel dimensions of input ${input}`,

  // ---------------------------------------------------------------- element-wise
  vvdmulShape: (what: string, type: string) => `${what} must be a 1xN row vector with N > 0, got ${type}`,
  vvdmulOutput: (type: string) => `output must be exactly 1x1, got ${type}`,
  wvmmWeight: (type: string) => `weight must be a rank-2 NxM matrix with N, M > 0, got ${type}`,
  wvmmInput: (type: string, n: number) => `input must be exactly 1x${n} (1xN for an NxM weight), got ${type}`,
  wvmmOutput: (type: string, m: number) => `output must be exactly 1x${m} (1xM for an NxM weight), got ${type}`,
  extractRowsCount: (results: number, rows: number) => `has ${results} result(s), expected ${rows} (one per input row)`,
  extractRowsResult: (k: number, type: string, expected: string) => `result #${k} has type ${type}, expected ${expected}`,

  // ---------------------------------------------------------------- compute
  emptyBody: 'requires a nonempty body',
  blockArgCount: (block: number, expected: number, got: number, order: string) =>
    `block #${block} has ${got} argument(s), expected ${expected} (${order})`,
  argTypeMismatch: (role: string, k: number, got: string, expected: string) => `${role} argument #${k} has type ${got}, expected ${expected} (the operand type)`,
  laneArgNotIndex: (type: string) => `lane argument must have type index, got ${type}`,
  terminatorNotYield: (name: string) => `body must end with 'spat.yield', found '${name}'`,
  yieldCount: (got: number, expected: number) => `'spat.yield' returns ${got} value(s), expected ${expected} (the result count)`,
  yieldType: (k: number, got: string, expected: string) => `'spat.yield' value #${k} has type ${got}, expected ${expected} (result #${k})`,
  unusedInput: (k: number) => `input argument #${k} is not used by the single-block body`,
  weightNotConstant: (k: number) => `weight #${k} must be compile-time computable (defined by a constant-like op)`,
  nonConstantCapture: (op: string) => `body op '${op}' uses a nonconstant value defined outside the body; bind it as an input`,
  captureOfComputeResult: (op: string, producer: string) => `body op '${op}' directly captures the result of '${producer}'; bind it as an input`,
  laneCountNotPositive: (n: number) => `laneCount must be positive, got ${n}`,
  coreIdsLength: (got: number, lanes: number) => `coreIds has ${got} entries, expected ${lanes} (laneCount)`,
  coreIdNegative: (k: number, id: number) => `coreIds[${k}] = ${id} must be nonnegative`,
  coreIdDuplicate: (id: number, first: number, second: number) => `core id ${id} appears twice (lanes ${first} and ${second})`,
  batchResultfulTerminator: (name: string) => `a batch with results must end each block with 'spat.in_parallel', found '${name}'`,
  batchResultlessTerminator: (name: string) => `a batch without results must end each block with 'spat.yield', found '${name}'`,
  batchYieldValues: (n: number) => `a resultless batch yields no values, got ${n}`,
  fragmentResultShape: (k: number, type: string, lanes: number) => `result #${k} of type ${type} must have leading dimension ${lanes} (laneCount) and a static shape`,
  fragmentPublicationCount: (k: number, got: number) => `result #${k} must receive exactly one publication per lane, found ${got} insertion(s)`,
  fragmentPublication: (k: number, detail: string) => `publication into result #${k}: ${detail}`,
  inParallelParent: (name: string) => `expects parent op 'spat.graph_compute_batch' or 'spat.scheduled_compute_batch' with results, got '${name}'`,
  inParallelOp: (name: string) => `may only contain 'tensor.parallel_insert_slice' ops, found '${name}'`,
  inParallelDest: 'insertion destination must be an output argument of the parent batch',
  inParallelStatic: (detail: string) => `insertion must be static: ${detail}`,
  inParallelOffset: (k: number) => `insertion offset #${k} must be a constant or an affine function of the lane`,
  inParallelSameDestination: (lanes: number) => `all ${lanes} lanes insert at the same static offsets; independent lanes must write disjoint destinations`,
  yieldParent: (name: string) => `expects parent op 'spat.graph_compute', 'spat.graph_compute_batch', 'spat.scheduled_compute', 'spat.scheduled_compute_batch' or 'spat.deferred_communication', got '${name}'`,

  // ---------------------------------------------------------------- blueprint
  blueprintGeometryLength: (offsets: number, sizes: number, rank: number) =>
    `offsets (${offsets}) and sizes (${sizes}) must have equal lengths divisible by the output rank ${rank}`,
  blueprintSliceBounds: (k: number, offsets: readonly number[], sizes: readonly number[], shape: readonly number[]) =>
    `destination slice #${k} (offsets ${list(offsets)}, sizes ${list(sizes)}) is outside the output shape ${list(shape)}`,
  blueprintSliceNegative: (k: number) => `destination slice #${k} has a negative offset or a nonpositive size`,
  blueprintViewRank: (input: string, output: string) => `physical_view input ${input} must have rank output rank + 1 (output ${output})`,
  blueprintViewOperands: (n: number) => `physical_view takes exactly one fragment collection, got ${n}`,
  blueprintViewGeometry: 'physical_view takes empty offsets and sizes',
  blueprintViewMetadata: 'physical_view takes no assembly metadata (operandIndices, sourceSlots, sourceOffsets)',
  blueprintFragmentRank: (k: number, type: string, rank: number) => `fragment collection #${k} of type ${type} must be a static ranked tensor of rank ${rank} (output rank + 1)`,
  blueprintMetadataMissing: 'fragment_assembly requires operandIndices, sourceSlots and sourceOffsets',
  blueprintMetadataLength: (name: string, got: number, expected: number) => `'${name}' has ${got} entries, expected ${expected} (one per destination slice)`,
  blueprintOperandIndex: (k: number, index: number, count: number) => `operandIndices[${k}] = ${index} is not a fragment collection index in [0, ${count})`,
  blueprintSourceSlot: (k: number, slot: number, slots: number) => `sourceSlots[${k}] = ${slot} is not a slot index in [0, ${slots})`,
  blueprintSourceOffset: (k: number, offset: number) => `sourceOffsets[${k}] = ${offset} must be nonnegative`,
  blueprintSourceFit: (k: number, offset: number, count: number, slot: number) =>
    `slice #${k} reads ${count} element(s) from element offset ${offset}, beyond the ${slot} element(s) of a fragment slot`,
  blueprintUnusedOperand: (k: number) => `fragment collection #${k} contributes no fragment`,
  blueprintStrides: (strides: readonly number[]) => `fragment strides must all be 1, got ${list(strides)}`,
  blueprintStridesLength: (got: number, expected: number) => `'strides' must have ${expected} entries (one per offset), got ${got}`,
  blueprintConflict: (policy: string) => `conflictPolicy must be disjoint, got ${policy}`,
  blueprintOverlap: (a: number, b: number) => `destination slices #${a} and #${b} overlap`,
  blueprintIncomplete: (covered: number, total: number) => `complete coverage requires every output element, but the slices cover ${covered} of ${total}`,
  blueprintRowMajor: 'contiguous_row_major requires canonical geometry: slices in row-major order tiling the output, slot k at slice k',
  blueprintElementType: (k: number, type: string, expected: string) => `fragment collection #${k} element type ${type} does not match the output element type ${expected}`,

  // ---------------------------------------------------------------- interpreter
  runtimeNotTensor: (op: string, k: number) => `'${op}' operand #${k} is not a tensor value`,
  runtimeUnsupportedElement: (op: string, type: string) => `'${op}': the interpreter computes f32 tensors only, got ${type}`,
  runtimeKernel: (op: string, message: string) => `'${op}': ${message}`,
  runtimeShapeMismatch: (op: string, got: readonly number[], expected: readonly number[]) =>
    `'${op}' computed shape ${list(got)} but the result type has ${list(expected)}`,
  runtimeNoPublication: (op: string, lane: number) => `'${op}' lane ${lane} published nothing`,
  runtimeBlueprintOverlap: (a: number, b: number, index: readonly number[]) =>
    `'spat.blueprint' slices #${a} and #${b} both write output element ${list(index)}`,
  runtimeBlueprintSource: (k: number, detail: string) => `'spat.blueprint' slice #${k}: ${detail}`,
  runtimeMultiBlock: (op: string) => `'${op}': the interpreter runs single-block bodies only (multi-block graph regions are resolved by scheduling)`,
} as const;

// ------------------------------------------------------------------ reference kernels
// Every message the reference kernels (src/interpreter/kernels) return: each names the kernel,
// what is wrong, and what would be right.

/** A shape as the kernel messages print it: `[2, 3]`. */
function formatShape(shape: readonly number[]): string {
  return `[${shape.join(', ')}]`;
}

/** Message builders for {@link KernelFailure} values returned by the reference kernels. */
export const KernelMessages = {
  invalidShape: (kernel: string, operand: string, shape: readonly number[]): string =>
    `${kernel}: ${operand} has shape ${formatShape(shape)}, expected non-negative integer dimensions`,
  dataLengthMismatch: (kernel: string, operand: string, shape: readonly number[], expected: number, actual: number): string =>
    `${kernel}: ${operand} has ${actual} elements of data, expected ${expected} for shape ${formatShape(shape)}`,
  rankMismatch: (kernel: string, operand: string, shape: readonly number[], expected: string): string =>
    `${kernel}: ${operand} has shape ${formatShape(shape)} (rank ${shape.length}), expected rank ${expected}`,
  attributeLength: (kernel: string, attribute: string, values: readonly number[], expected: number): string =>
    `${kernel}: ${attribute} is ${formatShape(values)} with ${values.length} entries, expected ${expected}`,
  attributeRange: (kernel: string, attribute: string, values: readonly number[], min: number): string =>
    `${kernel}: ${attribute} is ${formatShape(values)}, expected integers >= ${min}`,
  attributeValue: (kernel: string, attribute: string, value: string, expected: string): string =>
    `${kernel}: ${attribute} is ${value}, expected ${expected}`,
  axisOutOfRange: (kernel: string, axis: number, low: number, high: number): string =>
    `${kernel}: axis ${axis} is out of range, expected an integer in [${low}, ${high}]`,
  emptyOutput: (kernel: string, shape: readonly number[]): string =>
    `${kernel}: the attributes give output shape ${formatShape(shape)}, expected every spatial dimension >= 1`,
  groupChannels: (kernel: string, channels: number, group: number, operand: string): string =>
    `${kernel}: ${operand} has ${channels} channels, not divisible by group ${group}`,
  convWeightChannels: (kernel: string, weightShape: readonly number[], inputChannels: number, group: number): string =>
    `${kernel}: weight has shape ${formatShape(weightShape)}, expected dimension 1 = input channels / group = ${inputChannels} / ${group}`,
  biasShape: (kernel: string, biasShape: readonly number[], allowed: string): string =>
    `${kernel}: bias has shape ${formatShape(biasShape)}, expected ${allowed}`,
  padNotSmallerThanKernel: (kernel: string, pads: readonly number[], kernelShape: readonly number[]): string =>
    `${kernel}: pads ${formatShape(pads)} must each be smaller than the kernel extent ${formatShape(kernelShape)}`,
  notBroadcastable: (kernel: string, lhs: readonly number[], rhs: readonly number[]): string =>
    `${kernel}: shapes ${formatShape(lhs)} and ${formatShape(rhs)} are not broadcast-compatible (numpy rules)`,
  shapeMismatch: (kernel: string, operand: string, actual: readonly number[], expected: readonly number[], why: string): string =>
    `${kernel}: ${operand} has shape ${formatShape(actual)}, expected ${formatShape(expected)} (${why})`,
  dimensionMismatch: (kernel: string, what: string, actual: number, expected: number): string =>
    `${kernel}: ${what} is ${actual}, expected ${expected}`,
  emptyInputList: (kernel: string): string => `${kernel}: expected at least one input`,
  emptyReduction: (kernel: string, shape: readonly number[]): string =>
    `${kernel}: input shape ${formatShape(shape)} has no elements to reduce, expected a nonempty reduction domain`,
  permutation: (kernel: string, perm: readonly number[], rank: number): string =>
    `${kernel}: permutation ${formatShape(perm)} is not a permutation of 0..${rank - 1}`,
  duplicateAxis: (kernel: string, axes: readonly number[]): string =>
    `${kernel}: axes ${formatShape(axes)} repeat an axis, expected distinct axes`,
  sliceOutOfBounds: (kernel: string, axis: number, offset: number, size: number, stride: number, dim: number): string =>
    `${kernel}: slice on axis ${axis} (offset ${offset}, size ${size}, stride ${stride}) reads outside dimension ${dim}`,
  splitSizes: (kernel: string, sizes: readonly number[], dim: number): string =>
    `${kernel}: split sizes ${formatShape(sizes)} sum to ${sizes.reduce((a, b) => a + b, 0)}, expected the axis size ${dim}`,
  resizeTarget: (kernel: string): string => `${kernel}: give exactly one of scales or sizes`,
  resizeScale: (kernel: string, scales: readonly number[]): string =>
    `${kernel}: scales ${formatShape(scales)}, expected finite positive numbers`,
  unsupported: (kernel: string, feature: string): string => `${kernel}: ${feature} is not supported`,
  tileSize: (kernel: string, rows: number, cols: number): string =>
    `${kernel}: tile size ${rows}x${cols}, expected positive integers`,
  blockSize: (kernel: string, blockSize: number, channels: number): string =>
    `${kernel}: block size ${blockSize}, expected a positive integer whose square divides the channel count ${channels}`,
} as const;
