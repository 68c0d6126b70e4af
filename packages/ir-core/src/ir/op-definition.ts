import { M } from '../diagnostics/ir-messages';
import type { OpAssemblyHooks } from '../syntax/op-asm';
import type { Attribute, Location, Type } from './attribute';
import type { Block } from './block';
import { DenseArrayAttr, IntegerAttr } from './builtin-attributes';
import { IntegerType } from './builtin-types';
import type { OpBuilder } from './builder';
import { AnyType, type AttrConstraint, type TypeConstraint } from './constraints';
import { formatType } from './format-hooks';
import type { InterfaceImplementation, OpInterface } from './interfaces';
import { Operation } from './operation';
import type { Region } from './region';
import type { OpTrait } from './traits';
import type { OpResult, Value } from './value';

export type { OpTrait } from './traits';

// ------------------------------------------------------------------ specs

/** How many values an operand or result group holds. */
export type ValueGroupKind = 'single' | 'optional' | 'variadic';

/** One named operand or result group of an op definition. */
export interface ValueSpec<K extends ValueGroupKind = ValueGroupKind> {
  /** Single value, optional (0 or 1) or variadic (any number). */
  readonly kind: K;
  /** The type constraint for each value. */
  readonly constraint: TypeConstraint;
}

/** A single operand/result of a type satisfying `c` (default: any type). */
export function single(c: TypeConstraint = AnyType): ValueSpec<'single'> {
  return { kind: 'single', constraint: c };
}
/** An optional (0 or 1) operand/result. */
export function optional(c: TypeConstraint = AnyType): ValueSpec<'optional'> {
  return { kind: 'optional', constraint: c };
}
/** A variadic operand/result group. */
export function variadic(c: TypeConstraint = AnyType): ValueSpec<'variadic'> {
  return { kind: 'variadic', constraint: c };
}

/** One named inherent attribute (property) or declared discardable attribute. */
export interface AttrSpec<A extends Attribute = Attribute, Opt extends boolean = boolean> {
  /** The constraint the value must satisfy. */
  readonly constraint: AttrConstraint<A>;
  /** When true, the attribute may be absent. */
  readonly optional: Opt;
  /** Value the accessor returns when absent (makes the attribute optional). */
  readonly defaultValue?: (context: Operation['context']) => A;
  /** `property` (inherent, printed `<{...}>`) or `attribute` (discardable `{...}`). */
  readonly storage: 'property' | 'attribute';
}

/** A required inherent attribute stored as a property. */
export function prop<A extends Attribute>(c: AttrConstraint<A>): AttrSpec<A, false> {
  return { constraint: c, optional: false, storage: 'property' };
}
/** An optional property (absent allowed; with `defaultValue` the accessor returns it). */
export function optProp<A extends Attribute>(
  c: AttrConstraint<A>,
  defaultValue?: (context: Operation['context']) => A,
): AttrSpec<A, true> {
  return defaultValue ? { constraint: c, optional: true, storage: 'property', defaultValue } : { constraint: c, optional: true, storage: 'property' };
}
/** A required attribute stored in the discardable dictionary (MLIR ops without properties). */
export function attr<A extends Attribute>(c: AttrConstraint<A>): AttrSpec<A, false> {
  return { constraint: c, optional: false, storage: 'attribute' };
}
/** An optional attribute stored in the discardable dictionary. */
export function optAttr<A extends Attribute>(c: AttrConstraint<A>): AttrSpec<A, true> {
  return { constraint: c, optional: true, storage: 'attribute' };
}

/** A region of an op definition. */
export interface RegionSpec {
  /** Exact number of blocks required (ODS `SizedRegion<n>`); undefined = any. */
  readonly blocks?: number;
  /** When true, the group holds any number of regions (must be the last region group). */
  readonly variadic?: boolean;
  /** Description used in "failed to verify constraint: ...". */
  readonly description?: string;
}
/** A region with any number of blocks. */
export function anyRegion(): RegionSpec {
  return { description: 'any region' };
}
/** A region with exactly `n` blocks (`SizedRegion<n>`). */
export function sizedRegion(n: number): RegionSpec {
  return { blocks: n, description: `region with ${n} blocks` };
}
/** Any number of regions (`VariadicRegion`). */
export function variadicRegion(inner: RegionSpec = anyRegion()): RegionSpec {
  return { ...inner, variadic: true };
}

/** A successor group: one block, or any number of blocks. */
export interface SuccessorSpec {
  /** When true, the group holds any number of successors. */
  readonly variadic?: boolean;
}
/** One successor. */
export function successor(): SuccessorSpec {
  return {};
}
/** Any number of successors. */
export function variadicSuccessor(): SuccessorSpec {
  return { variadic: true };
}

/** What `fold` returns: nothing (no fold), or one attribute (constant) or value per result. */
export type FoldResult = readonly (Attribute | Value)[] | null;

type Specs<T> = Readonly<Record<string, T>>;

/** The declarative definition of an operation (input of {@link defineOp}). */
export interface OpSpec<
  O extends Specs<ValueSpec> = Specs<ValueSpec>,
  R extends Specs<ValueSpec> = Specs<ValueSpec>,
  A extends Specs<AttrSpec> = Specs<AttrSpec>,
  G extends Specs<RegionSpec> = Specs<RegionSpec>,
  S extends Specs<SuccessorSpec> = Specs<SuccessorSpec>,
> extends OpAssemblyHooks {
  /** Full name, `dialect.opname`. */
  readonly name: string;
  /** One-line summary. */
  readonly summary?: string;
  /** Longer description. */
  readonly description?: string;
  /** Operand groups, in order. */
  readonly operands?: O;
  /** Result groups, in order. */
  readonly results?: R;
  /** Inherent (property) and declared discardable attributes. */
  readonly attributes?: A;
  /** Regions, in order. */
  readonly regions?: G;
  /** Successor groups, in order. */
  readonly successors?: S;
  /** Traits. */
  readonly traits?: readonly OpTrait[];
  /** Interface implementations ({@link implement}). */
  readonly interfaces?: readonly InterfaceImplementation[];
  /**
   * Custom verifier, run after all generated checks and traits (MLIR's `verify()`). Emit
   * diagnostics on the op and return false on failure.
   */
  verify?(op: OpView<O, R, A, G, S>): boolean;
  /** Verifier run after the op's regions were verified (MLIR's `verifyRegions()`). */
  verifyRegions?(op: OpView<O, R, A, G, S>): boolean;
  /**
   * Folds the op given the constant values of its operands (`undefined` when not constant).
   * Return attributes/values per result, or an empty array after folding in place, or `null`.
   */
  fold?(op: OpView<O, R, A, G, S>, operands: readonly (Attribute | undefined)[]): FoldResult;
}

// ------------------------------------------------------------------ typed views

type OperandOf<S> = S extends ValueSpec<'single'> ? Value : S extends ValueSpec<'optional'> ? Value | undefined : Value[];
type ResultOf<S> = S extends ValueSpec<'single'>
  ? OpResult
  : S extends ValueSpec<'optional'>
    ? OpResult | undefined
    : OpResult[];
type AttrOf<S> =
  S extends AttrSpec<infer X, infer Opt> ? (Opt extends true ? (S extends { defaultValue: unknown } ? X : X | undefined) : X) : never;
type RegionOf<S> = S extends { variadic: true } ? Region[] : Region;
type SuccessorOf<S> = S extends { variadic: true } ? Block[] : Block;

/** The operand accessors of a spec (one per operand group), as an adaptor exposes them. */
export type OperandAccessors<O> = { readonly [K in keyof O]: OperandOf<O[K]> };

/** The typed view type of an op definition (`ViewOf<typeof AddIOp>`). */
export type ViewOf<D> = D extends OpDefinition<infer O, infer R, infer A, infer G, infer S> ? OpView<O, R, A, G, S> : OpViewBase;

/** The operand accessors of an op definition (`OperandsOf<typeof AddIOp>` has `lhs`, `rhs`). */
export type OperandsOf<D> = D extends OpDefinition<infer O, infer _R, infer _A, infer _G, infer _S> ? OperandAccessors<O> : Record<never, never>;

/** The typed accessors derived from a spec (one getter per named group or attribute). */
export type Accessors<O, R, A, G, S> = { readonly [K in keyof O]: OperandOf<O[K]> } & {
  readonly [K in keyof R]: ResultOf<R[K]>;
} & { readonly [K in keyof A]: AttrOf<A[K]> } & { readonly [K in keyof G]: RegionOf<G[K]> } & {
  readonly [K in keyof S]: SuccessorOf<S[K]>;
};

/** A typed view of an operation of a definition: `view.op` plus the derived accessors. */
export type OpView<O = unknown, R = unknown, A = unknown, G = unknown, S = unknown> = OpViewBase & Accessors<O, R, A, G, S>;

/** The base of every typed view. */
export class OpViewBase {
  // Declared and assigned rather than a class field: each definition has its own view class,
  // so a field initializer here would define `op` on the engine's slow (megamorphic) path at
  // every view built, and views are built for every op created or verified.
  /** The viewed operation. */
  declare readonly op: Operation;
  constructor(op: Operation) {
    this.op = op;
  }
  /** The op's location. */
  get location(): Location {
    return this.op.location;
  }
  /** Emits `'<name>' op <message>` at the op. */
  emitOpError(message: string) {
    return this.op.emitOpError(message);
  }
}

// ------------------------------------------------------------------ builder arguments

type BuildValue<S> = S extends ValueSpec<'single'> ? Value : S extends ValueSpec<'optional'> ? Value | undefined : readonly Value[];
type BuildType<S> = S extends ValueSpec<'single'> ? Type : S extends ValueSpec<'optional'> ? Type | undefined : readonly Type[];
type BuildAttr<S> = S extends AttrSpec<infer X> ? X : never;
type OptionalKeys<T, Opt> = { [K in keyof T]: T[K] extends Opt ? K : never }[keyof T];
type RequiredKeys<T, Opt> = Exclude<keyof T, OptionalKeys<T, Opt>>;

/** The named arguments of {@link OpDefinition.build}: operands, result types, attributes, successors. */
export type BuildArgs<O, R, A, S> = { [K in RequiredKeys<O, ValueSpec<'optional'>>]: BuildValue<O[K]> } & {
  [K in OptionalKeys<O, ValueSpec<'optional'>>]?: BuildValue<O[K]>;
} & { [K in RequiredKeys<R, ValueSpec<'optional'>>]: BuildType<R[K]> } & {
  [K in OptionalKeys<R, ValueSpec<'optional'>>]?: BuildType<R[K]>;
} & { [K in RequiredKeys<A, AttrSpec<Attribute, true>>]: BuildAttr<A[K]> } & {
  [K in OptionalKeys<A, AttrSpec<Attribute, true>>]?: BuildAttr<A[K]>;
} & { [K in keyof S]: S[K] extends { variadic: true } ? readonly Block[] : Block } & {
  /** Extra discardable attributes. */
  readonly extraAttributes?: Readonly<Record<string, Attribute>>;
};

// ------------------------------------------------------------------ the definition

/** The attribute naming operand segment sizes (MLIR's `AttrSizedOperandSegments`). */
export const OPERAND_SEGMENT_SIZES = 'operandSegmentSizes';
/** The attribute naming result segment sizes (MLIR's `AttrSizedResultSegments`). */
export const RESULT_SEGMENT_SIZES = 'resultSegmentSizes';

/**
 * The spec-independent view of an op definition, used wherever definitions of different specs
 * are mixed (an {@link Operation}'s `definition`, a dialect's op list). Every
 * {@link OpDefinition} is one.
 */
export interface AnyOpDefinition {
  /** Full op name. */
  readonly name: string;
  /** One-line summary. */
  readonly summary: string;
  /** The traits, implied ones included. */
  readonly traits: readonly OpTrait[];
  /** The traits as a set, for O(1) {@link Operation.hasTrait}. */
  readonly traitSet: ReadonlySet<OpTrait>;
  /** Interface implementations keyed by interface. */
  readonly interfaceMap: ReadonlyMap<object, unknown>;
  /** Names of inherent attributes (stored as properties). */
  readonly inherentAttrNames: ReadonlySet<string>;
  /** Custom assembly: parse hook. */
  readonly parse: OpAssemblyHooks['parse'];
  /** Custom assembly: print hook. */
  readonly print: OpAssemblyHooks['print'];
  /** Result name suggestions for the printer. */
  readonly getAsmResultNames: OpAssemblyHooks['getAsmResultNames'];
  /** Block argument name suggestions for the printer. */
  readonly getAsmBlockArgumentNames: OpAssemblyHooks['getAsmBlockArgumentNames'];
  /** Dialect whose prefix nested ops may drop. */
  readonly defaultDialect: string | undefined;
  /** True when the definition has a `fold` hook. */
  readonly hasFold: boolean;
  /** The first trait of `kind`, if any. */
  findTrait(kind: string): OpTrait | undefined;
  /** Op-local verification, in the fixed order. */
  verifyInvariants(op: Operation): boolean;
  /** Verification after the nested regions were verified. */
  verifyRegionInvariants(op: Operation): boolean;
  /** Runs the `fold` hook (`null` when it does not fold). */
  fold(op: Operation, operands: readonly (Attribute | undefined)[]): FoldResult;
  /** `[start, length]` of operand group `index`, or null if malformed. */
  getOperandGroupRange(op: Operation, index: number): [number, number] | null;
  /** `[start, length]` of result group `index`, or null if malformed. */
  getResultGroupRange(op: Operation, index: number): [number, number] | null;
  /** Operand group names (one shared, frozen array). */
  readonly operandNames: readonly string[];
  /** Operand group kinds (`single`, `optional`, `variadic`), parallel to {@link operandNames}. */
  readonly operandKinds: readonly ValueGroupKind[];
  /** Result group names. */
  readonly resultNames: readonly string[];
  /** Attribute names. */
  readonly attributeNames: readonly string[];
}

interface Group<T> {
  readonly name: string;
  readonly spec: T;
}

/**
 * A registered operation's definition, derived from an {@link OpSpec}: typed views
 * ({@link get}), a builder ({@link build}) and a fixed verification order:
 * operand/result counts and segment sizes -> attributes (presence, constraints) -> operand
 * and result types -> region count and shape -> successors -> traits -> interfaces ->
 * custom `verify`; after the nested regions: region traits and `verifyRegions`.
 */
export class OpDefinition<
  O extends Specs<ValueSpec> = Specs<ValueSpec>,
  R extends Specs<ValueSpec> = Specs<ValueSpec>,
  A extends Specs<AttrSpec> = Specs<AttrSpec>,
  G extends Specs<RegionSpec> = Specs<RegionSpec>,
  S extends Specs<SuccessorSpec> = Specs<SuccessorSpec>,
> implements AnyOpDefinition {
  /** Full op name. */
  readonly name: string;
  /** One-line summary. */
  readonly summary: string;
  /** Custom assembly: parse hook. */
  readonly parse: OpAssemblyHooks['parse'];
  /** Custom assembly: print hook. */
  readonly print: OpAssemblyHooks['print'];
  /** Result name suggestions for the printer. */
  readonly getAsmResultNames: OpAssemblyHooks['getAsmResultNames'];
  /** Block argument name suggestions for the printer. */
  readonly getAsmBlockArgumentNames: OpAssemblyHooks['getAsmBlockArgumentNames'];
  /** Dialect whose prefix nested ops may drop. */
  readonly defaultDialect: string | undefined;
  /** See {@link tables}. */
  private tablesCache: DerivedTables | undefined;
  /** See {@link viewClass}. */
  private viewClassCache: (new (op: Operation) => OpView<O, R, A, G, S>) | undefined;
  /** See {@link operandNames}, {@link operandKinds}, {@link resultNames}, {@link attributeNames}. */
  private operandNamesCache: readonly string[] | undefined;
  private operandKindsCache: readonly ValueGroupKind[] | undefined;
  private resultNamesCache: readonly string[] | undefined;
  private attributeNamesCache: readonly string[] | undefined;

  /**
   * Keeps `spec`; the tables derived from it (groups, traits, interfaces, verification facts)
   * are built on first use ({@link tables}): a process defines a few hundred ops when it loads
   * the dialects and uses a few dozen of them.
   */
  constructor(readonly spec: OpSpec<O, R, A, G, S>) {
    this.name = spec.name;
    this.summary = spec.summary ?? '';
    this.parse = spec.parse;
    this.print = spec.print;
    this.getAsmResultNames = spec.getAsmResultNames;
    this.getAsmBlockArgumentNames = spec.getAsmBlockArgumentNames;
    this.defaultDialect = spec.defaultDialect;
  }

  /**
   * The tables derived from the spec, built on first use. Building them checks the accessor
   * names (an internal error for a name declared twice or reserved).
   */
  private get tables(): DerivedTables {
    return (this.tablesCache ??= deriveTables(this.spec as OpSpec));
  }

  /** The traits, implied ones included. */
  get traits(): readonly OpTrait[] {
    return this.tables.traits;
  }
  /** The traits as a set for O(1) {@link Operation.hasTrait}. */
  get traitSet(): ReadonlySet<OpTrait> {
    return this.tables.traitSet;
  }
  /** Interface implementations keyed by interface. */
  get interfaceMap(): ReadonlyMap<object, unknown> {
    return this.tables.interfaceMap;
  }
  /** Names of inherent attributes (declared with `storage: 'property'`, plus segment sizes). */
  get inherentAttrNames(): ReadonlySet<string> {
    return this.tables.inherentAttrNames;
  }
  /** True when the operand groups need `operandSegmentSizes`. */
  get hasOperandSegments(): boolean {
    return this.tables.hasOperandSegments;
  }
  /** True when the result groups need `resultSegmentSizes`. */
  get hasResultSegments(): boolean {
    return this.tables.hasResultSegments;
  }

  /**
   * The class of this op's typed views, built on first use: a process loads a few hundred op
   * definitions and views ops of a few of them (a short `raptor import` paid for every class).
   */
  private get viewClass(): new (op: Operation) => OpView<O, R, A, G, S> {
    return (this.viewClassCache ??= this.makeViewClass());
  }

  /** The first trait of `kind` (for parameterized traits such as `HasParent`). */
  findTrait(kind: string): OpTrait | undefined {
    for (const trait of this.tables.traits) if (trait.kind === kind) return trait;
    return undefined;
  }

  /** True when `op` is an operation of this definition. */
  isInstance(op: Operation): boolean {
    return op.definition === (this as AnyOpDefinition);
  }

  /** A typed view of `op` (which must be of this definition; an internal error otherwise). */
  get(op: Operation): OpView<O, R, A, G, S> {
    if (op.definition !== (this as AnyOpDefinition)) {
      throw new Error(`internal error: '${op.name}' viewed as '${this.name}'`);
    }
    return new this.viewClass(op);
  }

  /** A typed view of `op` if it is of this definition, else `undefined`. */
  match(op: Operation): OpView<O, R, A, G, S> | undefined {
    return op.definition === (this as AnyOpDefinition) ? new this.viewClass(op) : undefined;
  }

  /**
   * Creates an op of this definition at the builder's insertion point from named arguments
   * (operands by group name, result types by group name, attributes, successors). Segment
   * sizes are filled in, and regions are created empty.
   */
  build(builder: OpBuilder, args: BuildArgs<O, R, A, S>, location: Location): OpView<O, R, A, G, S> {
    const t = this.tables;
    const a = args as unknown as Record<string, unknown>;
    const operands: Value[] = [];
    const operandSizes: number[] = [];
    collectGroups(t.operandGroups, a, operands, operandSizes, this.name, 'operand');
    const resultTypes: Type[] = [];
    const resultSizes: number[] = [];
    collectGroups(t.resultGroups, a, resultTypes, resultSizes, this.name, 'result type');
    // Each map is made when its first entry comes (many ops have neither).
    let properties: Map<string, Attribute> | null = null;
    let attributes: Map<string, Attribute> | null = null;
    for (const g of t.attrSpecs) {
      const v = a[g.name] as Attribute | undefined;
      if (v === undefined) continue;
      if (g.spec.storage === 'property') (properties ??= new Map()).set(g.name, v);
      else (attributes ??= new Map()).set(g.name, v);
    }
    const ctx = builder.context;
    if (t.hasOperandSegments) (properties ??= new Map()).set(OPERAND_SEGMENT_SIZES, DenseArrayAttr.i32(ctx, operandSizes));
    if (t.hasResultSegments) (properties ??= new Map()).set(RESULT_SEGMENT_SIZES, DenseArrayAttr.i32(ctx, resultSizes));
    const extra = args.extraAttributes;
    if (extra) for (const k of Object.keys(extra)) (attributes ??= new Map()).set(k, extra[k]!);
    const successors: Block[] = [];
    for (const g of t.successorGroups) {
      const v = a[g.name];
      if (g.spec.variadic) {
        if (v != null) for (const b of v as Block[]) successors.push(b);
      } else if (v !== undefined) successors.push(v as Block);
    }
    // The maps built above go to the op as they are (not copied, as `builder.create` would).
    const op = builder.insert(
      Operation.createOwningMaps(
        { context: ctx, name: this.name, location, operands, resultTypes, successors, regions: t.fixedRegions },
        properties,
        attributes,
      ),
    );
    return new this.viewClass(op);
  }

  // ---------------------------------------------------------------- groups

  /**
   * The `[start, length]` of operand group `index` of `op` (resolving variadic groups from
   * the operand count or `operandSegmentSizes`). Returns `null` if the sizes are malformed.
   */
  getOperandGroupRange(op: Operation, index: number): [number, number] | null {
    const t = this.tables;
    if (!t.hasOperandSegments) return shapeRange(t.operandShape, op.numOperands, index);
    return segmentRange(t.operandGroups, op.numOperands, op.getAttr(OPERAND_SEGMENT_SIZES), index);
  }

  /** The `[start, length]` of result group `index` of `op`. */
  getResultGroupRange(op: Operation, index: number): [number, number] | null {
    const t = this.tables;
    if (!t.hasResultSegments) return shapeRange(t.resultShape, op.numResults, index);
    return segmentRange(t.resultGroups, op.numResults, op.getAttr(RESULT_SEGMENT_SIZES), index);
  }

  /**
   * Operand group names, in order. One frozen array, made on first use: builders such as
   * spatial-dialect's `createPlan` read it for every op they build.
   */
  get operandNames(): readonly string[] {
    return (this.operandNamesCache ??= Object.freeze(this.tables.operandGroups.map((g) => g.name)));
  }
  /** Operand group kinds, in order (one frozen array, as {@link operandNames}). */
  get operandKinds(): readonly ValueGroupKind[] {
    return (this.operandKindsCache ??= Object.freeze(this.tables.operandGroups.map((g) => g.spec.kind)));
  }
  /** Result group names, in order (one frozen array, as {@link operandNames}). */
  get resultNames(): readonly string[] {
    return (this.resultNamesCache ??= Object.freeze(this.tables.resultGroups.map((g) => g.name)));
  }
  /** Attribute names, in declaration order (one frozen array, as {@link operandNames}). */
  get attributeNames(): readonly string[] {
    return (this.attributeNamesCache ??= Object.freeze(this.tables.attrSpecs.map((g) => g.name)));
  }

  // ---------------------------------------------------------------- verification

  /**
   * Verifies `op` against this definition in the fixed order (see the class comment), up to
   * and including the custom `verify`. Emits the first failure and returns false.
   */
  verifyInvariants(op: Operation): boolean {
    const t = this.tables;
    if (!this.verifyValueGroups(op, t.operandGroups, t.operandShape, op.numOperands, OPERAND_SEGMENT_SIZES, t.hasOperandSegments, 'operand')) return false;
    if (!this.verifyValueGroups(op, t.resultGroups, t.resultShape, op.numResults, RESULT_SEGMENT_SIZES, t.hasResultSegments, 'result')) return false;
    if (t.attrSpecs.length > 0 && !this.verifyAttributes(op)) return false;
    if (!t.operandShape.allAnyType && !this.verifyTypes(op, true)) return false;
    if (!t.resultShape.allAnyType && !this.verifyTypes(op, false)) return false;
    if (!this.verifyRegionShape(op)) return false;
    if (!this.verifySuccessorCount(op)) return false;
    const tv = t.traitVerifiers;
    for (let i = 0; i < tv.length; i++) if (!tv[i]!.verify!(op)) return false;
    for (const i of t.interfacesWithVerify) if (!i.iface.verify!(op, i.impl)) return false;
    const custom = this.spec.verify;
    if (custom && !custom.call(this.spec, new this.viewClass(op))) return false;
    return true;
  }

  /** Runs region traits and `verifyRegions` (after the nested ops were verified). */
  verifyRegionInvariants(op: Operation): boolean {
    const rv = this.tables.regionTraitVerifiers;
    for (let i = 0; i < rv.length; i++) if (!rv[i]!.verifyRegion!(op)) return false;
    const custom = this.spec.verifyRegions;
    if (custom && !custom.call(this.spec, new this.viewClass(op))) return false;
    return true;
  }

  /** Runs the spec's `fold` hook, if any. */
  fold(op: Operation, operands: readonly (Attribute | undefined)[]): FoldResult {
    const f = this.spec.fold;
    return f ? f.call(this.spec, new this.viewClass(op), operands) : null;
  }

  /** True when the spec has a `fold` hook. */
  get hasFold(): boolean {
    return this.spec.fold !== undefined;
  }

  private verifyValueGroups(
    op: Operation,
    groups: Group<ValueSpec>[],
    shape: GroupShape,
    count: number,
    segAttr: string,
    hasSegments: boolean,
    what: 'operand' | 'result',
  ): boolean {
    const nSingle = shape.nSingle;
    const nVar = groups.length - nSingle;
    if (hasSegments) {
      const sizes = op.getAttr(segAttr);
      if (!(sizes instanceof DenseArrayAttr) || !(sizes.elementType instanceof IntegerType) || sizes.elementType.width !== 32) {
        op.emitOpError(M.requiresDenseI32ArrayAttr(segAttr));
        return false;
      }
      const vals = sizes.numbers;
      if (vals.length !== groups.length) {
        op.emitOpError(M.segmentAttrWrongLength(segAttr, what, groups.length, vals.length));
        return false;
      }
      let total = 0;
      for (let i = 0; i < vals.length; i++) {
        if (vals[i]! < 0) {
          op.emitOpError(M.segmentAttrNegative(segAttr));
          return false;
        }
        total += vals[i]!;
      }
      if (total !== count) {
        op.emitOpError(M.segmentCountMismatch(what, count, total, segAttr));
        return false;
      }
      let start = 0;
      for (let i = 0; i < groups.length; i++) {
        const k = groups[i]!.spec.kind;
        if ((k === 'single' && vals[i] !== 1) || (k === 'optional' && vals[i]! > 1)) {
          op.emitOpError(M.optionalGroupTooLarge(what, start, vals[i]!));
          return false;
        }
        start += vals[i]!;
      }
      return true;
    }
    if (nVar === 0) {
      if (count === nSingle) return true;
      if (what === 'operand') {
        op.emitOpError(nSingle === 0 ? M.requiresZeroOperands : nSingle === 1 ? M.requiresSingleOperand : M.expectedNOperands(nSingle, count));
      } else {
        op.emitOpError(nSingle === 0 ? M.requiresZeroResults : nSingle === 1 ? M.requiresOneResult : M.expectedNResults(nSingle));
      }
      return false;
    }
    if (count < nSingle) {
      op.emitOpError(what === 'operand' ? M.expectedAtLeastNOperands(nSingle, count) : M.expectedAtLeastNResults(nSingle));
      return false;
    }
    const varGroup = shape.varIndex;
    if (groups[varGroup]!.spec.kind === 'optional' && count > nSingle + 1) {
      op.emitOpError(M.optionalGroupTooLarge(what, varGroup, count - nSingle));
      return false;
    }
    return true;
  }

  private verifyAttributes(op: Operation): boolean {
    const t = this.tables;
    for (const g of t.attrSpecs) {
      const s = g.spec;
      const v = s.storage === 'property' ? (op.getProperty(g.name) ?? op.getDiscardableAttr(g.name)) : op.getAttr(g.name);
      if (v === undefined) {
        if (!s.optional) {
          op.emitOpError(M.requiresAttribute(g.name));
          return false;
        }
        continue;
      }
      if (!s.constraint.check(v)) {
        op.emitOpError(M.attributeConstraint(g.name, s.constraint.description));
        return false;
      }
    }
    return true;
  }

  private verifyTypes(op: Operation, operands: boolean): boolean {
    const tables = this.tables;
    const groups = operands ? tables.operandGroups : tables.resultGroups;
    const shape = operands ? tables.operandShape : tables.resultShape;
    if (shape.varIndex < 0) {
      // Every group is one value: group i is value i (no range to compute).
      const n = Math.min(groups.length, operands ? op.numOperands : op.numResults);
      for (let i = 0; i < n; i++) {
        const c = groups[i]!.spec.constraint;
        if (c === AnyType) continue;
        const t = operands ? op.getOperand(i).type : op.getResult(i).type;
        if (!c.check(t)) {
          op.emitOpError(operands ? M.operandTypeConstraint(i, c.description, formatType(t)) : M.resultTypeConstraint(i, c.description, formatType(t)));
          return false;
        }
      }
      return true;
    }
    for (let gi = 0; gi < groups.length; gi++) {
      const range = operands ? this.getOperandGroupRange(op, gi) : this.getResultGroupRange(op, gi);
      if (!range) continue;
      const g = groups[gi]!;
      const c = g.spec.constraint;
      if (c === AnyType) continue;
      for (let i = range[0]; i < range[0] + range[1]; i++) {
        const t = operands ? op.getOperand(i).type : op.getResult(i).type;
        if (!c.check(t)) {
          const desc = g.spec.kind === 'variadic' ? `variadic of ${c.description}` : c.description;
          op.emitOpError(operands ? M.operandTypeConstraint(i, desc, formatType(t)) : M.resultTypeConstraint(i, desc, formatType(t)));
          return false;
        }
      }
    }
    return true;
  }

  private verifyRegionShape(op: Operation): boolean {
    const t = this.tables;
    const fixed = t.fixedRegions;
    const hasVariadic = t.hasVariadicRegions;
    const n = op.numRegions;
    if (n === fixed && !t.hasSizedRegions) return true;
    if (!hasVariadic && n !== fixed) {
      op.emitOpError(fixed === 0 ? M.requiresZeroRegions : fixed === 1 ? M.requiresOneRegion : M.expectedNRegions(fixed));
      return false;
    }
    if (hasVariadic && n < fixed) {
      op.emitOpError(M.expectedAtLeastNRegions(fixed));
      return false;
    }
    for (let i = 0; i < n; i++) {
      const g = t.regionGroups[Math.min(i, t.regionGroups.length - 1)]!;
      const want = g.spec.blocks;
      if (want !== undefined && op.regions[i]!.numBlocks !== want) {
        op.emitOpError(M.regionConstraint(i, g.name, g.spec.description ?? `region with ${want} blocks`));
        return false;
      }
    }
    return true;
  }

  private verifySuccessorCount(op: Operation): boolean {
    const t = this.tables;
    const fixed = t.fixedSuccessors;
    const hasVariadic = t.hasVariadicSuccessors;
    const n = op.numSuccessors;
    if (n === 0 && fixed === 0) return true;
    if (!hasVariadic && n !== fixed) {
      op.emitOpError(M.requiresNSuccessors(fixed, n));
      return false;
    }
    if (hasVariadic && n < fixed) {
      op.emitOpError(M.requiresAtLeastNSuccessors(fixed, n));
      return false;
    }
    const parent = op.parentRegion;
    for (let i = 0; i < n; i++) {
      if (op.getSuccessor(i).parent !== parent) {
        op.emitError(M.referenceToBlockInAnotherRegion);
        return false;
      }
    }
    return true;
  }

  private makeViewClass(): new (op: Operation) => OpView<O, R, A, G, S> {
    const t = this.tables;
    class View extends OpViewBase {}
    const proto = View.prototype as unknown as Record<string, unknown>;
    const define = (name: string, get: (this: OpViewBase) => unknown): void => {
      Object.defineProperty(proto, name, { get, enumerable: true, configurable: false });
    };
    const def = this as AnyOpDefinition;
    t.operandGroups.forEach((g, gi) => {
      define(g.name, function (this: OpViewBase) {
        const r = def.getOperandGroupRange(this.op, gi);
        if (!r) throw new Error(`internal error: malformed operand segments on '${def.name}'`);
        if (g.spec.kind === 'single') return this.op.getOperand(r[0]);
        if (g.spec.kind === 'optional') return r[1] === 0 ? undefined : this.op.getOperand(r[0]);
        const out: Value[] = [];
        for (let i = r[0]; i < r[0] + r[1]; i++) out.push(this.op.getOperand(i));
        return out;
      });
    });
    t.resultGroups.forEach((g, gi) => {
      define(g.name, function (this: OpViewBase) {
        const r = def.getResultGroupRange(this.op, gi);
        if (!r) throw new Error(`internal error: malformed result segments on '${def.name}'`);
        if (g.spec.kind === 'single') return this.op.getResult(r[0]);
        if (g.spec.kind === 'optional') return r[1] === 0 ? undefined : this.op.getResult(r[0]);
        return this.op.results.slice(r[0], r[0] + r[1]);
      });
    });
    for (const g of t.attrSpecs) {
      const name = g.name;
      const dflt = g.spec.defaultValue;
      define(name, function (this: OpViewBase) {
        const v = this.op.getAttr(name);
        return v === undefined && dflt ? dflt(this.op.context) : v;
      });
    }
    let fixedRegions = 0;
    for (const g of t.regionGroups) {
      const start = fixedRegions;
      if (g.spec.variadic) define(g.name, function (this: OpViewBase) {
        return this.op.regions.slice(start);
      });
      else {
        define(g.name, function (this: OpViewBase) {
          return this.op.getRegion(start);
        });
        fixedRegions++;
      }
    }
    let fixedSucc = 0;
    for (const g of t.successorGroups) {
      const start = fixedSucc;
      if (g.spec.variadic) define(g.name, function (this: OpViewBase) {
        return this.op.successors.slice(start);
      });
      else {
        define(g.name, function (this: OpViewBase) {
          return this.op.getSuccessor(start);
        });
        fixedSucc++;
      }
    }
    return View as unknown as new (op: Operation) => OpView<O, R, A, G, S>;
  }
}

/** What an {@link OpDefinition} derives from its spec (see `OpDefinition.tables`). */
interface DerivedTables {
  readonly operandGroups: Group<ValueSpec>[];
  readonly resultGroups: Group<ValueSpec>[];
  readonly attrSpecs: Group<AttrSpec>[];
  readonly regionGroups: Group<RegionSpec>[];
  readonly successorGroups: Group<SuccessorSpec>[];
  readonly hasOperandSegments: boolean;
  readonly hasResultSegments: boolean;
  readonly traits: readonly OpTrait[];
  readonly traitSet: ReadonlySet<OpTrait>;
  readonly interfaceMap: ReadonlyMap<object, unknown>;
  readonly interfacesWithVerify: InterfaceImplementation[];
  readonly inherentAttrNames: ReadonlySet<string>;
  readonly operandShape: GroupShape;
  readonly resultShape: GroupShape;
  readonly fixedRegions: number;
  readonly hasVariadicRegions: boolean;
  readonly hasSizedRegions: boolean;
  readonly fixedSuccessors: number;
  readonly hasVariadicSuccessors: boolean;
  readonly traitVerifiers: OpTrait[];
  /** The traits with a `verifyRegion`, in order. */
  readonly regionTraitVerifiers: OpTrait[];
}

/** The named groups of one part of a spec, in declaration order. */
function groupsOf<T>(r: Specs<T> | undefined): Group<T>[] {
  return r ? Object.keys(r).map((name) => ({ name, spec: r[name]! })) : [];
}

/**
 * Derives the tables of `spec`; an internal error when an accessor name is declared twice or
 * is reserved (`op` or a member of {@link OpViewBase}).
 */
function deriveTables(spec: OpSpec): DerivedTables {
  const operandGroups = groupsOf(spec.operands);
  const resultGroups = groupsOf(spec.results);
  const attrSpecs = groupsOf(spec.attributes);
  const regionGroups = groupsOf(spec.regions);
  const successorGroups = groupsOf(spec.successors);
  const hasOperandSegments = operandGroups.filter((g) => g.spec.kind !== 'single').length > 1;
  const hasResultSegments = resultGroups.filter((g) => g.spec.kind !== 'single').length > 1;

  const names = new Set<string>();
  for (const g of [...operandGroups, ...resultGroups, ...attrSpecs, ...regionGroups, ...successorGroups]) {
    if (names.has(g.name) || g.name in OpViewBase.prototype || g.name === 'op') {
      throw new Error(`internal error: '${spec.name}' declares the accessor name '${g.name}' twice or reserved`);
    }
    names.add(g.name);
  }

  const traits: OpTrait[] = [];
  const addTrait = (t: OpTrait): void => {
    if (traits.includes(t)) return;
    traits.push(t);
    for (const i of t.implied ?? []) addTrait(i);
  };
  for (const t of spec.traits ?? []) addTrait(t);
  const interfaceMap = new Map<object, unknown>();
  for (const i of spec.interfaces ?? []) interfaceMap.set(i.iface, i.impl);

  const inherentAttrNames = new Set<string>();
  for (const a of attrSpecs) if (a.spec.storage === 'property') inherentAttrNames.add(a.name);
  if (hasOperandSegments) inherentAttrNames.add(OPERAND_SEGMENT_SIZES);
  if (hasResultSegments) inherentAttrNames.add(RESULT_SEGMENT_SIZES);

  const fixedRegions = regionGroups.filter((g) => !g.spec.variadic).length;
  const fixedSuccessors = successorGroups.filter((g) => !g.spec.variadic).length;
  return {
    operandGroups,
    resultGroups,
    attrSpecs,
    regionGroups,
    successorGroups,
    hasOperandSegments,
    hasResultSegments,
    traits,
    traitSet: new Set(traits),
    interfaceMap,
    interfacesWithVerify: (spec.interfaces ?? []).filter((i) => i.iface.verify !== undefined),
    inherentAttrNames,
    operandShape: groupShape(operandGroups),
    resultShape: groupShape(resultGroups),
    fixedRegions,
    hasVariadicRegions: fixedRegions !== regionGroups.length,
    hasSizedRegions: regionGroups.some((g) => g.spec.blocks !== undefined),
    fixedSuccessors,
    hasVariadicSuccessors: fixedSuccessors !== successorGroups.length,
    traitVerifiers: traits.filter((t) => t.verify !== undefined),
    regionTraitVerifiers: traits.filter((t) => t.verifyRegion !== undefined),
  };
}

/** Precomputed facts about a list of value groups. */
interface GroupShape {
  /** Number of single groups. */
  readonly nSingle: number;
  /** Index of the (last) non-single group, or -1. */
  readonly varIndex: number;
  /** True when no group constrains its types. */
  readonly allAnyType: boolean;
}

function groupShape(groups: Group<ValueSpec>[]): GroupShape {
  let nSingle = 0;
  let varIndex = -1;
  let allAnyType = true;
  for (let i = 0; i < groups.length; i++) {
    const g = groups[i]!;
    if (g.spec.kind === 'single') nSingle++;
    else if (varIndex < 0) varIndex = i;
    if (g.spec.constraint !== AnyType) allAnyType = false;
  }
  return { nSingle, varIndex, allAnyType };
}

/** The `[start, length]` of group `index` from segment sizes (null when they do not fit). */
function segmentRange(groups: Group<ValueSpec>[], count: number, sizesAttr: Attribute | undefined, index: number): [number, number] | null {
  if (!(sizesAttr instanceof DenseArrayAttr) || sizesAttr.length !== groups.length) return null;
  const vals = sizesAttr.numbers;
  let start = 0;
  for (let i = 0; i < index; i++) start += vals[i]!;
  const len = vals[index]!;
  return start + len <= count ? [start, len] : null;
}

/**
 * The `[start, length]` of group `index` without segment sizes (at most one group is not
 * single: it takes what the single groups leave), or null when `count` is too small.
 */
function shapeRange(shape: GroupShape, count: number, index: number): [number, number] | null {
  const varIndex = shape.varIndex;
  const varLen = varIndex < 0 ? 0 : count - shape.nSingle;
  if (varLen < 0) return null;
  const start = varIndex < 0 || index <= varIndex ? index : index - 1 + varLen;
  const len = index === varIndex ? varLen : 1;
  return start + len <= count ? [start, len] : null;
}

/**
 * Defines an operation declaratively (like xDSL's irdl or MLIR's ODS) and returns its
 * {@link OpDefinition}: register it in a dialect ({@link defineDialect}), view ops with
 * `Def.get(op)` and build them with `Def.build(builder, {...}, loc)`.
 *
 * @example
 * ```ts
 * const AddOp = defineOp({
 *   name: 'test.add',
 *   operands: { lhs: single(AnySignlessInteger), rhs: single(AnySignlessInteger) },
 *   results: { result: single(AnySignlessInteger) },
 *   traits: [Traits.Pure, Traits.SameOperandsAndResultType],
 * });
 * const add = AddOp.build(b, { lhs: x, rhs: y, result: i32 }, loc);
 * add.lhs; // Value
 * ```
 */
export function defineOp<
  O extends Specs<ValueSpec> = Record<never, ValueSpec>,
  R extends Specs<ValueSpec> = Record<never, ValueSpec>,
  A extends Specs<AttrSpec> = Record<never, AttrSpec>,
  G extends Specs<RegionSpec> = Record<never, RegionSpec>,
  S extends Specs<SuccessorSpec> = Record<never, SuccessorSpec>,
>(spec: OpSpec<O, R, A, G, S>): OpDefinition<O, R, A, G, S> {
  return new OpDefinition(spec);
}


/** Helper for tests and tools: the integer value of an IntegerAttr property. */
export function getIntegerProperty(op: Operation, name: string): bigint | undefined {
  const a = op.getAttr(name);
  return a instanceof IntegerAttr ? a.value : undefined;
}

/** Re-exported for convenience in op definitions. */
export type { OpInterface };

/**
 * Appends the values of `groups` found in `args` to `into` and each group's size to `sizes` (a
 * variadic group's list, an optional group's value or nothing, a single group's value). Plain
 * loops, no intermediate arrays: ops are built by the thousand, often in cold code.
 */
function collectGroups<T>(groups: readonly Group<ValueSpec>[], args: Record<string, unknown>, into: T[], sizes: number[], opName: string, what: string): void {
  for (const g of groups) {
    const v = args[g.name];
    if (g.spec.kind === 'variadic') {
      const before = into.length;
      if (v != null) for (const x of v as T[]) into.push(x);
      sizes.push(into.length - before);
      continue;
    }
    if (v === undefined) {
      if (g.spec.kind === 'single') throw new Error(`internal error: missing ${what} '${g.name}' of '${opName}'`);
      sizes.push(0);
      continue;
    }
    into.push(v as T);
    sizes.push(1);
  }
}
