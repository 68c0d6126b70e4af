import type { MLIRContext } from './context';

let nextStorageId = 1;

/**
 * Base of every attribute. Attributes are immutable and uniqued by their context: two
 * attributes with the same value are the same object, so compare them with `===`.
 * Subclasses are created only through their static `get(...)`, which calls
 * {@link MLIRContext.unique}.
 */
export abstract class Attribute {
  /** A small integer unique per attribute/type instance; use it to build uniquing keys. */
  readonly id: number = nextStorageId++;
  constructor(readonly context: MLIRContext) {}
}

/**
 * Base of every type. Types are immutable and uniqued by their context: compare with `===`.
 */
export abstract class Type {
  readonly id: number = nextStorageId++;
  constructor(readonly context: MLIRContext) {}
}

/**
 * Base of location attributes (`loc(...)`): unknown, file:line:col (and ranges), name,
 * call site, fused, opaque. Concrete kinds are defined in `location.ts`.
 */
export abstract class Location extends Attribute {}
