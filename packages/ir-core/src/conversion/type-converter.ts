import type { Location, Type } from '../ir/attribute';
import type { OpBuilder } from '../ir/builder';
import { FunctionType } from '../ir/builtin-types';
import type { Operation } from '../ir/operation';
import type { Region } from '../ir/region';
import type { Value } from '../ir/value';

/**
 * One type conversion rule: the converted type (a 1:1 conversion), a list of types (1:N; an
 * empty list drops the value; only block signatures support N != 1), `null` when the type
 * cannot be converted, or `undefined` to let the next (earlier-registered) rule decide.
 */
export type TypeConversionRule = (type: Type) => Type | readonly Type[] | null | undefined;

/**
 * Builds a value of `resultType` from `inputs` at the builder's insertion point (a
 * materialization), or returns `null` to let the next rule try. Source materializations turn
 * converted values back into the original type (for uses not converted yet); target
 * materializations turn original values into the converted type (for operands of converted
 * ops whose producers were not converted).
 */
export type MaterializationRule = (builder: OpBuilder, resultType: Type, inputs: readonly Value[], location: Location) => Value | null;

/**
 * Converts types for a dialect conversion (MLIR's `TypeConverter`). Rules are tried from the
 * most recently added to the first; the first that returns a non-`undefined` answer wins.
 * Results are cached per type. A type no rule handles is not convertible (add
 * `addConversion((t) => t)` first to keep unknown types as they are, as MLIR's converters do).
 *
 * @example
 * ```ts
 * const tc = new TypeConverter();
 * tc.addConversion((t) => t);                                               // keep others
 * tc.addConversion((t) => (t instanceof RankedTensorType ? MemRefType.get(...) : undefined));
 * tc.addSourceMaterialization((b, type, inputs, loc) => ToTensorOp.build(b, {...}, loc).result);
 * ```
 */
export class TypeConverter {
  private readonly rules: TypeConversionRule[] = [];
  private readonly sourceRules: MaterializationRule[] = [];
  private readonly targetRules: MaterializationRule[] = [];
  private readonly cache = new Map<Type, readonly Type[] | null>();

  /** Adds a conversion rule (tried before the rules added earlier). */
  addConversion(rule: TypeConversionRule): this {
    this.rules.push(rule);
    this.cache.clear();
    return this;
  }

  /** Adds a source materialization rule (converted values -> original type). */
  addSourceMaterialization(rule: MaterializationRule): this {
    this.sourceRules.push(rule);
    return this;
  }

  /** Adds a target materialization rule (original values -> converted type). */
  addTargetMaterialization(rule: MaterializationRule): this {
    this.targetRules.push(rule);
    return this;
  }

  /** The types `type` converts to (1:N), or `null` when it cannot be converted. */
  convertTypeToTypes(type: Type): readonly Type[] | null {
    const hit = this.cache.get(type);
    if (hit !== undefined) return hit;
    let out: readonly Type[] | null = null;
    for (let i = this.rules.length - 1; i >= 0; i--) {
      const r = this.rules[i]!(type);
      if (r === undefined) continue;
      out = r === null ? null : Array.isArray(r) ? (r as readonly Type[]) : [r as Type];
      break;
    }
    this.cache.set(type, out);
    return out;
  }

  /** The type `type` converts to 1:1, or `null` (not convertible, or not 1:1). */
  convertType(type: Type): Type | null {
    const ts = this.convertTypeToTypes(type);
    return ts !== null && ts.length === 1 ? ts[0]! : null;
  }

  /** Converts every type 1:1; `null` if any fails. */
  convertTypes(types: readonly Type[]): Type[] | null {
    const out: Type[] = [];
    for (const t of types) {
      const c = this.convertType(t);
      if (c === null) return null;
      out.push(c);
    }
    return out;
  }

  /** True when `type` converts to itself. */
  isLegalType(type: Type): boolean {
    return this.convertType(type) === type;
  }

  /** True when every operand and result type of `op` is legal (MLIR's `isLegal(Operation*)`). */
  isLegal(op: Operation): boolean {
    for (let i = 0; i < op.numOperands; i++) if (!this.isLegalType(op.getOperand(i).type)) return false;
    for (let i = 0; i < op.numResults; i++) if (!this.isLegalType(op.getResult(i).type)) return false;
    return true;
  }

  /** True when every block argument type of every block of `region` is legal. */
  isRegionLegal(region: Region): boolean {
    for (let b = region.firstBlock; b; b = b.next) {
      for (const a of b.arguments) if (!this.isLegalType(a.type)) return false;
    }
    return true;
  }

  /** True when the inputs and results of `type` are legal (MLIR's `isSignatureLegal`). */
  isSignatureLegal(type: FunctionType): boolean {
    return type.inputs.every((t) => this.isLegalType(t)) && type.results.every((t) => this.isLegalType(t));
  }

  /** The converted function type (1:N inputs flattened), or `null`. */
  convertFunctionType(type: FunctionType): FunctionType | null {
    const inputs: Type[] = [];
    for (const t of type.inputs) {
      const c = this.convertTypeToTypes(t);
      if (c === null) return null;
      inputs.push(...c);
    }
    const results = this.convertTypes(type.results);
    if (results === null) return null;
    return FunctionType.get(type.context, inputs, results);
  }

  /**
   * The signature conversion of `types` (block argument types): each input mapped to its
   * converted types; `null` when one cannot be converted.
   */
  convertSignature(types: readonly Type[]): SignatureConversion | null {
    const conv = new SignatureConversion(types.length);
    for (let i = 0; i < types.length; i++) {
      const c = this.convertTypeToTypes(types[i]!);
      if (c === null) return null;
      conv.addInputs(i, c);
    }
    return conv;
  }

  /** Runs the source materialization rules (latest first); `null` when none applies. */
  materializeSourceConversion(builder: OpBuilder, resultType: Type, inputs: readonly Value[], location: Location): Value | null {
    for (let i = this.sourceRules.length - 1; i >= 0; i--) {
      const v = this.sourceRules[i]!(builder, resultType, inputs, location);
      if (v) return v;
    }
    return null;
  }

  /** Runs the target materialization rules (latest first); `null` when none applies. */
  materializeTargetConversion(builder: OpBuilder, resultType: Type, inputs: readonly Value[], location: Location): Value | null {
    for (let i = this.targetRules.length - 1; i >= 0; i--) {
      const v = this.targetRules[i]!(builder, resultType, inputs, location);
      if (v) return v;
    }
    return null;
  }
}

/** Where original block argument `i` goes in a {@link SignatureConversion}. */
export type InputMapping =
  | { readonly kind: 'types'; readonly start: number; readonly types: readonly Type[] }
  | { readonly kind: 'value'; readonly value: Value };

/**
 * A block signature conversion (MLIR's `TypeConverter::SignatureConversion`): for each of the
 * original arguments, the new argument types that replace it (1:1, 1:N, or dropped), or a value
 * that replaces it (`remapInput`); new trailing arguments can be appended.
 */
export class SignatureConversion {
  private readonly mappings: (InputMapping | undefined)[];
  private readonly types: Type[] = [];

  constructor(
    /** The number of original arguments. */
    readonly numOriginalInputs: number,
  ) {
    this.mappings = new Array<InputMapping | undefined>(numOriginalInputs).fill(undefined);
  }

  /**
   * Maps original argument `index` to `types` (appended to the new signature), or, with a
   * single array argument, appends new arguments that replace no original one.
   */
  addInputs(index: number, types: readonly Type[]): void;
  addInputs(types: readonly Type[]): void;
  addInputs(a: number | readonly Type[], b?: readonly Type[]): void {
    if (typeof a !== 'number') {
      this.types.push(...a);
      return;
    }
    if (a < 0 || a >= this.numOriginalInputs || this.mappings[a] !== undefined) {
      throw new Error(`internal error: signature conversion input #${a} mapped twice or out of range`);
    }
    this.mappings[a] = { kind: 'types', start: this.types.length, types: [...b!] };
    this.types.push(...b!);
  }

  /** Replaces original argument `index` by `value` (the argument is dropped). */
  remapInput(index: number, value: Value): void {
    if (index < 0 || index >= this.numOriginalInputs || this.mappings[index] !== undefined) {
      throw new Error(`internal error: signature conversion input #${index} mapped twice or out of range`);
    }
    this.mappings[index] = { kind: 'value', value };
  }

  /** The mapping of original argument `index` (undefined: not mapped yet). */
  getInputMapping(index: number): InputMapping | undefined {
    return this.mappings[index];
  }

  /** The new argument types, in order. */
  get convertedTypes(): readonly Type[] {
    return this.types;
  }
}
