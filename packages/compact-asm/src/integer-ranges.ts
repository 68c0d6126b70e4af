import type { AsmParser, AsmPrinter } from '@raptor-pim/ir-core';
import { CompactAsmMessages as M } from './diagnostics';

/** One element of a compact integer list: a single value (`lo === hi`) or an inclusive range. */
export interface IntegerRun {
  readonly lo: number;
  readonly hi: number;
}

/**
 * Groups runs of consecutive ascending integers (`v, v+1, ...`) into inclusive runs:
 * `[0, 1, 2, 3, 8, 10, 11]` -> `{0..3}, {8..8}, {10..11}`. How a run prints is decided by
 * {@link formatIntegerRangeList}.
 */
export function compressIntegerRuns(values: readonly number[]): IntegerRun[] {
  const runs: IntegerRun[] = [];
  let i = 0;
  while (i < values.length) {
    const lo = values[i]!;
    let j = i + 1;
    while (j < values.length && values[j] === values[j - 1]! + 1) j++;
    runs.push({ lo, hi: values[j - 1]! });
    i = j;
  }
  return runs;
}

/** Expands inclusive runs into the flat list. */
export function expandIntegerRuns(runs: readonly IntegerRun[]): number[] {
  const out: number[] = [];
  for (const r of runs) for (let v = r.lo; v <= r.hi; v++) out.push(v);
  return out;
}

/**
 * The shortest run printed as a range: a range is used only where it is shorter than the
 * list it stands for (`0 to 2` vs `0, 1, 2`), so `[0, 1]` stays a list and `[0, 1, 2, 3]`
 * prints `[0 to 3]`, as the reference prints `coreIds [0, 1]` and `coreIds [0 to 3]`.
 */
export const MIN_PRINTED_RANGE_LENGTH = 3;

/**
 * Formats a list in the canonical compact form without brackets: runs of at least
 * {@link MIN_PRINTED_RANGE_LENGTH} consecutive ascending values print as inclusive ranges,
 * shorter runs element by element: `[0, 1, 2, 3, 8, 10, 11]` -> `0 to 3, 8, 10, 11`.
 */
export function formatIntegerRangeList(values: readonly number[]): string {
  const parts: string[] = [];
  for (const r of compressIntegerRuns(values)) {
    if (r.hi - r.lo + 1 >= MIN_PRINTED_RANGE_LENGTH) parts.push(`${r.lo} to ${r.hi}`);
    else for (let v = r.lo; v <= r.hi; v++) parts.push(String(v));
  }
  return parts.join(', ');
}

/**
 * Parses a bracketed integer list whose elements are integers or inclusive ranges:
 * `[0 to 3, 8, 10 to 11]` -> `[0, 1, 2, 3, 8, 10, 11]`; `[]` is the empty list.
 * Returns undefined after emitting a diagnostic.
 */
export function parseIntegerRangeList(parser: AsmParser): number[] | undefined {
  const out: number[] = [];
  const ok = parser.parseCommaSeparatedList('square', () => {
    const at = parser.getCurrentLocation();
    const lo = parser.parseOptionalInteger();
    if (lo === undefined) return false;
    if (lo === null) {
      parser.emitError(M.expectedIntegerOrRange, at);
      return false;
    }
    if (parser.parseOptionalKeyword('to') === null) {
      out.push(lo);
      return true;
    }
    const hi = parser.parseInteger();
    if (hi === undefined) return false;
    if (hi < lo) {
      parser.emitError(M.emptyIntegerRange(lo, hi), at);
      return false;
    }
    for (let v = lo; v <= hi; v++) out.push(v);
    return true;
  });
  return ok ? out : undefined;
}

/** Prints `[0 to 3, 8, 10 to 11]` (the canonical compact form of `values`). */
export function printIntegerRangeList(printer: AsmPrinter, values: readonly number[]): void {
  printer.print(`[${formatIntegerRangeList(values)}]`);
}
