/**
 * Every message text of the memref dialect (verifiers, custom assembly and interpreter), worded
 * as MLIR 22 words them where MLIR has the same check.
 */
const q = (s: string) => `'${s}'`;

/** Messages of the memref dialect. */
export const MemRefMessages = {
  // ---------------------------------------------------------------- allocation
  alignmentConstraint64:
    "attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0",
  dynamicSizeCount: (has: number, expected: number) => `incorrect number of dynamic sizes, has ${has}, expected ${expected}`,
  symbolOperandCount: (expected: number, got: number) =>
    `symbol operand count does not equal memref symbol count: expected ${expected}, got ${got}`,
  allocaNeedsScope: 'requires an ancestor op with AutomaticAllocationScope trait',
  allocaScopeResultCount: (returned: number, expected: number) =>
    `along control flow edge from Operation memref.alloca_scope.return to parent: region branch point has ${returned} operands, but region successor needs ${expected} inputs`,
  allocaScopeResultType: (i: number, got: string, expected: string) =>
    `along control flow edge from Operation memref.alloca_scope.return to parent: successor operand type #${i} ${q(got)} should match successor input type #${i} ${q(expected)}`,
  reallocElementType: (src: string, dst: string) =>
    `different element types specified for source memref type ${q(src)} and result memref type ${q(dst)}`,
  reallocMemorySpace: (src: string, dst: string) =>
    `different memory spaces specified for source memref type ${q(src)} and result memref type ${q(dst)}`,
  reallocUnsupportedSourceLayout: (src: string) => `unsupported layout for source memref type ${q(src)}`,
  reallocUnsupportedResultLayout: (dst: string) => `unsupported layout for result memref type ${q(dst)}`,
  reallocMissingDim: (dst: string) => `missing dimension operand for result type ${q(dst)}`,
  reallocUnnecessaryDim: (dst: string) => `unnecessary dimension operand for result type ${q(dst)}`,
  // ---------------------------------------------------------------- globals
  globalTypeNotStatic: (t: string) => `type should be static shaped memref, but got ${q(t)}`,
  globalInitialValueShape: (expected: readonly number[], got: readonly number[]) =>
    `initial value shape expected to be ${expected.join(', ')} but was ${got.join(', ')}`,
  globalInitialValueElement: (expected: string, got: string) =>
    `initial value element expected to be of type ${q(expected)}, but was of type ${q(got)}`,
  globalInitialValueKind: 'initial value should be a unit or elements attribute',
  getGlobalUnknown: (name: string) => `${q(name)} does not reference a valid global memref`,
  getGlobalType: (got: string, expected: string, name: string) =>
    `result type ${q(got)} does not match type ${q(expected)} of the global memref @${name}`,
  // ---------------------------------------------------------------- access
  loadIndexCount: (expected: number, got: number) => `incorrect number of indices for load, expected ${expected} but got ${got}`,
  storeIndexCount: 'store index operand count not equal to memref rank',
  loadResultType: "failed to verify that result type matches element type of 'memref'",
  storeValueType: "failed to verify that type of 'value' matches element type of 'memref'",
  prefetchIndexCount: 'too few indices',
  atomicSubscripts: 'expects the number of subscripts to be equal to memref rank',
  atomicValueType: 'failed to verify that value type matches element type of memref',
  atomicResultType: 'failed to verify that all of {value, result} have same type',
  atomicKindFloat: (kind: string) => `with kind ${q(kind)} expects a floating-point type`,
  atomicKindInt: (kind: string) => `with kind ${q(kind)} expects an integer type`,
  atomicKindUnknown: (v: string) => `invalid properties for op memref.atomic_rmw: Invalid attribute \`kind\` in property conversion: ${v}`,
  genericAtomicArgs: 'expected single number of entry block arguments',
  genericAtomicArgType: 'expected block argument of the same type result type',
  genericAtomicSideEffects: "body of 'memref.generic_atomic_rmw' should contain only operations with no side effects",
  atomicYieldType: (got: string, expected: string) => `types mismatch between yield op: ${q(got)} and its parent: ${q(expected)}`,
  dmaWaitTagIndices: (expected: number, got: number) =>
    `expected tagIndices to have the same number of elements as the tagMemRef rank, expected ${expected}, but got ${got}`,
  dmaTooFewOperands: 'expected at least 4 operands',
  dmaExpectSource: 'expected source to be of memref type',
  dmaExpectDestination: 'expected destination to be of memref type',
  dmaExpectTag: 'expected tag to be of memref type',
  dmaSourceIndices: (expected: number) => `expected ${expected} source indices`,
  dmaIndexType: (what: string) => `expected ${what} indices to be of index type`,
  dmaNumElementsType: 'expected num elements to be of index type',
  dmaOperandCount: (expected: number) => `incorrect number of operands: expected ${expected} (or 2 more with a stride)`,
  dmaStrideType: 'expected stride and num elements per stride to be of type index',
  dmaElementType: (src: string, dst: string) =>
    `source and destination memrefs should have the same element type, but got ${q(src)} and ${q(dst)}`,
  dmaTwoStrideOperands: 'expected two stride related operands',
  dmaTypeCount: 'fewer/more types expected',
  copyElementType: 'requires the same element type for all operands',
  copyShape: 'requires the same shape for all operands',
  // ---------------------------------------------------------------- casts and views
  castIncompatible: (a: string, b: string) => `operand type ${q(a)} and result type ${q(b)} are cast incompatible`,
  assumeAlignmentPowerOf2: 'alignment must be power of 2',
  assumeAlignmentConstraint: "attribute 'alignment' failed to satisfy constraint: 32-bit signless integer attribute whose value is positive",
  distinctObjectsTypes: 'operand types and result types must match',
  extractMetadataInferred: (inferred: readonly string[], actual: readonly string[]) =>
    `inferred type(s) ${inferred.map(q).join(', ')} are incompatible with return type(s) of operation ${actual.map(q).join(', ')}`,
  sameOperandsAndResultType: 'requires the same type for all operands and results',
  inferFailed: 'failed to infer returned types',
  extractMetadataNotStrided: (t: string) => `operand #0 must be strided memref of any type values, but got ${q(t)}`,
  // subview / reinterpret_cast
  mixedRank: (a: string, b: string, x: number, y: number) =>
    `expected mixed ${a} rank to match mixed ${b} rank (${x} vs ${y}) so the rank of the result type is well-formed.`,
  dynamicEntryCount: (name: string, operands: number, dynamics: number) =>
    `expected the number of '${name}' to match the number of dynamic entries in 'static_${name}' (${operands} vs ${dynamics})`,
  rankedEntryCount: (expected: number, name: string, got: number) => `expected ${expected} ${name} values, got ${got}`,
  nonNegative: (name: string, v: number) => `expected ${name} to be non-negative, but got ${v}`,
  subviewOutOfBounds: (dim: number, last: number, size: number) =>
    `slice along dimension ${dim} runs out-of-bounds: ${last} >= ${size}`,
  subviewResultRank: (t: string) => `expected result rank to be smaller or equal to the source rank, but got ${q(t)}`,
  subviewResultElement: (elem: string, t: string) => `expected result element type to be ${q(elem)}, but got ${q(t)}`,
  subviewMemorySpace: (src: string, dst: string) =>
    `different memory spaces specified for base memref type ${q(src)} and subview memref type ${q(dst)}`,
  sliceOffsetOutOfBounds: (dim: number, off: number, size: number, op = '>=') => `offset ${dim} is out-of-bounds: ${off} ${op} ${size}`,
  subviewMismatch: (expected: string, why: string, got: string) =>
    `expected result type to be ${q(expected)} or a rank-reduced version. (${why}), but got ${q(got)}`,
  subviewNotStrided: (t: string) => `base type ${q(t)} is not strided`,
  reinterpretElementType: (src: string, dst: string) =>
    `different element types specified for source type ${q(src)} and result memref type ${q(dst)}`,
  reinterpretMemorySpace: (src: string, dst: string) =>
    `different memory spaces specified for source type ${q(src)} and result memref type ${q(dst)}`,
  reinterpretSize: (expected: string, got: number, dim: number) =>
    `expected result type with size = ${expected} instead of ${got} in dim = ${dim}`,
  reinterpretOffset: (expected: string, got: string) => `expected result type with offset = ${expected} instead of ${got}`,
  reinterpretStride: (expected: string, got: string, dim: number) =>
    `expected result type with stride = ${expected} instead of ${got} in dim = ${dim}`,
  reinterpretResultRank: (expected: number, got: number) => `expected ${expected} size values, got ${got}`,
  reinterpretNotStrided: (t: string) => `expected result type to have strided layout but found ${q(t)}`,
  // view
  viewBaseMap: (t: string) => `unsupported map for base memref type ${q(t)}`,
  viewResultMap: (t: string) => `unsupported map for result memref type ${q(t)}`,
  viewMemorySpace: (src: string, dst: string) =>
    `different memory spaces specified for base memref type ${q(src)} and view memref type ${q(dst)}`,
  // reshape
  reshapeElementType: 'element types of source and destination memref types should be the same',
  reshapeSourceIdentity: 'source memref type should have identity affine map',
  reshapeResultIdentity: 'result memref type should have identity affine map',
  reshapeShapeLength: "length of shape operand differs from the result's memref rank",
  reshapeElementCount: (src: number, dst: number) =>
    `source memref type has ${src} elements but the result memref type has ${dst} (they should be the same)`,
  reshapeMemorySpace: 'source and result memref types should have the same memory space',
  reshapeDynamicShape: 'cannot use shape operand with dynamic length to reshape to statically-ranked memref type',
  // collapse / expand
  notCollapse: (r0: number, r1: number) => `has source rank ${r0} and result rank ${r1}. This is not a collapse (${r0} < ${r1}).`,
  notExpansion: (r0: number, r1: number) => `has source rank ${r0} and result rank ${r1}. This is not an expansion (${r0} > ${r1}).`,
  reassocGroupCount: (found: number, expected: number) => `invalid number of reassociation groups: found ${found}, expected ${expected}`,
  reassocContiguous: 'reassociation indices must be contiguous',
  reassocOutOfBounds: (i: number) => `reassociation index ${i} is out of bounds`,
  collapsedDimDynamic: (d: number) => `collapsed dim (${d}) must be dynamic if and only if reassociation group is dynamic`,
  collapsedDimSize: (size: number, group: number) => `collapsed dim size (${size}) must equal reassociation group size (${group})`,
  rank0Ones: 'rank 0 memrefs can only be extended/collapsed with/from ones',
  expandedRankInconsistent: (rank: number, n: number) =>
    `expanded rank (${rank}) inconsistent with number of reassociation indices (${n})`,
  collapseNonContiguous: 'invalid source layout map or collapsing non-contiguous dims',
  collapsedType: (expected: string, got: string) => `expected collapsed type to be ${q(expected)} but found ${q(got)}`,
  expandInvalidLayout: 'invalid source layout map',
  expandedType: (expected: string, got: string) => `expected expanded type to be ${q(expected)} but found ${q(got)}`,
  expandStaticCount: (rank: number, n: number) =>
    `expected number of static shape bounds to be equal to the output rank (${rank}) but found ${n} inputs instead`,
  expandDynamicCount: (dyn: number, n: number) =>
    `mismatch in dynamic dims in output_shape and static_output_shape: static_output_shape has ${dyn} dynamic dims while output_shape has ${n} values`,
  expandOutputShape: (pos: number) => `invalid output shape provided at pos ${pos}`,
  reassociationAttr: "attribute 'reassociation' failed to satisfy constraint: Array of 64-bit integer array attributes",
  // transpose
  transposeNotPermutation: 'expected a permutation map',
  transposeRank: 'expected a permutation map of same rank as the input',
  transposeResult: (got: string, expected: string) =>
    `result type ${q(got)} is not equivalent to the canonical transposed input type ${q(expected)}`,
  // ---------------------------------------------------------------- custom assembly
  transposeUndeclaredDim: (n: string) =>
    `use of undeclared identifier '${n}' (memref.transpose permutations list dimension identifiers only)`,
  invalidTypeKind: (t: string) => `invalid kind of type specified: expected builtin.memref, but found ${t}`,
  expectedAtomicKind: (kinds: readonly string[]) =>
    `expected string or keyword containing one of the following enum values for attribute 'kind' [${kinds.join(', ')}]`,
  expectedReadOrWrite: "rw specifier has to be 'read' or 'write'",
  expectedDataOrInstr: "cache type has to be 'data' or 'instr'",
  expectedMemRefType: 'expected memref type',
  expectedRankedMemRef: 'expected a ranked memref type',
  globalExpectedType: 'expected memref type',
  invalidDynamicIndexList: 'expected SSA value or integer',
  // ---------------------------------------------------------------- interpreter
  outOfBounds: (op: string, idx: readonly number[], shape: readonly number[]) =>
    `${op}: index [${idx.join(', ')}] is out of bounds for shape [${shape.join('x')}]`,
  outOfBuffer: (op: string, element: number, size: number) =>
    `${op}: element ${element} lies outside its buffer of ${size} elements`,
  useAfterFree: (op: string, id: number) => `${op}: use of buffer #${id} after it was deallocated`,
  doubleFree: (id: number) => `memref.dealloc: buffer #${id} was already deallocated`,
  deallocView: (id: number) =>
    `memref.dealloc: the operand is a view of buffer #${id}, not the memref its allocation returned`,
  deallocNotAllocated: (id: number) => `memref.dealloc: buffer #${id} was not allocated by memref.alloc/realloc`,
  dynamicMismatch: (op: string, what: string, expected: number, got: number) =>
    `${op}: runtime ${what} ${got} does not match the static ${expected} of the result type`,
  negativeSize: (op: string, v: number) => `${op}: runtime size ${v} is negative`,
  viewOutOfBounds: (needed: number, size: number) => `memref.view: the view needs ${needed} bytes but the source has ${size}`,
  unsupportedInterp: (op: string) => `${op} is not supported by the memref interpreter`,
  unknownValue: (what: string) => `no runtime value for ${what}`,
  atomicOnNonScalar: 'memref.atomic_rmw: value is not a number',
  globalNotFound: (name: string) => `memref.get_global: global @${name} not found`,
  dimOutOfRange: (i: number, rank: number) => `memref.dim: dimension ${i} is out of range for rank ${rank}`,
  unalignedView: (elem: number, shift: number) => `memref.view: byte shift ${shift} is not a multiple of the element size ${elem}`,
  constantGlobalWrite: (id: number) => `memref.store: write to constant global buffer #${id}`,
  copyShapeMismatch: (src: readonly number[], dst: readonly number[]) =>
    `memref.copy: source shape [${src.join('x')}] differs from target shape [${dst.join('x')}]`,
  subviewRuntimeOutOfBounds: (dim: number, off: number, size: number, stride: number, extent: number) =>
    `memref.subview: slice along dimension ${dim} (offset ${off}, size ${size}, stride ${stride}) runs out of bounds of size ${extent}`,
  collapseNotContiguous: (group: readonly number[]) => `memref.collapse_shape: dimensions [${group.join(', ')}] are not contiguous at runtime`,
  expandGroupSize: (group: number, prod: number, expected: number) =>
    `memref.expand_shape: output sizes of group ${group} multiply to ${prod}, expected ${expected}`,
  reshapeRuntimeCount: (shape: readonly number[], n: number, src: number) =>
    `memref.reshape: shape [${shape.join('x')}] has ${n} elements, the source has ${src}`,
  runtimeRank: (op: string, got: number, expected: number) => `${op}: runtime rank ${got} does not match the result rank ${expected}`,
  transferPastEnd: (op: string, shape: readonly number[]) => `${op}: transfer runs past the end of a memref of shape [${shape.join('x')}]`,
  unknownAtomicKind: (kind: string) => `memref.atomic_rmw: unknown kind ${kind}`,
  tensorForMemRef: 'memref rules: a tensor value was passed where a memref was expected',
  unexpectedObject: (kind: string) => `memref rules: unexpected runtime object '${kind}'`,
  elementType: (t: string) => `memref interpreter: unsupported element type ${t}`,
} as const;
