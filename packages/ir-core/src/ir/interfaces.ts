import type { Operation } from './operation';

/**
 * An op interface: a typed set of methods that op definitions implement, looked up per op
 * definition in O(1) ({@link Operation.getInterface}). Dialects define interfaces with
 * {@link defineOpInterface}; definitions list implementations with {@link implement}.
 *
 * @example
 * ```ts
 * interface Shaped { outputShape(op: Operation): number[] }
 * const ShapedOp = defineOpInterface<Shaped>('ShapedOpInterface');
 * // in defineOp({... interfaces: [implement(ShapedOp, { outputShape: (op) => [4] })] })
 * const impl = op.getInterface(ShapedOp); // Shaped | undefined
 * ```
 */
export class OpInterface<T> {
  /** @internal Phantom marker carrying `T`. */
  declare readonly phantom?: T;

  constructor(
    /** The interface's name, as MLIR spells it (`ParallelCombiningOpInterface`). */
    readonly name: string,
    /**
     * Optional interface verifier, run for every op implementing it after its traits and
     * before its custom verifier (MLIR's `verifyTrait` of interfaces).
     */
    readonly verify?: (op: Operation, impl: T) => boolean,
  ) {}

  /** True when `op`'s definition implements this interface. */
  isImplementedBy(op: Operation): boolean {
    return op.getInterface(this) !== undefined;
  }
}

/** Defines a new op interface (see {@link OpInterface}). */
export function defineOpInterface<T>(name: string, verify?: (op: Operation, impl: T) => boolean): OpInterface<T> {
  return new OpInterface<T>(name, verify);
}

/** One entry of an op definition's interface list: an interface and its implementation. */
export interface InterfaceImplementation {
  /** The implemented interface. */
  readonly iface: OpInterface<unknown>;
  /** The implementation object. */
  readonly impl: unknown;
}

/** Pairs an interface with its implementation for an op definition (type-checked). */
export function implement<T>(iface: OpInterface<T>, impl: T): InterfaceImplementation {
  return { iface: iface as OpInterface<unknown>, impl };
}
