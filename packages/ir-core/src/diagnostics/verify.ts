import { Diagnostic, type Severity } from './diagnostic';
import type { MLIRContext } from '../ir/context';
import { FileLineColLoc, findFileLineCol } from '../ir/location';
import { M } from '../syntax/syntax-messages';

/** One `// expected-<severity>@<where> {{message}}` directive. */
export interface ExpectedDiagnostic {
  readonly severity: Severity;
  /** The line the diagnostic is expected on (original file numbering), or -1 for `@unknown`. */
  readonly line: number;
  /** The expected text: a substring of the message, or a regex when written `{{re:...}}`. */
  readonly text: string;
  readonly regex: RegExp | undefined;
  /** Where the directive is written (line and column of `expected-`). */
  readonly directiveLine: number;
  readonly directiveColumn: number;
  matched: boolean;
}

const DIRECTIVE = /expected-(error|warning|note|remark)(?:@([+-][0-9]+|above|below|unknown))?\s*\{\{(.*)\}\}\s*$/;

/**
 * Reads the expected-diagnostic directives of `text` (lines numbered from `lineOffset + 1`).
 * Returns the directives, or a diagnostic for a malformed one (bad offset, `@below` at the end).
 */
export function parseExpectedDiagnostics(
  context: MLIRContext,
  filename: string,
  text: string,
  lineOffset = 0,
): { expected: ExpectedDiagnostic[]; errors: Diagnostic[] } {
  const expected: ExpectedDiagnostic[] = [];
  const errors: Diagnostic[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const lineText = lines[i];
    const at = lineText.indexOf('expected-');
    if (at < 0) continue;
    const m = DIRECTIVE.exec(lineText.substring(at));
    if (!m) continue;
    const severity = m[1] as Severity;
    const lineNo = i + 1 + lineOffset;
    const where = m[2];
    let line = lineNo;
    if (where === 'above') line = lineNo - 1;
    else if (where === 'below') line = lineNo + 1;
    else if (where === 'unknown') line = -1;
    else if (where) line = lineNo + Number(where);
    const column = at + 1;
    if (where === 'below' && i + 1 >= lines.length) {
      errors.push(new Diagnostic('error', FileLineColLoc.get(context, filename, lineNo, column), M.expectedDiagnosticNoBelow(severity)));
      continue;
    }
    if (line !== -1 && line < 1) {
      errors.push(new Diagnostic('error', FileLineColLoc.get(context, filename, lineNo, column), M.expectedDiagnosticBadLine(severity)));
      continue;
    }
    let body = m[3];
    let regex: RegExp | undefined;
    if (body.startsWith('re:')) {
      body = body.substring(3);
      try {
        regex = new RegExp(body);
      } catch (e) {
        errors.push(
          new Diagnostic('error', FileLineColLoc.get(context, filename, lineNo, column), M.invalidRegex(body, (e as Error).message)),
        );
        continue;
      }
    }
    expected.push({ severity, line, text: body, regex, directiveLine: lineNo, directiveColumn: column, matched: false });
  }
  return { expected, errors };
}

/**
 * MLIR's `-verify-diagnostics` for one buffer: every emitted diagnostic (and note) must match
 * an expected directive on its line (same severity, message containing the text), and every
 * directive must be matched. {@link check} returns the problems as error diagnostics, worded
 * and located like mlir-opt's.
 */
export class DiagnosticVerifier {
  readonly expected: ExpectedDiagnostic[];
  private readonly problems: Diagnostic[];
  private readonly seen: Diagnostic[] = [];

  constructor(
    private readonly context: MLIRContext,
    private readonly filename: string,
    text: string,
    lineOffset = 0,
  ) {
    const r = parseExpectedDiagnostics(context, filename, text, lineOffset);
    this.expected = r.expected;
    this.problems = r.errors;
  }

  /** Matches one emitted diagnostic and its notes; unmatched ones become problems. */
  process(d: Diagnostic): void {
    // Matched in check(): notes may be attached after the diagnostic is emitted.
    this.seen.push(d);
  }

  private processOne(d: Diagnostic): void {
    const flc = findFileLineCol(d.location);
    const line = flc && flc.filename === this.filename ? flc.line : -1;
    const hit = this.expected.find(
      (e) =>
        !e.matched &&
        e.severity === d.severity &&
        e.line === line &&
        (e.regex ? e.regex.test(d.message) : d.message.includes(e.text)),
    );
    if (hit) {
      hit.matched = true;
      return;
    }
    this.problems.push(new Diagnostic('error', d.location, M.unexpectedDiagnostic(d.severity, d.message)));
  }

  /** The unexpected diagnostics seen, then every directive that was not matched. */
  check(): Diagnostic[] {
    for (const d of this.seen.splice(0)) {
      this.processOne(d);
      for (const n of d.notes) this.processOne(n);
    }
    const out = [...this.problems];
    for (const e of this.expected) {
      if (e.matched) continue;
      const loc = FileLineColLoc.getRange(
        this.context,
        this.filename,
        e.directiveLine,
        e.directiveColumn,
        e.directiveLine,
        e.directiveColumn + Math.max(0, e.text.length - 1),
      );
      out.push(new Diagnostic('error', loc, M.expectedDiagnosticNotProduced(e.severity, e.text)));
    }
    return out;
  }
}

/**
 * Runs `body` for the buffer with every diagnostic captured and checked against the buffer's
 * directives; returns the problems (empty when the diagnostics are exactly as expected).
 */
export function verifyDiagnostics<T>(
  context: MLIRContext,
  filename: string,
  text: string,
  body: () => T,
  lineOffset = 0,
): { result: T; problems: Diagnostic[] } {
  const verifier = new DiagnosticVerifier(context, filename, text, lineOffset);
  const result = context.diagnostics.withHandler((d) => verifier.process(d), body);
  return { result, problems: verifier.check() };
}
