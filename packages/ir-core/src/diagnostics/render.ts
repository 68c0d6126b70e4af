import type { Diagnostic } from './diagnostic';
import type { Location } from '../ir/attribute';
import { FileLineColLoc, findFileLineCol } from '../ir/location';
import { printAttribute } from '../syntax/printer';

/** Finds the text of a source line: `(filename, line) => text | undefined`. */
export type SourceLineLookup = (filename: string, line: number) => string | undefined;

/** Source lines longer than this are cut around the column when rendered (MLIR prints them whole). */
const MAX_RENDERED_LINE = 4096;

function prefixOf(loc: Location): { prefix: string; file?: FileLineColLoc } {
  const flc = findFileLineCol(loc);
  if (flc) return { prefix: `${flc.filename}:${flc.line}:${flc.column}`, file: flc };
  // Not a file location: print it as MLIR prints the location attribute.
  const text = printAttribute(loc);
  return { prefix: text };
}

function renderOne(out: string[], d: Diagnostic, lookup: SourceLineLookup | undefined): void {
  const { prefix, file } = prefixOf(d.location);
  out.push(`${prefix}: ${d.severity}: ${d.message}\n`);
  if (!file || !lookup) return;
  let line = lookup(file.filename, file.line);
  if (line === undefined) return;
  let col = Math.max(1, file.column);
  if (line.length > MAX_RENDERED_LINE) {
    const start = Math.max(0, col - 1 - MAX_RENDERED_LINE / 2);
    line = line.substring(start, start + MAX_RENDERED_LINE);
    col -= start;
  }
  let marker = ' '.repeat(col - 1) + '^';
  if (file.endLine === file.line && file.endColumn > file.column) marker += '~'.repeat(file.endColumn - file.column);
  out.push(line, '\n', marker, '\n');
}

/**
 * Renders a diagnostic and its notes in the format of MLIR's SourceMgr handler:
 * `file:line:col: error: message`, the source line, a caret under the column (with `~` for a
 * one-line range), then each note the same way.
 */
export function renderDiagnostic(diagnostic: Diagnostic, lookup?: SourceLineLookup): string {
  const out: string[] = [];
  renderOne(out, diagnostic, lookup);
  for (const n of diagnostic.notes) renderOne(out, n, lookup);
  return out.join('');
}

/** Renders many diagnostics (in order). */
export function renderDiagnostics(diagnostics: readonly Diagnostic[], lookup?: SourceLineLookup): string {
  return diagnostics.map((d) => renderDiagnostic(d, lookup)).join('');
}
