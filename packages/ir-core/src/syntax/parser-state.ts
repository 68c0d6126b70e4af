import type { Attribute, Location, Type } from '../ir/attribute';

/** What a parse of one source buffer produced besides the IR: aliases and resources. */
export interface ParsedSourceInfo {
  /** `#name = attr` definitions, in definition order. */
  readonly attributeAliases: ReadonlyMap<string, Attribute>;
  /** `!name = type` definitions, in definition order. */
  readonly typeAliases: ReadonlyMap<string, Type>;
  /** The raw text of `{-# ... #-}` resource sections (kept verbatim). */
  readonly resources: readonly string[];
  /** Locations of aliases referenced before their definition, resolved at the end. */
  readonly deferredLocations: number;
}

/** Options of {@link parseSourceString}. */
export interface ParseOptions {
  /** The file name used in locations and diagnostics (default `-`). */
  filename?: string;
  /** Accept operations of unknown dialects (default: the context's setting). */
  allowUnregisteredDialects?: boolean;
  /** Added to every line number (to keep line numbers of `// -----` chunks as MLIR does). */
  lineOffset?: number;
  /**
   * The maximum nesting of regions, attributes and types. Deeper input produces a diagnostic
   * instead of exhausting the stack (default 1000).
   */
  maxNesting?: number;
  /**
   * Record the name every SSA value was defined with (`%lane`, `%rows` for a `%rows:2` group,
   * region and function arguments, including those declared through an op's custom parser), as
   * MLIR's retain-identifier-names mode does, so that printing with
   * `PrintOptions.useRetainedNames` gives the source names back. Numeric names (`%0`) are not
   * recorded: those values keep the printer's numbering. Names are stored beside the IR
   * (see `getRetainedName`), nothing is stored when this is off (default false).
   */
  retainIdentifierNames?: boolean;
}

/** A location in the parser's buffer, before conversion to a `Location`. */
export type SourceOffset = number;

/** @internal Location alias use waiting for a later `#loc = loc(...)`. */
export interface DeferredLocation {
  readonly name: string;
  readonly offset: SourceOffset;
  readonly apply: (loc: Location) => void;
}
