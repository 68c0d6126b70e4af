import type { AnyOpDefinition } from '../ir/op-definition';
import type { Operation } from '../ir/operation';
import type { PatternRewriter } from './rewriter';

/**
 * A rewrite pattern (MLIR's `RewritePattern`): applies to ops named `rootName` (or any op when
 * `null`), tried in decreasing `benefit`. `matchAndRewrite` returns true after changing the
 * IR through the rewriter, false (changing nothing) when it does not apply.
 */
export interface RewritePattern {
  /** The root op name, or `null` to match any op. */
  readonly rootName: string | null;
  /** Higher benefits are tried first (default 1). */
  readonly benefit: number;
  /** A name for debugging and statistics. */
  readonly debugName: string;
  /** Matches `op` and rewrites it; returns whether it applied. */
  matchAndRewrite(op: Operation, rewriter: PatternRewriter): boolean;
}

/** Options of the untyped form of {@link createPattern}. */
export interface PatternOptions {
  /** Root op name or definition; omitted: any op. */
  readonly root?: string | AnyOpDefinition;
  /** Benefit (default 1). */
  readonly benefit?: number;
  /** Debug name (default: the root name). */
  readonly debugName?: string;
  /** The match-and-rewrite function. */
  matchAndRewrite(op: Operation, rewriter: PatternRewriter): boolean;
}

/** Benefit and debug name of a typed pattern ({@link createPattern} with a definition). */
export interface TypedPatternOptions {
  /** Benefit (default 1). */
  readonly benefit?: number;
  /** Debug name (default: the op name). */
  readonly debugName?: string;
}

/**
 * An op definition as patterns see it: its name and a typed view (`match` returns the view
 * when the op is of this definition). Every `defineOp` result is one.
 */
export interface ViewableOpDefinition<V> {
  /** The op name the pattern is rooted on. */
  readonly name: string;
  /** The typed view of `op` if it is of this definition. */
  match(op: Operation): V | undefined;
}

/** A pattern rooted on an op definition (see {@link createPattern}); also a {@link RewritePattern}. */
export interface TypedRewritePattern<V> extends RewritePattern {
  /** The root definition. */
  readonly rootDefinition: ViewableOpDefinition<V>;
}

/**
 * Builds a {@link RewritePattern}.
 *
 * Typed form: `createPattern(SomeOpDef, (op, rewriter) => ...)` roots the pattern on the
 * definition and hands the typed view (`op.lhs`, `op.laneCount`, `op.op` for the raw
 * operation); return true after rewriting through `rewriter`, false when it does not apply.
 * An op of the same name but another definition (unregistered) never matches.
 *
 * @example
 * ```ts
 * const addZero = createPattern(AddIOp, (op, rewriter) => {
 *   if (!isConstantZero(op.rhs)) return false;
 *   rewriter.replaceOp(op.op, [op.lhs]);
 *   return true;
 * }, { benefit: 2 });
 * applyPatternsGreedily(module, [addZero]);
 * ```
 *
 * Untyped form: `createPattern({ root, benefit, debugName, matchAndRewrite })`.
 */
export function createPattern<V>(
  definition: ViewableOpDefinition<V>,
  matchAndRewrite: (op: V, rewriter: PatternRewriter) => boolean,
  options?: TypedPatternOptions,
): TypedRewritePattern<V>;
export function createPattern(options: PatternOptions): RewritePattern;
export function createPattern<V>(
  first: PatternOptions | ViewableOpDefinition<V>,
  fn?: (op: V, rewriter: PatternRewriter) => boolean,
  typedOptions?: TypedPatternOptions,
): RewritePattern {
  if (fn !== undefined) {
    const def = first as ViewableOpDefinition<V>;
    return {
      rootName: def.name,
      rootDefinition: def,
      benefit: typedOptions?.benefit ?? 1,
      debugName: typedOptions?.debugName ?? def.name,
      matchAndRewrite(op: Operation, rewriter: PatternRewriter): boolean {
        const view = def.match(op);
        return view !== undefined && fn(view, rewriter);
      },
    } as TypedRewritePattern<V>;
  }
  const options = first as PatternOptions;
  const root = options.root === undefined ? null : typeof options.root === 'string' ? options.root : options.root.name;
  return {
    rootName: root,
    benefit: options.benefit ?? 1,
    debugName: options.debugName ?? root ?? 'any-op',
    matchAndRewrite: options.matchAndRewrite,
  };
}

/**
 * A frozen set of patterns indexed by root name, each list sorted by decreasing benefit
 * (stable), with any-op patterns merged in (MLIR's `FrozenRewritePatternSet` +
 * `PatternApplicator` ordering).
 */
export class FrozenPatternSet {
  private readonly byRoot = new Map<string, RewritePattern[]>();
  private readonly anyOp: RewritePattern[];

  constructor(readonly patterns: readonly RewritePattern[]) {
    const sorted = [...patterns].sort((a, b) => b.benefit - a.benefit);
    this.anyOp = sorted.filter((p) => p.rootName === null);
    for (const p of sorted) {
      if (p.rootName === null) continue;
      let list = this.byRoot.get(p.rootName);
      if (!list) this.byRoot.set(p.rootName, (list = []));
      list.push(p);
    }
    if (this.anyOp.length > 0) {
      for (const [k, list] of this.byRoot) {
        this.byRoot.set(k, [...list, ...this.anyOp].sort((a, b) => b.benefit - a.benefit));
      }
    }
  }

  /** The patterns to try on `op`, best first. */
  patternsFor(op: Operation): readonly RewritePattern[] {
    return this.byRoot.get(op.name) ?? this.anyOp;
  }

  /** True when there are no patterns. */
  get empty(): boolean {
    return this.patterns.length === 0;
  }
}
