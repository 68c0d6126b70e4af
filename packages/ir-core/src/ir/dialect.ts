import type { Attribute, Location, Type } from './attribute';
import type { MLIRContext } from './context';
import type { AnyOpDefinition } from './op-definition';
import type { OpBuilder } from './builder';
import type { Operation } from './operation';
import type { DialectAsmHooks } from '../syntax/op-asm';
import type { RewritePattern } from '../rewrite/pattern';
import { OpInterface, type InterfaceImplementation } from './interfaces';

/**
 * A dialect: a namespace of operations, types and attributes registered in a context.
 * Every member except `namespace` is optional, so a plain object literal is a dialect.
 * Build one with {@link defineDialect} to get op lookup from a list of definitions.
 */
export interface Dialect extends DialectAsmHooks {
  /** The namespace, e.g. `arith`, `spat`. */
  readonly namespace: string;
  /** Called once when the dialect is registered in a context. */
  onRegistered?(context: MLIRContext): void;
  /** The definition of op `name` (full name, `ns.op`), if this dialect defines it. */
  getOperationDefinition?(name: string): AnyOpDefinition | undefined;
  /** The op definitions of this dialect, in definition order. */
  readonly operations?: readonly AnyOpDefinition[];
  /**
   * When true, unknown ops of this namespace pass verification (MLIR's
   * `allowUnknownOperations`).
   */
  readonly allowsUnknownOperations?: boolean;
  /**
   * Builds an op producing the constant `value` of `type` at the builder's insertion point,
   * used when folding produces an attribute (MLIR's `materializeConstant`). Returns `null`
   * when the dialect cannot materialize it.
   */
  materializeConstant?(builder: OpBuilder, value: Attribute, type: Type, location: Location): Operation | null;
  /**
   * Verifies a discardable attribute named with this dialect's prefix (`ns.attr`) on `op`
   * (MLIR's `verifyOperationAttribute`). Emits diagnostics and returns `false` on failure.
   */
  verifyOperationAttribute?(op: Operation, name: string, value: Attribute): boolean;
  /**
   * The canonicalization patterns of this dialect's ops (MLIR's per-op
   * `getCanonicalizationPatterns`, gathered per dialect), used by the `canonicalize` pass.
   */
  getCanonicalizationPatterns?(): readonly RewritePattern[];
  /**
   * Dialect interfaces (MLIR's `DialectInterface`s, e.g. inlining or folding hooks), declared
   * with {@link defineDialectInterface} and {@link implement}; look them up with
   * {@link getDialectInterface}.
   */
  readonly interfaces?: readonly InterfaceImplementation[];
}

/** A dialect interface key carrying its implementation type `T`. */
export type DialectInterface<T> = OpInterface<T>;

/** Defines a dialect interface (implemented per dialect with `implement(iface, impl)`). */
export function defineDialectInterface<T>(name: string): DialectInterface<T> {
  return new OpInterface<T>(name);
}

/** The implementation of `iface` by `dialect`, if it provides one. */
export function getDialectInterface<T>(dialect: Dialect | undefined, iface: DialectInterface<T>): T | undefined {
  const list = dialect?.interfaces;
  if (!list) return undefined;
  for (const i of list) if (i.iface === (iface as OpInterface<unknown>)) return i.impl as T;
  return undefined;
}

/** What {@link defineDialect} takes. */
export interface DialectSpec extends Omit<Dialect, 'getOperationDefinition' | 'operations'> {
  /** The op definitions (names must start with `namespace.`). */
  readonly operations?: readonly AnyOpDefinition[];
}

/**
 * Creates a dialect from its op definitions, with O(1) op lookup.
 * @example `const test = defineDialect({ namespace: 'test', operations: [AddOp, ConstOp] });`
 */
export function defineDialect(spec: DialectSpec): Dialect {
  const ops = new Map<string, AnyOpDefinition>();
  for (const def of spec.operations ?? []) {
    if (!def.name.startsWith(spec.namespace + '.')) {
      throw new Error(`internal error: op '${def.name}' does not belong to dialect '${spec.namespace}'`);
    }
    if (ops.has(def.name)) throw new Error(`internal error: op '${def.name}' defined twice`);
    ops.set(def.name, def);
  }
  return {
    ...spec,
    operations: [...ops.values()],
    getOperationDefinition: (name: string) => ops.get(name),
  };
}
