import * as fs from 'node:fs';
import * as path from 'node:path';
import { verifyFile } from '../syntax/verify-file';

const dir = path.resolve(__dirname, '../fixtures');

describe('verify-diagnostics checker', () => {
  it('reports missing diagnostics exactly as mlir-opt -verify-diagnostics does', () => {
    const file = 'verify-checker.mlir';
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    const expected = fs.readFileSync(path.join(dir, 'verify-checker.expected'), 'utf8');
    expect(verifyFile(file, text).rendered).toBe(expected);
  });

  it('reports unexpected diagnostics at their location', () => {
    const text = '"t.a"(%x) : (i32) -> ()\n';
    const { rendered } = verifyFile('u.mlir', text);
    expect(rendered).toBe('u.mlir:1:7: error: unexpected error: use of undeclared SSA value name\n"t.a"(%x) : (i32) -> ()\n      ^\n');
  });

  it('supports @above, @below and {{re:...}}', () => {
    const text = [
      '"t.a"(%x) : (i32) -> ()',
      '// expected-error@above {{re:undeclared SSA .* name}}',
      '// -----',
      '// expected-error@below {{undeclared}}',
      '"t.b"(%y) : (i32) -> ()',
      '',
    ].join('\n');
    expect(verifyFile('r.mlir', text).rendered).toBe('');
  });
});
