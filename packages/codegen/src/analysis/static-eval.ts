/**
 * Static evaluation of index expressions (lane, address, peer, event and loop-bound values).
 *
 * A {@link StaticScope} binds block arguments (a batch lane, a loop induction variable) to
 * constants and evaluates any other value by folding its defining op with the ops' own fold
 * hooks (`arith.*`, `affine.apply`, constants): the same folders canonicalization uses, so
 * every expression they can fold is static here.
 */
import {
  AddIOp,
  Attribute,
  CeilDivSIOp,
  DivSIOp,
  FloorDivSIOp,
  IndexType,
  IntegerAttr,
  MaxSIOp,
  MinSIOp,
  MulIOp,
  OpResult,
  RemSIOp,
  SubIOp,
  type AnyOpDefinition,
  type MLIRContext,
  type Value,
} from '@raptor-pim/ir-core';

/**
 * Index arithmetic evaluated on numbers (the common lane/offset expressions), exactly as the
 * ops' folders compute it; undefined (division by zero) leaves the value to the folder.
 */
const INDEX_BINARY: ReadonlyMap<AnyOpDefinition, (a: number, b: number) => number | undefined> = new Map<AnyOpDefinition, (a: number, b: number) => number | undefined>([
  [AddIOp, (a, b) => a + b],
  [SubIOp, (a, b) => a - b],
  [MulIOp, (a, b) => a * b],
  [DivSIOp, (a, b) => (b === 0 ? undefined : Math.trunc(a / b))],
  [RemSIOp, (a, b) => (b === 0 ? undefined : a % b)],
  [FloorDivSIOp, (a, b) => (b === 0 ? undefined : Math.floor(a / b))],
  [CeilDivSIOp, (a, b) => (b === 0 ? undefined : Math.ceil(a / b))],
  [MinSIOp, (a, b) => Math.min(a, b)],
  [MaxSIOp, (a, b) => Math.max(a, b)],
]);

/** Values bound to constants, with a parent scope (a loop body inside a lane). */
export class StaticScope {
  private readonly values = new Map<Value, Attribute | null>();
  private readonly indexAttrs: Map<number, IntegerAttr>;

  constructor(
    private readonly context: MLIRContext,
    private readonly parent?: StaticScope,
  ) {
    this.indexAttrs = parent ? parent.indexAttrs : new Map();
  }

  /** A child scope (for a loop iteration): sees this scope's bindings. */
  child(): StaticScope {
    return new StaticScope(this.context, this);
  }

  private indexAttr(n: number): IntegerAttr {
    let a = this.indexAttrs.get(n);
    if (!a) this.indexAttrs.set(n, (a = IntegerAttr.get(IndexType.get(this.context), n)));
    return a;
  }

  /** Binds `value` to the index constant `n`. */
  bindIndex(value: Value, n: number): void {
    this.values.set(value, this.indexAttr(n));
  }

  /** Binds `value` to an attribute. */
  bind(value: Value, attr: Attribute): void {
    this.values.set(value, attr);
  }

  private lookup(value: Value): Attribute | null | undefined {
    for (let s: StaticScope | undefined = this; s; s = s.parent) {
      const a = s.values.get(value);
      if (a !== undefined) return a;
    }
    return undefined;
  }

  /** The constant `value` folds to, or undefined when it is not static. */
  attribute(value: Value): Attribute | undefined {
    const known = this.lookup(value);
    if (known !== undefined) return known ?? undefined;
    let result: Attribute | null = null;
    if (value instanceof OpResult) {
      const op = value.definingOp;
      const fast = op.definition && value.type instanceof IndexType ? INDEX_BINARY.get(op.definition) : undefined;
      if (fast && op.numOperands === 2) {
        const a = this.integer(op.getOperand(0));
        const b = this.integer(op.getOperand(1));
        const n = a === undefined || b === undefined ? undefined : fast(a, b);
        if (n !== undefined && Number.isSafeInteger(n)) {
          const attr = this.indexAttr(n);
          this.values.set(value, attr);
          return attr;
        }
      }
      const operands = op.operands.map((v) => this.attribute(v));
      const def = op.definition;
      const folded = def?.hasFold ? def.fold(op, operands) : null;
      const r = folded?.[value.index];
      if (r instanceof Attribute) result = r;
      else if (r !== undefined && r !== value) result = this.attribute(r) ?? null;
    }
    this.values.set(value, result);
    return result ?? undefined;
  }

  /** The integer `value` folds to (as a JS number), or undefined. */
  integer(value: Value): number | undefined {
    const a = this.attribute(value);
    if (!(a instanceof IntegerAttr)) return undefined;
    const n = Number(a.value);
    return Number.isSafeInteger(n) ? n : undefined;
  }
}
