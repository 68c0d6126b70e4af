/**
 * Collects code generation diagnostics on the IR: each message is emitted once per op (a
 * batch body op is checked once per lane; the first failing lane is named in the message),
 * and the error count decides whether emission may go on.
 */
import type { Operation } from '@raptor-pim/ir-core';

/** Emits `'<op>' op <message>` diagnostics, once per (op, message). */
export class Reporter {
  private readonly seen = new Map<Operation, Set<string>>();
  /** Errors emitted. */
  errors = 0;
  /** Warnings emitted. */
  warnings = 0;

  private first(op: Operation, message: string): boolean {
    let s = this.seen.get(op);
    if (!s) this.seen.set(op, (s = new Set()));
    if (s.has(message)) return false;
    s.add(message);
    return true;
  }

  /** Reports an error at `op`. */
  error(op: Operation, message: string): void {
    if (!this.first(op, message)) return;
    this.errors++;
    op.emitOpError(message);
  }

  /** Reports a warning at `op`. */
  warning(op: Operation, message: string): void {
    if (!this.first(op, message)) return;
    this.warnings++;
    op.emitWarning(`'${op.name}' op ${message}`);
  }
}
