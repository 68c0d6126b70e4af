import type { Location, Type } from '../ir/attribute';
import type { Block } from '../ir/block';
import type { MLIRContext } from '../ir/context';
import type { Operation } from '../ir/operation';
import type { Region } from '../ir/region';
import { type Value, BlockArgument } from '../ir/value';
import { getRetainedName, setRetainedName } from '../ir/value-names';
import { UnrealizedConversionCastOp } from '../dialects/builtin';
import { PatternRewriter, type RewriterListener } from '../rewrite/rewriter';
import { SignatureConversion, type TypeConverter } from './type-converter';

/** Why the driver created an `unrealized_conversion_cast`. */
export type MaterializationKind = 'source' | 'target' | 'placeholder';

/** @internal A cast created by the driver, resolved (folded or materialized) at the end. */
export interface MaterializationRecord {
  readonly op: Operation;
  readonly kind: MaterializationKind;
  readonly converter: TypeConverter | null;
}

/**
 * The rewriter of a dialect conversion (MLIR's `ConversionPatternRewriter`). On top of the
 * {@link PatternRewriter} API (create ops, `inlineRegionBefore`, `modifyOpInPlace`, ...):
 *
 * - `replaceOp(op, values)` accepts values of converted types: uses not converted yet see a
 *   source materialization (`builtin.unrealized_conversion_cast` back to the old type), folded
 *   away once they are converted;
 * - `eraseOp(op)` may erase an op whose results are still used (the uses must be gone or
 *   converted by the end of the conversion);
 * - `convertRegionTypes` / `applySignatureConversion` convert block arguments;
 * - `getRemappedValue(s)` and `convertType` use the current pattern's type converter.
 *
 * The whole conversion is undone if it fails, so patterns need not be careful about partial
 * changes; but a pattern that returns false must not have changed the IR.
 */
export class ConversionPatternRewriter extends PatternRewriter {
  /** The type converter of the pattern being applied (`null` if it has none). */
  typeConverter: TypeConverter | null = null;
  /** @internal Casts created by the driver, in creation order. */
  readonly materializations: MaterializationRecord[] = [];
  /** @internal Casts by op, for lookups. */
  readonly materializationOf = new Map<Operation, MaterializationRecord>();
  /** @internal True while the driver creates its own casts (not counted as pattern changes). */
  creatingMaterialization = false;
  private readonly targetCache = new Map<Value, Map<Type, Operation>>();

  /** @internal Created by the conversion driver. */
  constructor(context: MLIRContext, listener: RewriterListener) {
    super(context, listener);
  }

  /** Converts `type` with the current pattern's type converter (`null` without one or on failure). */
  convertType(type: Type): Type | null {
    return this.typeConverter ? this.typeConverter.convertType(type) : null;
  }

  /**
   * Replaces `op`'s results by `values` (of the same or of converted types) and erases `op`.
   * A use left on a result whose replacement has another type gets a source materialization.
   */
  override replaceOp(op: Operation, values: readonly Value[] | Operation): void {
    const vals = Array.isArray(values) ? (values as readonly Value[]) : (values as Operation).results;
    if (vals.length !== op.numResults) {
      throw new Error(`internal error: replacing ${op.numResults} results of '${op.name}' with ${vals.length} values`);
    }
    this.listener?.notifyOperationReplaced?.(op, vals);
    for (let i = 0; i < vals.length; i++) {
      const old = op.getResult(i);
      if (old.useEmpty) continue;
      const v = vals[i]!;
      const repl = v.type === old.type ? v : this.materialize('source', old.type, [v], op.location, this.typeConverter, pointAfter(v));
      this.replaceAllUsesWith(old, repl);
    }
    this.eraseOp(op);
  }

  /**
   * Erases `op`. Results that are still used are replaced by placeholders that must have no
   * uses left at the end of the conversion (else it fails with an unresolved materialization).
   */
  override eraseOp(op: Operation): void {
    for (let i = 0; i < op.numResults; i++) {
      const r = op.getResult(i);
      if (r.useEmpty) continue;
      this.replaceAllUsesWith(r, this.materialize('placeholder', r.type, [], op.location, null, { block: op.parent!, before: op }));
    }
    super.eraseOp(op);
  }

  /**
   * The value to use for `value` in converted IR: looks through a source materialization to
   * the converted value, and with a type converter (the pattern's by default) returns a value
   * of the converted type, creating (or reusing) a target materialization when needed.
   * `null` when the type cannot be converted.
   */
  getRemappedValue(value: Value, converter: TypeConverter | null = this.typeConverter): Value | null {
    const rec = value.definingOp ? this.materializationOf.get(value.definingOp) : undefined;
    const unwrapped = rec && rec.kind === 'source' && rec.op.numOperands === 1 && rec.op.parent !== null ? rec.op.getOperand(0) : value;
    if (!converter) return unwrapped;
    const want = converter.convertType(value.type);
    if (want === null) return null;
    if (unwrapped.type === want) return unwrapped;
    if (value.type === want) return value;
    let perType = this.targetCache.get(value);
    const hit = perType?.get(want);
    if (hit && hit.parent !== null) return hit.getResult(0);
    const loc = value.location;
    const v = this.materialize('target', want, [value], loc, converter, pointAfter(value));
    if (!perType) this.targetCache.set(value, (perType = new Map()));
    perType.set(want, v.definingOp!);
    return v;
  }

  /** {@link getRemappedValue} for each value; `null` if one fails. */
  getRemappedValues(values: readonly Value[], converter: TypeConverter | null = this.typeConverter): Value[] | null {
    const out: Value[] = [];
    for (const v of values) {
      const r = this.getRemappedValue(v, converter);
      if (r === null) return null;
      out.push(r);
    }
    return out;
  }

  /**
   * Converts the argument types of every block of `region` with `converter`; the entry block
   * uses `entryConversion` when given (MLIR's `convertRegionTypes`). Old arguments are replaced
   * by the new ones (through source materializations where the type changed). Returns the entry
   * block, or `null` (changing nothing) when a type cannot be converted.
   */
  convertRegionTypes(region: Region, converter: TypeConverter, entryConversion?: SignatureConversion): Block | null {
    const plans: [Block, SignatureConversion][] = [];
    for (let b = region.firstBlock; b; b = b.next) {
      const conv = b === region.firstBlock && entryConversion ? entryConversion : converter.convertSignature(b.argumentTypes);
      if (!conv) return null;
      plans.push([b, conv]);
    }
    for (const [b, conv] of plans) this.applySignatureConversion(b, conv, converter);
    return region.firstBlock;
  }

  /**
   * Rewrites `block`'s arguments as `conversion` says (MLIR's `applySignatureConversion`): new
   * arguments of the converted types replace the old ones; an old argument whose replacement has
   * another type (or is 1:N, or dropped) is replaced by a source materialization, folded away once
   * its uses are converted. Returns the block (changed in place). An identity conversion changes
   * nothing.
   */
  applySignatureConversion(block: Block, conversion: SignatureConversion, converter: TypeConverter | null = this.typeConverter): Block {
    const n = block.numArguments;
    if (conversion.numOriginalInputs !== n) {
      throw new Error(`internal error: signature conversion for ${conversion.numOriginalInputs} arguments applied to a block with ${n}`);
    }
    if (isIdentity(block, conversion)) return block;
    const orig = [...block.arguments];
    const parentLoc = block.parentOp?.location;
    const newTypes = conversion.convertedTypes;
    const locs: (Location | undefined)[] = new Array<Location | undefined>(newTypes.length).fill(undefined);
    for (let i = 0; i < n; i++) {
      const m = conversion.getInputMapping(i);
      if (!m) throw new Error(`internal error: signature conversion leaves argument #${i} unmapped`);
      if (m.kind === 'types') for (let k = 0; k < m.types.length; k++) locs[m.start + k] = orig[i]!.loc;
    }
    const added = newTypes.map((t, k) => block.addArgument(t, locs[k] ?? parentLoc ?? orig[0]!.loc));
    const firstOp = block.firstOp;
    for (let i = 0; i < n; i++) {
      const a = orig[i]!;
      const m = conversion.getInputMapping(i)!;
      const name = getRetainedName(a);
      if (m.kind === 'types' && m.types.length === 1 && name) setRetainedName(added[m.start]!, name);
      if (a.useEmpty) continue;
      let repl: Value;
      if (m.kind === 'value') {
        repl = m.value.type === a.type ? m.value : this.materialize('source', a.type, [m.value], a.loc, converter, { block, before: firstOp });
      } else {
        const vals = added.slice(m.start, m.start + m.types.length);
        repl = vals.length === 1 && vals[0]!.type === a.type ? vals[0]! : this.materialize('source', a.type, vals, a.loc, converter, { block, before: firstOp });
      }
      this.replaceAllUsesWith(a, repl);
    }
    for (let i = n - 1; i >= 0; i--) block.eraseArgument(i);
    const owner = block.parentOp ?? firstOp;
    if (owner) this.listener?.notifyOperationModified?.(owner);
    return block;
  }

  /** @internal Creates a driver cast `inputs -> type` at `at` and records it. */
  materialize(
    kind: MaterializationKind,
    type: Type,
    inputs: readonly Value[],
    location: Location,
    converter: TypeConverter | null,
    at: { block: Block; before: Operation | null },
  ): Value {
    const saved = this.saveInsertionPoint();
    const wasCreating = this.creatingMaterialization;
    this.creatingMaterialization = true;
    try {
      if (at.before) this.setInsertionPoint(at.before);
      else this.setInsertionPointToEnd(at.block);
      const cast = UnrealizedConversionCastOp.build(this, { inputs, outputs: [type] }, location);
      const rec: MaterializationRecord = { op: cast.op, kind, converter };
      this.materializations.push(rec);
      this.materializationOf.set(cast.op, rec);
      return cast.op.getResult(0);
    } finally {
      this.creatingMaterialization = wasCreating;
      this.restoreInsertionPoint(saved);
    }
  }
}

/** The insertion point right after `v` is defined (block start for a block argument). */
function pointAfter(v: Value): { block: Block; before: Operation | null } {
  if (v instanceof BlockArgument) return { block: v.parentBlock, before: v.parentBlock.firstOp };
  const def = v.definingOp!;
  return { block: def.parent!, before: def.next };
}

function isIdentity(block: Block, conv: SignatureConversion): boolean {
  if (conv.convertedTypes.length !== block.numArguments) return false;
  for (let i = 0; i < block.numArguments; i++) {
    const m = conv.getInputMapping(i);
    if (!m || m.kind !== 'types' || m.types.length !== 1 || m.start !== i || m.types[0] !== block.getArgument(i).type) return false;
  }
  return true;
}
