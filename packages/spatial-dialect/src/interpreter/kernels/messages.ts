/**
 * Every message text the reference kernels emit, in one place. Each message names the kernel,
 * what is wrong, and what would be right.
 */

function fmt(shape: readonly number[]): string {
  return `[${shape.join(', ')}]`;
}

/** Message builders for {@link KernelFailure} values returned by the reference kernels. */
export const KernelMessages = {
  invalidShape: (kernel: string, operand: string, shape: readonly number[]): string =>
    `${kernel}: ${operand} has shape ${fmt(shape)}, expected non-negative integer dimensions`,
  dataLengthMismatch: (kernel: string, operand: string, shape: readonly number[], expected: number, actual: number): string =>
    `${kernel}: ${operand} has ${actual} elements of data, expected ${expected} for shape ${fmt(shape)}`,
  rankMismatch: (kernel: string, operand: string, shape: readonly number[], expected: string): string =>
    `${kernel}: ${operand} has shape ${fmt(shape)} (rank ${shape.length}), expected rank ${expected}`,
  attributeLength: (kernel: string, attribute: string, values: readonly number[], expected: number): string =>
    `${kernel}: ${attribute} is ${fmt(values)} with ${values.length} entries, expected ${expected}`,
  attributeRange: (kernel: string, attribute: string, values: readonly number[], min: number): string =>
    `${kernel}: ${attribute} is ${fmt(values)}, expected integers >= ${min}`,
  attributeValue: (kernel: string, attribute: string, value: string, expected: string): string =>
    `${kernel}: ${attribute} is ${value}, expected ${expected}`,
  axisOutOfRange: (kernel: string, axis: number, low: number, high: number): string =>
    `${kernel}: axis ${axis} is out of range, expected an integer in [${low}, ${high}]`,
  emptyOutput: (kernel: string, shape: readonly number[]): string =>
    `${kernel}: the attributes give output shape ${fmt(shape)}, expected every spatial dimension >= 1`,
  groupChannels: (kernel: string, channels: number, group: number, operand: string): string =>
    `${kernel}: ${operand} has ${channels} channels, not divisible by group ${group}`,
  convWeightChannels: (kernel: string, weightShape: readonly number[], inputChannels: number, group: number): string =>
    `${kernel}: weight has shape ${fmt(weightShape)}, expected dimension 1 = input channels / group = ${inputChannels} / ${group}`,
  biasShape: (kernel: string, biasShape: readonly number[], allowed: string): string =>
    `${kernel}: bias has shape ${fmt(biasShape)}, expected ${allowed}`,
  padNotSmallerThanKernel: (kernel: string, pads: readonly number[], kernelShape: readonly number[]): string =>
    `${kernel}: pads ${fmt(pads)} must each be smaller than the kernel extent ${fmt(kernelShape)}`,
  notBroadcastable: (kernel: string, lhs: readonly number[], rhs: readonly number[]): string =>
    `${kernel}: shapes ${fmt(lhs)} and ${fmt(rhs)} are not broadcast-compatible (numpy rules)`,
  shapeMismatch: (kernel: string, operand: string, actual: readonly number[], expected: readonly number[], why: string): string =>
    `${kernel}: ${operand} has shape ${fmt(actual)}, expected ${fmt(expected)} (${why})`,
  dimensionMismatch: (kernel: string, what: string, actual: number, expected: number): string =>
    `${kernel}: ${what} is ${actual}, expected ${expected}`,
  emptyInputList: (kernel: string): string => `${kernel}: expected at least one input`,
  emptyReduction: (kernel: string, shape: readonly number[]): string =>
    `${kernel}: input shape ${fmt(shape)} has no elements to reduce, expected a nonempty reduction domain`,
  permutation: (kernel: string, perm: readonly number[], rank: number): string =>
    `${kernel}: permutation ${fmt(perm)} is not a permutation of 0..${rank - 1}`,
  duplicateAxis: (kernel: string, axes: readonly number[]): string =>
    `${kernel}: axes ${fmt(axes)} repeat an axis, expected distinct axes`,
  sliceOutOfBounds: (kernel: string, axis: number, offset: number, size: number, stride: number, dim: number): string =>
    `${kernel}: slice on axis ${axis} (offset ${offset}, size ${size}, stride ${stride}) reads outside dimension ${dim}`,
  splitSizes: (kernel: string, sizes: readonly number[], dim: number): string =>
    `${kernel}: split sizes ${fmt(sizes)} sum to ${sizes.reduce((a, b) => a + b, 0)}, expected the axis size ${dim}`,
  resizeTarget: (kernel: string): string => `${kernel}: give exactly one of scales or sizes`,
  resizeScale: (kernel: string, scales: readonly number[]): string =>
    `${kernel}: scales ${fmt(scales)}, expected finite positive numbers`,
  unsupported: (kernel: string, feature: string): string => `${kernel}: ${feature} is not supported`,
  tileSize: (kernel: string, rows: number, cols: number): string =>
    `${kernel}: tile size ${rows}x${cols}, expected positive integers`,
  blockSize: (kernel: string, blockSize: number, channels: number): string =>
    `${kernel}: block size ${blockSize}, expected a positive integer whose square divides the channel count ${channels}`,
} as const;
