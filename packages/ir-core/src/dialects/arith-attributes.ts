import { Attribute } from '../ir/attribute';
import type { MLIRContext } from '../ir/context';
import type { AsmParser, AsmPrinter, DialectOwned, ParseResult } from '../syntax/op-asm';
import { DM } from './dialect-messages';

/** The integer overflow flags of `arith.addi`/`subi`/`muli`/`shli`/`trunci` (`#arith.overflow<nsw, nuw>`). */
export const OVERFLOW_FLAG_NAMES = ['nsw', 'nuw'] as const;
/** The fast-math flags of float arith ops (`#arith.fastmath<nnan,ninf>`), in MLIR's bit order. */
export const FASTMATH_FLAG_NAMES = ['reassoc', 'nnan', 'ninf', 'nsz', 'arcp', 'contract', 'afn'] as const;
const FASTMATH_ALL = (1 << FASTMATH_FLAG_NAMES.length) - 1;

/** `#arith.overflow<...>`: a bit set of `nsw` (1) and `nuw` (2); `none` when empty. */
export class OverflowFlagsAttr extends Attribute implements DialectOwned {
  readonly dialectNamespace = 'arith';
  private constructor(
    context: MLIRContext,
    /** Bit 0: nsw, bit 1: nuw. */
    readonly flags: number,
  ) {
    super(context);
  }
  /** The uniqued attribute for `flags` (bit set). */
  static get(context: MLIRContext, flags = 0): OverflowFlagsAttr {
    return context.unique(`arith.overflow:${flags}`, () => new OverflowFlagsAttr(context, flags));
  }
  /** True when no flag is set. */
  get isNone(): boolean {
    return this.flags === 0;
  }
  /** The flag names inside `<...>` as MLIR prints them (`none`, `nsw`, `nsw, nuw`). */
  get body(): string {
    if (this.flags === 0) return 'none';
    return OVERFLOW_FLAG_NAMES.filter((_, i) => this.flags & (1 << i)).join(', ');
  }
}

/** `#arith.fastmath<...>`: a bit set of the LLVM fast-math flags; `fast` = all, `none` = empty. */
export class FastMathFlagsAttr extends Attribute implements DialectOwned {
  readonly dialectNamespace = 'arith';
  private constructor(
    context: MLIRContext,
    /** Bits in {@link FASTMATH_FLAG_NAMES} order. */
    readonly flags: number,
  ) {
    super(context);
  }
  /** The uniqued attribute for `flags` (bit set). */
  static get(context: MLIRContext, flags = 0): FastMathFlagsAttr {
    return context.unique(`arith.fastmath:${flags}`, () => new FastMathFlagsAttr(context, flags));
  }
  /** True when no flag is set. */
  get isNone(): boolean {
    return this.flags === 0;
  }
  /** The flag names inside `<...>` as MLIR prints them (`none`, `fast`, `nnan,ninf`). */
  get body(): string {
    if (this.flags === 0) return 'none';
    if (this.flags === FASTMATH_ALL) return 'fast';
    return FASTMATH_FLAG_NAMES.filter((_, i) => this.flags & (1 << i)).join(',');
  }
}

/** Prints `<flags>` of an overflow or fast-math attribute (what follows the mnemonic). */
export function printFlagsBody(attr: OverflowFlagsAttr | FastMathFlagsAttr, printer: AsmPrinter): void {
  printer.print('<' + attr.body + '>');
}

/**
 * Parses `<flag, flag>` (or `<none>`, and `<fast>` for fast-math) after the `overflow` /
 * `fastmath` keyword. Returns the attribute or undefined after a diagnostic.
 */
export function parseFlagsBody(parser: AsmParser, kind: 'overflow' | 'fastmath'): ParseResult<OverflowFlagsAttr | FastMathFlagsAttr> {
  const names: readonly string[] = kind === 'overflow' ? OVERFLOW_FLAG_NAMES : FASTMATH_FLAG_NAMES;
  const allowed = kind === 'fastmath' ? ['none', ...names, 'fast'] : ['none', ...names];
  let flags = 0;
  const ok = parser.parseCommaSeparatedList('less-greater', () => {
    const loc = parser.getCurrentLocation();
    const word = parser.parseOptionalKeywordName();
    if (word === null || !allowed.includes(word)) {
      parser.emitError(DM.expectedFlagKeyword(kind === 'overflow' ? 'IntegerOverflowFlags' : 'FastMathFlags', allowed), loc);
      return false;
    }
    if (word === 'fast') flags |= FASTMATH_ALL;
    else if (word !== 'none') flags |= 1 << names.indexOf(word);
    return true;
  });
  if (!ok) return undefined;
  return kind === 'overflow' ? OverflowFlagsAttr.get(parser.context, flags) : FastMathFlagsAttr.get(parser.context, flags);
}

/** `arith.cmpi` predicates, by their integer value (MLIR's `CmpIPredicate`). */
export const CMPI_PREDICATES = ['eq', 'ne', 'slt', 'sle', 'sgt', 'sge', 'ult', 'ule', 'ugt', 'uge'] as const;
/** `arith.cmpf` predicates, by their integer value (MLIR's `CmpFPredicate`). */
export const CMPF_PREDICATES = [
  'false',
  'oeq',
  'ogt',
  'oge',
  'olt',
  'ole',
  'one',
  'ord',
  'ueq',
  'ugt',
  'uge',
  'ult',
  'ule',
  'une',
  'uno',
  'true',
] as const;
/** `arith.truncf` rounding modes, by their integer value (MLIR's `RoundingMode`). */
export const ROUNDING_MODES = ['to_nearest_even', 'downward', 'upward', 'toward_zero', 'to_nearest_away'] as const;
