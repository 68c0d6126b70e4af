/**
 * Interfaces of the `spat` dialect:
 * - {@link ComputeOpInterface}: compute ops with a body whose arguments bind an optional lane,
 *   weights, inputs and shared outputs (`spat.graph_compute`, `spat.graph_compute_batch`).
 * - {@link SpatialLayoutCapabilityInterface}: layout-aware plan ops advertise their layout
 *   alternatives (all operand layouts + one result layout). Only the declaration and the
 *   dense alternative live here; the capability table comes with the layout planner.
 */
import { defineOpInterface, type Operation, type Region, type Value } from '@raptor-pim/ir-core';
import type { SpatEnumCase } from './attributes';

/** The bindings of a compute op (see {@link ComputeOpInterface}). */
export interface ComputeBindings {
  /** The lane argument (batches only). */
  readonly lane: Value | undefined;
  /** Outer weight operands (compile-time constants). */
  readonly weights: readonly Value[];
  /** Outer runtime input operands. */
  readonly inputs: readonly Value[];
  /** Entry block arguments bound to the weights. */
  readonly weightArguments: readonly Value[];
  /** Entry block arguments bound to the inputs. */
  readonly inputArguments: readonly Value[];
  /** Entry block arguments bound to the shared outputs (batches with results). */
  readonly outputArguments: readonly Value[];
}

/** Implementation of {@link ComputeOpInterface}. */
export interface ComputeOpInterfaceImpl {
  /** The op's bindings (entry block arguments and outer operands). */
  getBindings(op: Operation): ComputeBindings;
  /** The body region. */
  getBody(op: Operation): Region;
  /** Number of lanes (1 for scalar computes). */
  getLaneCount(op: Operation): number;
}

/** A compute op: lane argument, weight/input/output bindings and a body. */
export const ComputeOpInterface = defineOpInterface<ComputeOpInterfaceImpl>('SpatComputeOpInterface');

/** A physical layout name (`dense_nchw`, `nhwc_row_strip`, ...). */
export type PhysicalLayoutName = SpatEnumCase<'physical_layout'>;

/** One alternative of a layout-aware plan: a layout per operand and the result layout. */
export interface LayoutAlternative {
  /** One physical layout per operand, in operand order. */
  readonly operandLayouts: readonly PhysicalLayoutName[];
  /** The result layout. */
  readonly resultLayout: PhysicalLayoutName;
}

/** Implementation of {@link SpatialLayoutCapabilityInterface}. */
export interface SpatialLayoutCapabilityInterfaceImpl {
  /**
   * The alternatives the op can be lowered with, the all-dense one first. The geometry
   * predicates that gate the row-strip alternatives belong to the layout planner.
   */
  getLayoutAlternatives(op: Operation): readonly LayoutAlternative[];
}

/** Layout-aware plan ops (`SpatialLayoutCapabilityInterface` of the reference). */
export const SpatialLayoutCapabilityInterface = defineOpInterface<SpatialLayoutCapabilityInterfaceImpl>('SpatialLayoutCapabilityInterface');

/** The all-dense alternative of `op`: every operand and the result in `dense_nchw`. */
export function denseAlternative(op: Operation): LayoutAlternative {
  return { operandLayouts: op.operands.map(() => 'dense_nchw' as const), resultLayout: 'dense_nchw' };
}
