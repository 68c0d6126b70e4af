import type { AnyOpDefinition, OpDefinition, OperandsOf, ViewOf } from '../ir/op-definition';
import type { Operation } from '../ir/operation';
import type { Value } from '../ir/value';
import type { ConversionPatternRewriter } from './conversion-rewriter';
import type { TypeConverter } from './type-converter';

/**
 * A pattern the conversion driver applies with remapped operands (MLIR's `ConversionPattern`):
 * `operands` are the op's operands as already converted (values of converted types when the
 * pattern has a type converter). Use {@link OpConversionPattern} or
 * {@link createConversionPattern} rather than implementing this directly.
 */
export interface ConversionPattern {
  /** The root op name, or `null` for any op. */
  readonly rootName: string | null;
  /** Higher benefits are tried first. */
  readonly benefit: number;
  /** A name for debugging. */
  readonly debugName: string;
  /** The converter operands are remapped with (`null`: operands as they currently are). */
  readonly typeConverter: TypeConverter | null;
  /** Rewrites `op` through `rewriter`; returns whether it applied (changing nothing if not). */
  matchAndRewriteConverted(op: Operation, operands: readonly Value[], rewriter: ConversionPatternRewriter): boolean;
}

/** Options of a conversion pattern. */
export interface ConversionPatternOptions {
  /** The type converter used to remap operands (and available as `rewriter.typeConverter`). */
  readonly typeConverter?: TypeConverter | null;
  /** Benefit (default 1). */
  readonly benefit?: number;
  /** Debug name (default: the op name). */
  readonly debugName?: string;
}

/**
 * The converted operands of an op of definition `D` (MLIR's `OpAdaptor`): one accessor per
 * operand group, named as in the definition (`adaptor.lhs`, `adaptor.inputs`), plus every
 * operand in order as `operands`.
 */
export type OpAdaptor<D> = OperandsOf<D> & {
  /** All converted operands, in order. */
  readonly operands: readonly Value[];
};

/** True when `p` is a {@link ConversionPattern} (not a plain rewrite pattern). */
export function isConversionPattern(p: object): p is ConversionPattern {
  return typeof (p as Partial<ConversionPattern>).matchAndRewriteConverted === 'function';
}

/** Builds the adaptor of `op` (of definition `def`) over the remapped `operands`. */
export function buildOpAdaptor<D extends AnyOpDefinition>(def: D, op: Operation, operands: readonly Value[]): OpAdaptor<D> {
  const adaptor: Record<string, unknown> = { operands };
  const names = def.operandNames;
  const kinds = def.operandKinds;
  for (let gi = 0; gi < names.length; gi++) {
    const range = def.getOperandGroupRange(op, gi);
    if (!range) throw new Error(`internal error: malformed operand segments on '${def.name}'`);
    const [start, len] = range;
    const kind = kinds[gi]!;
    adaptor[names[gi]!] = kind === 'single' ? operands[start] : kind === 'optional' ? (len === 0 ? undefined : operands[start]) : operands.slice(start, start + len);
  }
  return adaptor as OpAdaptor<D>;
}

/**
 * A conversion pattern rooted on an op definition (MLIR's `OpConversionPattern<Op>`):
 * `matchAndRewrite` gets the typed view of the op, an adaptor with the already-converted
 * operands (typed accessors named like the op's) and the {@link ConversionPatternRewriter}.
 *
 * @example
 * ```ts
 * class LowerAdd extends OpConversionPattern<typeof ToyAddOp> {
 *   constructor(tc: TypeConverter) { super(ToyAddOp, { typeConverter: tc }); }
 *   matchAndRewrite(op: ViewOf<typeof ToyAddOp>, adaptor: OpAdaptor<typeof ToyAddOp>, rw: ConversionPatternRewriter) {
 *     const t = rw.convertType(op.result.type);
 *     if (!t) return false;
 *     rw.replaceOp(op.op, [LowAddOp.build(rw, { lhs: adaptor.lhs, rhs: adaptor.rhs, result: t }, op.location).result]);
 *     return true;
 *   }
 * }
 * ```
 */
export abstract class OpConversionPattern<D extends AnyOpDefinition> implements ConversionPattern {
  /** The root op name. */
  readonly rootName: string;
  /** The benefit. */
  readonly benefit: number;
  /** The debug name. */
  readonly debugName: string;
  /** The type converter operands are remapped with. */
  readonly typeConverter: TypeConverter | null;

  constructor(
    /** The root definition. */
    readonly definition: D,
    options: ConversionPatternOptions = {},
  ) {
    this.rootName = definition.name;
    this.benefit = options.benefit ?? 1;
    this.debugName = options.debugName ?? definition.name;
    this.typeConverter = options.typeConverter ?? null;
  }

  /** Rewrites the op; return true after changing the IR through `rewriter`, false to decline. */
  abstract matchAndRewrite(op: ViewOf<D>, adaptor: OpAdaptor<D>, rewriter: ConversionPatternRewriter): boolean;

  /** @internal Views the op and builds the adaptor. */
  matchAndRewriteConverted(op: Operation, operands: readonly Value[], rewriter: ConversionPatternRewriter): boolean {
    if (op.definition !== this.definition) return false;
    const view = (this.definition as unknown as OpDefinition).get(op) as unknown as ViewOf<D>;
    return this.matchAndRewrite(view, buildOpAdaptor(this.definition, op, operands), rewriter);
  }
}

/**
 * Builds an {@link OpConversionPattern} from a function.
 *
 * @example
 * ```ts
 * const lowerAdd = createConversionPattern(ToyAddOp, (op, adaptor, rw) => {
 *   const t = rw.convertType(op.result.type);
 *   if (!t) return false;
 *   rw.replaceOp(op.op, [LowAddOp.build(rw, { lhs: adaptor.lhs, rhs: adaptor.rhs, result: t }, op.location).result]);
 *   return true;
 * }, { typeConverter });
 * ```
 */
export function createConversionPattern<D extends AnyOpDefinition>(
  definition: D,
  matchAndRewrite: (op: ViewOf<D>, adaptor: OpAdaptor<D>, rewriter: ConversionPatternRewriter) => boolean,
  options: ConversionPatternOptions = {},
): OpConversionPattern<D> {
  class FunctionConversionPattern extends OpConversionPattern<D> {
    matchAndRewrite(op: ViewOf<D>, adaptor: OpAdaptor<D>, rewriter: ConversionPatternRewriter): boolean {
      return matchAndRewrite(op, adaptor, rewriter);
    }
  }
  return new FunctionConversionPattern(definition, options);
}

/** Options of {@link createGenericConversionPattern}. */
export interface GenericConversionPatternOptions extends ConversionPatternOptions {
  /** Root op name (or definition); omitted: any op. */
  readonly root?: string | { readonly name: string };
  /** The rewrite, on the untyped op with its converted operands. */
  matchAndRewrite(op: Operation, operands: readonly Value[], rewriter: ConversionPatternRewriter): boolean;
}

/**
 * A conversion pattern on the untyped op (any op, or ops of one name): for rules that apply
 * to many ops alike (e.g. "rebuild any op with converted types").
 */
export function createGenericConversionPattern(options: GenericConversionPatternOptions): ConversionPattern {
  const root = options.root === undefined ? null : typeof options.root === 'string' ? options.root : options.root.name;
  return {
    rootName: root,
    benefit: options.benefit ?? 1,
    debugName: options.debugName ?? root ?? 'any-op',
    typeConverter: options.typeConverter ?? null,
    matchAndRewriteConverted: options.matchAndRewrite,
  };
}
