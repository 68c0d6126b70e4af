import type { AsmParser, AsmPrinter, Delimiter, Type } from '@raptor-pim/ir-core';
import { CompactAsmMessages as M } from './diagnostics';

/** The largest repetition count `T xN` the parser accepts and the printer emits in one group. */
export const MAX_TYPE_REPEAT = 4096;

/** A run of one type repeated `count` times (`count >= 1`). */
export interface TypeRun {
  readonly type: Type;
  readonly count: number;
}

const REPEAT_PATTERN = /^x[1-9][0-9]*$/;

/** True when `t` is one of `x1` ... `xMAX`: an O(1) pattern check. */
function isRepeatToken(t: string): boolean {
  return REPEAT_PATTERN.test(t) && Number(t.substring(1)) <= MAX_TYPE_REPEAT;
}

/**
 * The keywords `x1` ... `xMAX` as a list for `parseOptionalKeyword`. Its `includes` is
 * {@link isRepeatToken}, which is all the built-in parser asks; the elements themselves are
 * built only when something else reads the list (so any implementation of the lookup still
 * sees the complete list), not while the bundle loads: every command that loads the dialects
 * (a short `raptor import` among them) paid for building the 4,096 strings.
 */
const REPEAT_KEYWORDS: readonly string[] = (() => {
  const list: string[] = [];
  let filled = false;
  const fill = (): void => {
    if (filled) return;
    filled = true;
    for (let i = 1; i <= MAX_TYPE_REPEAT; i++) list.push(`x${i}`);
  };
  return new Proxy(list, {
    get: (target, key, receiver) => {
      if (key === 'includes') return isRepeatToken;
      fill();
      return Reflect.get(target, key, receiver) as unknown;
    },
    has: (target, key) => {
      fill();
      return Reflect.has(target, key);
    },
    ownKeys: (target) => {
      fill();
      return Reflect.ownKeys(target);
    },
    getOwnPropertyDescriptor: (target, key) => {
      fill();
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
  });
})();

/** True when `keyword` is a repetition suffix (`x2`, `x16`, ...) the parser accepts. */
export function isRepeatKeyword(keyword: string): boolean {
  return isRepeatToken(keyword);
}

/**
 * Groups consecutive identical (uniqued, `===`) types into runs, splitting runs longer than
 * {@link MAX_TYPE_REPEAT}. This is the canonical compact form the printer uses.
 *
 * @example groupTypeRuns([a, a, b]) -> [{ type: a, count: 2 }, { type: b, count: 1 }]
 */
export function groupTypeRuns(types: readonly Type[]): TypeRun[] {
  const runs: TypeRun[] = [];
  let i = 0;
  while (i < types.length) {
    const t = types[i]!;
    let j = i + 1;
    while (j < types.length && types[j] === t && j - i < MAX_TYPE_REPEAT) j++;
    runs.push({ type: t, count: j - i });
    i = j;
  }
  return runs;
}

/** Expands runs back into a flat type list. */
export function expandTypeRuns(runs: readonly TypeRun[]): Type[] {
  const out: Type[] = [];
  for (const r of runs) for (let k = 0; k < r.count; k++) out.push(r.type);
  return out;
}

/**
 * Parses one compact type-list element, `T` or `T xN`, appending the expanded types to `out`.
 * Returns false after emitting a diagnostic.
 */
export function parseCompactTypeElement(parser: AsmParser, out: Type[]): boolean {
  const type = parser.parseType();
  if (!type) return false;
  const loc = parser.getCurrentLocation();
  const rep = parser.parseOptionalKeyword(REPEAT_KEYWORDS);
  let count = 1;
  if (rep !== null) {
    count = Number(rep.substring(1));
    if (!(count >= 1 && count <= MAX_TYPE_REPEAT)) {
      parser.emitError(M.badRepeatCount(count, MAX_TYPE_REPEAT), loc);
      return false;
    }
  }
  for (let k = 0; k < count; k++) out.push(type);
  return true;
}

/**
 * Parses a comma-separated compact type list with `delimiter` (`'square'`, `'paren'`, or
 * `'none'` for at least one element): `[T x2, U]` -> `[T, T, U]`. Empty delimited lists are
 * allowed. Returns undefined after emitting a diagnostic.
 */
export function parseCompactTypeList(parser: AsmParser, delimiter: Delimiter): Type[] | undefined {
  const out: Type[] = [];
  const ok = parser.parseCommaSeparatedList(delimiter, () => parseCompactTypeElement(parser, out));
  return ok ? out : undefined;
}

/** Prints `types` in the compact form without delimiters: `T x2, U`. */
export function printCompactTypeList(printer: AsmPrinter, types: readonly Type[]): void {
  let first = true;
  for (const run of groupTypeRuns(types)) {
    if (!first) printer.print(', ');
    first = false;
    printer.printType(run.type);
    if (run.count > 1) printer.print(` x${run.count}`);
  }
}

/** Prints `types` in the compact form inside `open`/`close` (e.g. `[`, `]`). */
export function printDelimitedCompactTypeList(printer: AsmPrinter, types: readonly Type[], open: string, close: string): void {
  printer.print(open);
  printCompactTypeList(printer, types);
  printer.print(close);
}

/**
 * Parses compact result types after `->`: `T`, `T x2` (one run, no parentheses), `()` or
 * `(T, U x2)`. The arrow itself is not consumed here.
 */
export function parseCompactResultTypes(parser: AsmParser): Type[] | undefined {
  if (parser.parseOptionalLParen()) {
    const out: Type[] = [];
    if (parser.parseOptionalRParen()) return out;
    do if (!parseCompactTypeElement(parser, out)) return undefined;
    while (parser.parseOptionalComma());
    return parser.parseRParen() ? out : undefined;
  }
  const out: Type[] = [];
  return parseCompactTypeElement(parser, out) ? out : undefined;
}

/**
 * Prints compact result types (without the arrow): a single run without parentheses
 * (`T`, `T x2`), otherwise a parenthesized list (`()`, `(T, U)`).
 */
export function printCompactResultTypes(printer: AsmPrinter, types: readonly Type[]): void {
  const runs = groupTypeRuns(types);
  if (runs.length === 1) {
    printCompactTypeList(printer, types);
    return;
  }
  printDelimitedCompactTypeList(printer, types, '(', ')');
}

/** A function type parsed in compact form. */
export interface CompactFunctionType {
  readonly inputs: Type[];
  readonly results: Type[];
}

/** Parses `(T x2, U) -> R` (inputs always parenthesized; results as {@link parseCompactResultTypes}). */
export function parseCompactFunctionType(parser: AsmParser): CompactFunctionType | undefined {
  const inputs = parseCompactTypeList(parser, 'paren');
  if (!inputs || !parser.parseArrow()) return undefined;
  const results = parseCompactResultTypes(parser);
  return results ? { inputs, results } : undefined;
}

/** Prints `(T x2, U) -> R` in the canonical compact form. */
export function printCompactFunctionType(printer: AsmPrinter, inputs: readonly Type[], results: readonly Type[]): void {
  printDelimitedCompactTypeList(printer, inputs, '(', ')');
  printer.print(' -> ');
  printCompactResultTypes(printer, results);
}
