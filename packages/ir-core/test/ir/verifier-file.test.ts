import * as fs from 'node:fs';
import * as path from 'node:path';
import { BuiltinDialect, FuncDialect, MLIRContext } from '../../src';
import { describeExpectedDiagnostics } from '../../../../tools/test-support/expected-diagnostics';
import { TestDialect } from './test-dialect';

// Verifier diagnostics: each `// -----` case is parsed and verified with the builtin, func and
// test dialects registered.
const makeContext = (): MLIRContext => {
  const ctx = new MLIRContext();
  for (const d of [BuiltinDialect, FuncDialect, TestDialect]) ctx.registerDialect(d);
  return ctx;
};
const dir = path.resolve(__dirname, 'fixtures');
for (const file of fs.readdirSync(dir).filter((f) => f.startsWith('invalid-')).sort()) {
  describeExpectedDiagnostics(file, path.join(dir, file), { makeContext, allowUnregisteredDialects: true });
}
