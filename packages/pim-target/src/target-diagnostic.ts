/**
 * `TargetDiagnostic`, the diagnostic value every reader, validator, decoder and assembler of this package returns
 * instead of throwing. Message texts live in `diagnostics.ts`.
 */

/** How serious a diagnostic is. `warning` is used for pimsim-nn compatibility problems. */
export type Severity = 'error' | 'warning' | 'note';

/** One problem found in user input, with everything known about where it is. */
export interface TargetDiagnostic {
  /** Severity. */
  severity: Severity;
  /** A stable identifier of the kind of problem (e.g. `pimb-bad-magic`), for tools and tests. */
  code: string;
  /** What is wrong and what would be right. */
  message: string;
  /** File (bundle-relative name or path) the problem is in, when known. */
  file?: string;
  /** Index of the instruction in its core program, when known. */
  instruction?: number;
  /** Byte offset in the file, when known. */
  offset?: number;
  /** 1-based line (assembler, JSON), when known. */
  line?: number;
  /** 1-based column (assembler), when known. */
  column?: number;
  /**
   * JSON path (e.g. `chip_config.core_config.matrix_config.xbar_size[0]`), when known. Messages
   * about a JSON field already start with the path, so {@link formatDiagnostic} does not print it.
   */
  path?: string;
}

/**
 * Formats a diagnostic on one line:
 * `core_0.pim:instruction 3 (byte 72): error: message` or `prog.asm:4:7: error: message`.
 */
export function formatDiagnostic(d: TargetDiagnostic): string {
  const where: string[] = [];
  if (d.file !== undefined) where.push(d.file);
  if (d.line !== undefined) where.push(d.column !== undefined ? `${d.line}:${d.column}` : `${d.line}`);
  if (d.instruction !== undefined) where.push(`instruction ${d.instruction}`);
  if (d.offset !== undefined) where.push(`byte ${d.offset}`);
  const prefix = where.length > 0 ? `${where.join(':')}: ` : '';
  return `${prefix}${d.severity}: ${d.message}`;
}

/** Whether any diagnostic in the list is an error. */
export function hasErrors(diagnostics: readonly TargetDiagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/**
 * The result of an operation on user input: a value (possibly partial) plus diagnostics.
 * `value` is `undefined` when nothing usable could be produced.
 */
export interface Result<T> {
  /** The produced value, if any. */
  value: T | undefined;
  /** Every problem found, in input order. */
  diagnostics: TargetDiagnostic[];
}
