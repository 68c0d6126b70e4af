import { IndexType, type OpAsmArgument, type OpAsmParser, type OpAsmPrinter, type Value } from '@raptor-pim/ir-core';
import { CompactAsmMessages as M } from './diagnostics';

/** A parsed lane range `%lane = lower to upper` (upper bound exclusive). */
export interface LaneRange {
  /** The lane block argument (typed `index`). */
  readonly lane: OpAsmArgument;
  readonly lower: number;
  readonly upper: number;
}

/**
 * Parses `%lane = 0 to 4`: the lane argument gets type `index`; the upper bound is exclusive
 * and must exceed the lower bound. Returns undefined after emitting a diagnostic.
 */
export function parseLaneRange(parser: OpAsmParser): LaneRange | undefined {
  const lane = parser.parseArgument(false);
  if (!lane || !parser.parseEqual()) return undefined;
  const at = parser.getCurrentLocation();
  const lower = parser.parseInteger();
  if (lower === undefined || !parser.parseKeyword('to')) return undefined;
  const upper = parser.parseInteger();
  if (upper === undefined) return undefined;
  if (upper <= lower) {
    parser.emitError(M.badLaneRange(lower, upper), at);
    return undefined;
  }
  lane.type = IndexType.get(parser.context);
  return { lane, lower, upper };
}

/** Prints `%lane = lower to upper`. */
export function printLaneRange(printer: OpAsmPrinter, lane: Value, lower: number, upper: number): void {
  printer.printOperand(lane);
  printer.print(` = ${lower} to ${upper}`);
}
