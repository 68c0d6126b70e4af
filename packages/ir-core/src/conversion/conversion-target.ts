import type { Dialect } from '../ir/dialect';
import type { Operation } from '../ir/operation';

/** How a {@link ConversionTarget} treats an op (MLIR's `LegalizationAction`). */
export type LegalizationAction = 'legal' | 'illegal' | 'dynamic';

/** The legality of one op: `legal`, `illegal` (must be converted) or `unknown` (no rule). */
export type OpLegality = 'legal' | 'illegal' | 'unknown';

/** An op name or an op definition (anything with the op's `name`). */
export type OpRef = string | { readonly name: string };

/** A dialect namespace or a dialect. */
export type DialectRef = string | Dialect;

interface Rule {
  readonly action: LegalizationAction;
  readonly callback?: (op: Operation) => boolean;
  readonly recursive: boolean;
}

const opName = (r: OpRef): string => (typeof r === 'string' ? r : r.name);
const dialectName = (r: DialectRef): string => (typeof r === 'string' ? r : r.namespace);

/**
 * What a conversion must produce (MLIR's `ConversionTarget`): ops and dialects marked legal,
 * illegal or dynamically legal (a callback decides per op). An op's own rule wins over its
 * dialect's; ops with neither follow {@link markUnknownOpDynamicallyLegal} or are `unknown`
 * (left alone by a partial conversion, an error for a full conversion).
 *
 * @example
 * ```ts
 * const target = new ConversionTarget()
 *   .addLegalDialect('pim', 'arith')
 *   .addIllegalDialect('spat')
 *   .addDynamicallyLegalOp(FuncOp, (op) => typeConverter.isSignatureLegal(FuncOp.get(op).function_type.value));
 * ```
 */
export class ConversionTarget {
  private readonly ops = new Map<string, Rule>();
  private readonly dialects = new Map<string, Rule>();
  private unknownCallback: ((op: Operation) => boolean) | null = null;

  /** Marks ops legal. */
  addLegalOp(...ops: OpRef[]): this {
    for (const o of ops) this.ops.set(opName(o), { action: 'legal', recursive: false });
    return this;
  }

  /** Marks ops illegal: every one must be converted. */
  addIllegalOp(...ops: OpRef[]): this {
    for (const o of ops) this.ops.set(opName(o), { action: 'illegal', recursive: false });
    return this;
  }

  /** Marks an op dynamically legal: legal when `isLegal(op)` holds, else illegal. */
  addDynamicallyLegalOp(op: OpRef | readonly OpRef[], isLegal: (op: Operation) => boolean): this {
    for (const o of Array.isArray(op) ? (op as readonly OpRef[]) : [op as OpRef]) {
      this.ops.set(opName(o), { action: 'dynamic', callback: isLegal, recursive: false });
    }
    return this;
  }

  /**
   * Marks ops legal together with everything nested in them (MLIR's `markOpRecursivelyLegal`):
   * the conversion does not look inside. The op itself must be legal by its own rule.
   */
  markOpRecursivelyLegal(...ops: OpRef[]): this {
    for (const o of ops) {
      const prev = this.ops.get(opName(o));
      this.ops.set(opName(o), { action: prev?.action ?? 'legal', ...(prev?.callback ? { callback: prev.callback } : {}), recursive: true });
    }
    return this;
  }

  /** Marks every op of the dialects legal (unless an op rule says otherwise). */
  addLegalDialect(...dialects: DialectRef[]): this {
    for (const d of dialects) this.dialects.set(dialectName(d), { action: 'legal', recursive: false });
    return this;
  }

  /** Marks every op of the dialects illegal (unless an op rule says otherwise). */
  addIllegalDialect(...dialects: DialectRef[]): this {
    for (const d of dialects) this.dialects.set(dialectName(d), { action: 'illegal', recursive: false });
    return this;
  }

  /** Marks the ops of a dialect dynamically legal. */
  addDynamicallyLegalDialect(dialect: DialectRef | readonly DialectRef[], isLegal: (op: Operation) => boolean): this {
    for (const d of Array.isArray(dialect) ? (dialect as readonly DialectRef[]) : [dialect as DialectRef]) {
      this.dialects.set(dialectName(d), { action: 'dynamic', callback: isLegal, recursive: false });
    }
    return this;
  }

  /**
   * Ops no rule covers are legal when `isLegal(op)` holds and illegal otherwise (MLIR's
   * `markUnknownOpDynamicallyLegal`).
   */
  markUnknownOpDynamicallyLegal(isLegal: (op: Operation) => boolean): this {
    this.unknownCallback = isLegal;
    return this;
  }

  /** The action for `op` (its op rule, else its dialect's), or undefined. */
  getOpAction(op: Operation): LegalizationAction | undefined {
    return (this.ops.get(op.name) ?? this.dialects.get(op.dialectNamespace))?.action;
  }

  /** The legality of `op`, running dynamic callbacks. */
  getOpLegality(op: Operation): OpLegality {
    const rule = this.ops.get(op.name) ?? this.dialects.get(op.dialectNamespace);
    if (rule) {
      if (rule.action === 'dynamic') return rule.callback!(op) ? 'legal' : 'illegal';
      return rule.action;
    }
    if (this.unknownCallback) return this.unknownCallback(op) ? 'legal' : 'illegal';
    return 'unknown';
  }

  /** True when `op` is legal. */
  isLegal(op: Operation): boolean {
    return this.getOpLegality(op) === 'legal';
  }

  /** True when `op` is illegal (explicitly, or its dynamic callback says no). */
  isIllegal(op: Operation): boolean {
    return this.getOpLegality(op) === 'illegal';
  }

  /** True when `op` is legal and marked recursively legal (its regions are not converted). */
  isRecursivelyLegal(op: Operation): boolean {
    const rule = this.ops.get(op.name);
    return rule !== undefined && rule.recursive && this.isLegal(op);
  }
}
