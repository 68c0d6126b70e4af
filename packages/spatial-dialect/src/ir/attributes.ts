/**
 * The attributes of the `spat` dialect: `#spat<logical_layout nchw>`,
 * `#spat<physical_layout dense_nchw|nchw_row_strip|nhwc_row_strip|fragmented>` and the
 * `spat.blueprint` enums (`#spat<blueprint_mode ...>`, `#spat<index_map ...>`,
 * `#spat<conflict_policy ...>`, `#spat<coverage_policy ...>`). Every attribute is one uniqued
 * enum case; the dialect's asm hooks ({@link parseSpatAttribute}, {@link printSpatAttribute})
 * read and write the body `kind case`.
 */
import { Attribute, attrConstraint, type AsmParser, type AsmPrinter, type AttrConstraint, type DialectOwned, type MLIRContext } from '@raptor-pim/ir-core';
import { SpatMessages as M } from '../diagnostics';

/** The enum kinds of the dialect and their cases, in declaration order. */
export const SPAT_ENUM_CASES = {
  /** Logical coordinate order of a tensor. */
  logical_layout: ['nchw'],
  /** Physical storage layout of a logically NCHW tensor. */
  physical_layout: ['dense_nchw', 'nchw_row_strip', 'nhwc_row_strip', 'fragmented'],
  /** `spat.blueprint` mode: one leading slot dimension, or explicit fragment assembly. */
  blueprint_mode: ['physical_view', 'fragment_assembly'],
  /** `spat.blueprint` index map: explicit slices, or the contiguous row-major mapping. */
  index_map: ['explicit', 'contiguous_row_major'],
  /** `spat.blueprint` destination conflict policy (only `disjoint` is accepted by the verifier). */
  conflict_policy: ['disjoint', 'overwrite', 'accumulate'],
  /** `spat.blueprint` destination coverage policy. */
  coverage_policy: ['complete', 'partial'],
} as const;

/** One enum kind of the dialect (`logical_layout`, `physical_layout`, ...). */
export type SpatEnumKind = keyof typeof SPAT_ENUM_CASES;
/** The cases of one enum kind. */
export type SpatEnumCase<K extends SpatEnumKind> = (typeof SPAT_ENUM_CASES)[K][number];

/**
 * A uniqued `spat` enum attribute: `#spat<kind case>`. Compare with `===`.
 *
 * @example
 * const nchw = SpatEnumAttr.get(ctx, 'logical_layout', 'nchw'); // prints #spat<logical_layout nchw>
 */
export class SpatEnumAttr<K extends SpatEnumKind = SpatEnumKind> extends Attribute implements DialectOwned {
  /** @inheritDoc */
  readonly dialectNamespace = 'spat';
  private constructor(
    context: MLIRContext,
    /** The enum kind (the mnemonic printed first). */
    readonly kind: K,
    /** The case. */
    readonly value: SpatEnumCase<K>,
  ) {
    super(context);
  }

  /** The uniqued attribute of `kind` and `value`. */
  static get<K extends SpatEnumKind>(context: MLIRContext, kind: K, value: SpatEnumCase<K>): SpatEnumAttr<K> {
    return context.unique(`spat.${kind}:${value}`, () => new SpatEnumAttr<K>(context, kind, value));
  }

  /** True when `case_` is a case of `kind`. */
  static isCase<K extends SpatEnumKind>(kind: K, case_: string): case_ is SpatEnumCase<K> {
    return (SPAT_ENUM_CASES[kind] as readonly string[]).includes(case_);
  }
}

/** `#spat<logical_layout nchw>`. */
export type LogicalLayoutAttr = SpatEnumAttr<'logical_layout'>;
/** `#spat<physical_layout ...>`. */
export type PhysicalLayoutAttr = SpatEnumAttr<'physical_layout'>;

/** An attribute constraint accepting exactly the `spat` enum attributes of `kind`. */
export function spatEnumConstraint<K extends SpatEnumKind>(kind: K): AttrConstraint<SpatEnumAttr<K>> {
  return attrConstraint(`#spat<${kind} ...> attribute (one of ${SPAT_ENUM_CASES[kind].join(', ')})`, (a): a is SpatEnumAttr<K> => a instanceof SpatEnumAttr && a.kind === kind);
}

/** Constraint of `logicalLayout` properties. */
export const LogicalLayoutConstraint = spatEnumConstraint('logical_layout');
/** Constraint of physical layout properties. */
export const PhysicalLayoutConstraint = spatEnumConstraint('physical_layout');
/** Constraint of `spat.blueprint`'s `mode`. */
export const BlueprintModeConstraint = spatEnumConstraint('blueprint_mode');
/** Constraint of `spat.blueprint`'s `indexMap`. */
export const IndexMapConstraint = spatEnumConstraint('index_map');
/** Constraint of `spat.blueprint`'s `conflictPolicy`. */
export const ConflictPolicyConstraint = spatEnumConstraint('conflict_policy');
/** Constraint of `spat.blueprint`'s `coveragePolicy`. */
export const CoveragePolicyConstraint = spatEnumConstraint('coverage_policy');

/**
 * Parses a bare enum case of `kind` (as in custom assembly: `layout nchw`). Emits a
 * diagnostic listing the valid cases and returns undefined on error.
 */
export function parseEnumCase<K extends SpatEnumKind>(parser: AsmParser, kind: K): SpatEnumAttr<K> | undefined {
  const loc = parser.getCurrentLocation();
  const word = parser.parseOptionalKeywordName();
  if (word === null || !SpatEnumAttr.isCase(kind, word)) {
    parser.emitError(M.expectedEnumCase(kind, SPAT_ENUM_CASES[kind], word), loc);
    return undefined;
  }
  return SpatEnumAttr.get(parser.context, kind, word);
}

/**
 * Parses a `spat` attribute after `#spat` (the dialect hook): `<kind case>` (the form the
 * printer uses) or the pretty form `.kind<case>` (the parser is then at `kind`).
 */
export function parseSpatAttribute(parser: AsmParser): Attribute | undefined {
  const wrapped = parser.parseOptionalLess();
  const loc = parser.getCurrentLocation();
  const kinds = Object.keys(SPAT_ENUM_CASES) as SpatEnumKind[];
  const kind = parser.parseOptionalKeywordName();
  if (kind === null || !(kinds as string[]).includes(kind)) {
    parser.emitError(M.unknownAttributeKind(kinds, kind), loc);
    return undefined;
  }
  if (!wrapped && !parser.parseLess()) return undefined;
  const attr = parseEnumCase(parser, kind as SpatEnumKind);
  if (!attr || !parser.parseGreater()) return undefined;
  return attr;
}

/** Prints the body of a `spat` attribute (`kind case`); false for foreign attributes. */
export function printSpatAttribute(attr: Attribute, printer: AsmPrinter): boolean {
  if (!(attr instanceof SpatEnumAttr)) return false;
  printer.print(`${attr.kind} ${attr.value}`);
  return true;
}
