import * as fs from 'node:fs';
import * as path from 'node:path';
import { MLIRContext, parseSourceString, renderDiagnostics, Operation, UnknownLoc, FileLineColLoc, printOperationForDiagnostic, Block } from '@raptor-pim/ir-core';

const dir = path.resolve(__dirname, '../fixtures/render');

describe('diagnostic rendering', () => {
  // Each `.expected` is what mlir-opt 22 writes to stderr for the same file.
  it.each(fs.readdirSync(dir).filter((f) => f.endsWith('.mlir')))('%s renders like mlir-opt', (file) => {
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    const lines = text.split('\n');
    const ctx = new MLIRContext();
    ctx.allowUnregisteredDialects = true;
    const { result, diagnostics } = ctx.diagnostics.capture(() => parseSourceString(ctx, text, { filename: file }));
    expect(result).toBeUndefined();
    const rendered = renderDiagnostics(diagnostics, (_f, line) => lines[line - 1]);
    expect(rendered).toBe(fs.readFileSync(path.join(dir, file.replace(/\.mlir$/, '.expected')), 'utf8'));
  });

  it('renders locations without a file as MLIR prints them', () => {
    const ctx = new MLIRContext();
    const op = Operation.create({ context: ctx, name: 't.a', location: UnknownLoc.get(ctx) });
    const d = op.emitError('bad');
    d.attachNote('here', FileLineColLoc.get(ctx, 'x.mlir', 2, 3));
    expect(renderDiagnostics([d], (_f, l) => (l === 2 ? 'abcdef' : undefined))).toBe('loc(unknown): error: bad\nx.mlir:2:3: note: here\nabcdef\n  ^\n');
  });

  it('prints ops for "see current operation" notes in generic form with local numbering', () => {
    const ctx = new MLIRContext();
    ctx.allowUnregisteredDialects = true;
    const m = parseSourceString(ctx, '"t.f"() ({\n^bb0(%a: i32):\n  %0 = "t.add"(%a, %a) : (i32, i32) -> i32\n}) : () -> ()\n')!;
    const f = m.regions[0].entryBlock!.firstOp!;
    const add = (f.regions[0].entryBlock as Block).firstOp!;
    expect(printOperationForDiagnostic(add)).toBe('%0 = "t.add"(%arg0, %arg0) : (i32, i32) -> i32');
    expect(printOperationForDiagnostic(f)).toBe('\n"t.f"() ({\n^bb0(%arg0: i32):\n  %0 = "t.add"(%arg0, %arg0) : (i32, i32) -> i32\n}) : () -> ()');
  });
});
