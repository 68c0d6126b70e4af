import * as fs from 'node:fs';
import * as path from 'node:path';
import { MLIRContext, parseSourceString, printOperation, registerBuiltinDialects } from '@raptor-pim/ir-core';

const dir = path.resolve(__dirname, '../fixtures/roundtrip');
const inputs = fs.readdirSync(dir).filter((f) => f.endsWith('.mlir'));

const modes = {
  generic: { generic: true },
  debug: { generic: true, debugInfo: true },
  local: { generic: true, debugInfo: true, localScope: true },
  custom: {},
} as const;

function parse(file: string, text: string, registered = true) {
  const ctx = new MLIRContext();
  ctx.allowUnregisteredDialects = true;
  if (registered) registerBuiltinDialects(ctx);
  const { result, diagnostics } = ctx.diagnostics.capture(() => parseSourceString(ctx, text, { filename: file }));
  expect(diagnostics.map((d) => d.message)).toEqual([]);
  expect(result).toBeDefined();
  return { ctx, module: result! };
}

describe.each(inputs)('%s', (file) => {
  const text = fs.readFileSync(path.join(dir, file), 'utf8');
  for (const [mode, options] of Object.entries(modes)) {
    it(`prints like mlir-opt (${mode})`, () => {
      const golden = fs.readFileSync(path.join(dir, file.replace(/\.mlir$/, `.${mode}.out`)), 'utf8');
      const { module } = parse(file, text);
      expect(printOperation(module, options) + '\n').toBe(golden);
    });
  }
  if (!file.startsWith('func-'))
    it('prints the same with builtin unregistered (module custom form built in)', () => {
      const { module } = parse(file, text, false);
      expect(printOperation(module) + '\n').toBe(fs.readFileSync(path.join(dir, file.replace(/\.mlir$/, '.custom.out')), 'utf8'));
    });
  it('re-parses its generic output to the same text (fixed point)', () => {
    const { module } = parse(file, text);
    const once = printOperation(module, { generic: true, debugInfo: true });
    const again = parse(file, once);
    expect(printOperation(again.module, { generic: true, debugInfo: true })).toBe(once);
  });
});
