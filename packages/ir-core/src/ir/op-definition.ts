import type { Operation } from './operation';
import type { OpTrait } from './traits';

export type { OpTrait } from './traits';

/**
 * A registered operation's definition (placeholder API; the declarative builder
 * `defineOp` fills it).
 */
export interface OpDefinition {
  /** Full op name. */
  readonly name: string;
  /** One-line description. */
  readonly summary: string;
  /** The traits (implied ones included). */
  readonly traits: readonly OpTrait[];
  /** The traits as a set, for O(1) {@link Operation.hasTrait}. */
  readonly traitSet: ReadonlySet<OpTrait>;
  /** Implemented interfaces. */
  readonly interfaceMap: ReadonlyMap<object, unknown>;
  /** Names of inherent attributes (stored as properties). */
  readonly inherentAttrNames: ReadonlySet<string>;
  /** The first trait of `kind`, if any. */
  findTrait(kind: string): OpTrait | undefined;
  /** Runs the op-local verification. */
  verifyInvariants(op: Operation): boolean;
  /** Runs the verification that needs verified regions. */
  verifyRegionInvariants(op: Operation): boolean;
}
