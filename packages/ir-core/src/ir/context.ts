import { DiagnosticEngine } from '../diagnostics/diagnostic';
import type { Dialect } from './dialect';
import type { Operation } from './operation';

/**
 * Owns registered dialects, uniques types and attributes, and routes diagnostics.
 * Everything built in one context may be compared by identity; never mix contexts.
 */
export class MLIRContext {
  /** Where diagnostics go (see {@link DiagnosticEngine.withHandler}). */
  readonly diagnostics = new DiagnosticEngine();
  /** When true, operations of unknown dialects are accepted and kept in generic form. */
  allowUnregisteredDialects = false;
  /**
   * When true, every diagnostic emitted on an operation gets a note
   * `see current operation: <op in generic form>` (MLIR's `printOpOnDiagnostic`, which
   * `mlir-opt` enables except when verifying expected diagnostics). Off by default here.
   */
  printOpOnDiagnostic = false;
  /** Overrides how an operation is printed in diagnostic notes (default: generic form, local scope). */
  operationPrinter: ((op: Operation) => string) | undefined = undefined;
  private readonly dialects = new Map<string, Dialect>();
  private readonly uniquer = new Map<string, object>();

  /** Registers a dialect (idempotent for the same namespace and object). */
  registerDialect(dialect: Dialect): void {
    const existing = this.dialects.get(dialect.namespace);
    if (existing && existing !== dialect) {
      throw new Error(`dialect '${dialect.namespace}' registered twice with different definitions`);
    }
    if (!existing) {
      this.dialects.set(dialect.namespace, dialect);
      dialect.onRegistered?.(this);
    }
  }

  /** The dialect registered under `namespace`, if any. */
  getDialect(namespace: string): Dialect | undefined {
    return this.dialects.get(namespace);
  }

  /** All registered dialects, in registration order. */
  get registeredDialects(): readonly Dialect[] {
    return [...this.dialects.values()];
  }

  /**
   * Returns the unique instance for `key`, creating it with `create` on first use. Keys must
   * encode the complete value of the type or attribute (use nested instances' `id`), and
   * start with a kind prefix so distinct kinds never collide.
   */
  unique<T extends object>(key: string, create: () => T): T {
    const existing = this.uniquer.get(key);
    if (existing !== undefined) return existing as T;
    const created = create();
    this.uniquer.set(key, created);
    return created;
  }
}
