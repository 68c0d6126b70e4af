/**
 * The reasons the data-movement lowerings give when they refuse a form (passed to
 * `LoweringContext.unsupported`, which prefixes the operator and the node).
 */

const q = (s: string) => `'${s}'`;

/** Refusal reasons of Identity/Dropout/Cast/Gather/Pad/Resize/Slice/Transpose/DepthToSpace. */
export const DataMovementReasons = {
  dropoutMask: 'the mask output is used (only inference-mode Dropout, whose output is its input, is lowered)',
  dropoutTraining: 'training_mode is true or not a compile-time constant (only inference-mode Dropout, or training with ratio 0, is lowered)',
  castTo: (to: string) => `Cast of a runtime float32 value to ${to} (the Spatial lowering computes in float32: only float32 -> float32 is lowered)`,
  castFrom: (from: string) => `Cast of a runtime ${from} value (the Spatial lowering computes in float32 only)`,
  gatherIndices: 'the indices are not a compile-time constant (Gather lowers to static slices of constant indices only)',
  gatherIndexRange: (index: number, size: number) => `index ${index} is out of range for an axis of size ${size}`,
  padMode: (mode: string) => `mode ${q(mode)} is not supported (modes: constant, reflect, edge, wrap)`,
  padEmptyAxis: (mode: string) => `mode ${q(mode)} cannot pad an axis of size 0 (there is no element to repeat)`,
  notConstant: (what: string) => `the ${what} input is not a compile-time constant`,
  resizeMode: (mode: string) => `mode ${q(mode)} is not supported (only mode 'nearest' is lowered; linear and cubic interpolation are not)`,
  resizeCoordinateMode: (mode: string) => `coordinate_transformation_mode ${q(mode)} is not supported with nearest mode (supported: half_pixel, asymmetric, pytorch_half_pixel, align_corners, tf_half_pixel_for_nn)`,
  resizeNearestMode: (mode: string) => `nearest_mode ${q(mode)} is not supported (supported: round_prefer_floor, round_prefer_ceil, floor, ceil)`,
  resizeScales: 'the scales or sizes input is not a compile-time constant',
  resizeEmptyAxis: (axis: number, size: number) => `axis ${axis} of the input is empty but the output size is ${size} (nothing to sample from)`,
} as const;
