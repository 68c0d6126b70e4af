import {
  MLIRContext,
  parseSourceString,
  splitInputFile,
  verifyDiagnostics,
  renderDiagnostics,
  type Diagnostic,
} from '@raptor-pim/ir-core';

/** Runs a file like `mlir-opt --split-input-file --verify-diagnostics` and returns the rendered problems. */
export function verifyFile(file: string, text: string): { problems: Diagnostic[]; rendered: string } {
  const problems: Diagnostic[] = [];
  const lines = text.split('\n');
  for (const chunk of splitInputFile(text)) {
    const ctx = new MLIRContext();
    ctx.allowUnregisteredDialects = true;
    const r = verifyDiagnostics(
      ctx,
      file,
      chunk.text,
      () => parseSourceString(ctx, chunk.text, { filename: file, lineOffset: chunk.lineOffset }),
      chunk.lineOffset,
    );
    problems.push(...r.problems);
  }
  return { problems, rendered: renderDiagnostics(problems, (_f, line) => lines[line - 1]) };
}

