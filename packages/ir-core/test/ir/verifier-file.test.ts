import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  BuiltinDialect,
  FuncDialect,
  MLIRContext,
  parseSourceString,
  renderDiagnostics,
  splitInputFile,
  verify,
  verifyDiagnostics,
  type Diagnostic,
} from '../../src';
import { TestDialect } from './test-dialect';

/** Parses and verifies each `// -----` chunk with expected-diagnostic checking. */
function verifyFile(file: string, text: string): string {
  const problems: Diagnostic[] = [];
  const lines = text.split('\n');
  for (const chunk of splitInputFile(text)) {
    const ctx = new MLIRContext();
    for (const d of [BuiltinDialect, FuncDialect, TestDialect]) ctx.registerDialect(d);
    ctx.allowUnregisteredDialects = true;
    const r = verifyDiagnostics(
      ctx,
      file,
      chunk.text,
      () => {
        const m = parseSourceString(ctx, chunk.text, { filename: file, lineOffset: chunk.lineOffset });
        return m ? verify(m) : false;
      },
      chunk.lineOffset,
    );
    problems.push(...r.problems);
  }
  return renderDiagnostics(problems, (_f, line) => lines[line - 1]);
}

const dir = path.resolve(__dirname, 'fixtures');
describe.each(fs.readdirSync(dir).filter((f) => f.startsWith('invalid-')))('%s', (file) => {
  test('produces exactly the expected diagnostics', () => {
    expect(verifyFile(file, fs.readFileSync(path.join(dir, file), 'utf8'))).toBe('');
  });
});
