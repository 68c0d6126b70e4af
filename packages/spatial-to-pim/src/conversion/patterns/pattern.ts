/**
 * A conversion pattern of `spat-to-pim`: lowers one op of a scheduled body into the current
 * stream. Patterns are keyed by op definition (never by name strings) and receive the typed
 * view of the op (`op.lhs`, `op.weight`, ...).
 */
import type { AnyOpDefinition, Operation } from '@raptor-pim/ir-core';
import type { StreamLowering } from '../stream-lowering';

/** One op's lowering: returns false after reporting a diagnostic through `s.error`. */
export interface ScheduledOpPattern {
  /** The op definition the pattern converts. */
  readonly root: AnyOpDefinition;
  /** Lowers `op` into the stream of `s`. */
  lower(op: Operation, s: StreamLowering): boolean;
}

/** Builds a {@link ScheduledOpPattern} from a definition and a function of its typed view. */
export function lowerOp<V>(
  def: AnyOpDefinition & { get(op: Operation): V },
  lower: (view: V, op: Operation, s: StreamLowering) => boolean,
): ScheduledOpPattern {
  return { root: def, lower: (op, s) => lower(def.get(op), op, s) };
}
