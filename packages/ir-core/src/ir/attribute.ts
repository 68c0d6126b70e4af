import type { MLIRContext } from './context';

let nextStorageId = 1;

/**
 * Base of every attribute. Attributes are immutable and uniqued by their context: two
 * attributes with the same value are the same object, so compare them with `===`.
 * Subclasses are created only through their static `get(...)`, which calls
 * {@link MLIRContext.unique}.
 */
export abstract class Attribute {
  // The fields are declared and assigned in the constructor rather than defined as class
  // fields: a field initializer of this base class runs on instances of every attribute class,
  // where the engine defines it on its slow (megamorphic) path; an assignment stays on the fast
  // one. Same properties, same order.
  /** The owning context. */
  declare readonly context: MLIRContext;
  /** A small integer unique per attribute/type instance; use it to build uniquing keys. */
  declare readonly id: number;
  constructor(context: MLIRContext) {
    this.context = context;
    this.id = nextStorageId++;
  }
}

/**
 * Base of every type. Types are immutable and uniqued by their context: compare with `===`.
 */
export abstract class Type {
  // Declared and assigned, as in Attribute (see there).
  /** The owning context. */
  declare readonly context: MLIRContext;
  /** A small integer unique per attribute/type instance; use it to build uniquing keys. */
  declare readonly id: number;
  constructor(context: MLIRContext) {
    this.context = context;
    this.id = nextStorageId++;
  }
}

/**
 * Base of location attributes (`loc(...)`): unknown, file:line:col (and ranges), name,
 * call site, fused, opaque. Concrete kinds are defined in `location.ts`.
 */
export abstract class Location extends Attribute {}
