import type { MLIRContext } from './context';

/**
 * A dialect: a namespace of operations, types and attributes registered in a context.
 * (Extended by the IR model: op definitions, type/attribute parse and print hooks.)
 */
export interface Dialect {
  /** The namespace, e.g. `arith`, `spat`. */
  readonly namespace: string;
  /** Called once when the dialect is registered in a context. */
  onRegistered?(context: MLIRContext): void;
}
