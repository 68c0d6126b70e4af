import { Block, MLIRContext, Operation, UnknownLoc, parseSourceString, printOperation, printOperationPieces, parseAttribute } from '@raptor-pim/ir-core';

function parse(text: string, maxNesting?: number) {
  const ctx = new MLIRContext();
  ctx.allowUnregisteredDialects = true;
  return ctx.diagnostics.capture(() => parseSourceString(ctx, text, { filename: 's.mlir', maxNesting }));
}

function nestedRegions(n: number): string {
  return '"t.r"() ({\n'.repeat(n) + '}) : () -> ()\n'.repeat(n);
}

describe('stress', () => {
  it('prints a text far longer than one printer chunk exactly (generic, nested, with types printed through the cache)', () => {
    const n = 5000; // about 450,000 characters: several 65,536-character chunks
    const ty = '(tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>';
    const body = Array.from({ length: n }, (_, i) => `    %${i} = "t.vadd"(${i ? `%${i - 1}, %${i - 1}` : '%arg0, %arg0'}) : ${ty}\n`).join('');
    const inner = '    "t.r"() ({\n      "t.x"() : () -> ()\n    }) : () -> ()\n';
    const expected =
      '"builtin.module"() ({\n' +
      '  "func.func"() <{function_type = (tensor<1x4xf32>) -> tensor<1x4xf32>, sym_name = "chain"}> ({\n' +
      '  ^bb0(%arg0: tensor<1x4xf32>):\n' +
      body.slice(0, body.length / 2 - 10).replace(/\n[^\n]*$/, '\n') +
      inner +
      body.slice(body.slice(0, body.length / 2 - 10).replace(/\n[^\n]*$/, '\n').length) +
      `    "func.return"(%${n - 1}) : (tensor<1x4xf32>) -> ()\n` +
      '  }) : () -> ()\n' +
      '}) : () -> ()\n';
    const { result, diagnostics } = parse(expected);
    expect(diagnostics).toEqual([]);
    const text = printOperation(result!, { generic: true });
    expect(text.length).toBeGreaterThan(6 * 65536);
    expect(text).toBe(expected);
    expect(printOperation(result!, { generic: true })).toBe(expected);
    // The same text in flat pieces of at least one chunk each (the last one may be shorter).
    const pieces = printOperationPieces(result!, { generic: true });
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.join('')).toBe(expected);
    for (const piece of pieces.slice(0, -1)) expect(piece.length).toBeGreaterThanOrEqual(65536);
  });

  it('gives a short print as one piece equal to printOperation, custom form and aliases included', () => {
    const text = '#map = affine_map<(d0) -> (d0)>\nmodule {\n  "t.a"() {m = #map} : () -> ()\n}\n';
    const { result, diagnostics } = parse(text);
    expect(diagnostics).toEqual([]);
    for (const options of [{}, { generic: true }, { debugInfo: true }]) {
      const pieces = printOperationPieces(result!, options);
      expect(pieces).toEqual([printOperation(result!, options)]);
    }
    const empty = parse('').result!;
    expect(printOperationPieces(empty).join('')).toBe(printOperation(empty));
  });

  it('parses and prints 990 nested regions', () => {
    const { result, diagnostics } = parse(nestedRegions(990));
    expect(diagnostics).toEqual([]);
    const text = printOperation(result!, { generic: true, debugInfo: true });
    expect(text.split('\n').length).toBe(2 * 991 + 1 + 991);
  });

  it('prints 10,000 nested regions built in memory (iterative printer)', () => {
    const ctx = new MLIRContext();
    const loc = UnknownLoc.get(ctx);
    const root = Operation.create({ context: ctx, name: 't.r', location: loc, regions: 1 });
    let cur = root;
    for (let i = 0; i < 10000; i++) {
      const b = new Block();
      cur.regions[0].push(b);
      const inner = Operation.create({ context: ctx, name: 't.r', location: loc, regions: i + 1 < 10000 ? 1 : 0 });
      b.push(inner);
      cur = inner;
    }
    const text = printOperation(root, { generic: true });
    expect(text.length).toBeGreaterThan(10000 * 20);
  });

  it('gives a clear diagnostic, not a stack overflow, for 10,000 nested regions', () => {
    const { result, diagnostics } = parse(nestedRegions(10000));
    expect(result).toBeUndefined();
    expect(diagnostics.map((d) => d.message)).toEqual([
      'nesting is too deep: more than 1000 nested regions, attributes or types (unsupported by this parser)',
    ]);
  });

  it('survives 10,000 nested arrays and a raised limit that overflows the stack', () => {
    const ctx = new MLIRContext();
    const deep = '['.repeat(10000) + ']'.repeat(10000);
    const r = ctx.diagnostics.capture(() => parseAttribute(ctx, deep));
    expect(r.result).toBeUndefined();
    expect(r.diagnostics[0].message).toMatch(/nesting is too deep/);
    // Even with the limit disabled, the stack overflow becomes a diagnostic.
    const r2 = parse('"t.a"() {a = ' + '['.repeat(50000) + ']'.repeat(50000) + '} : () -> ()', 1e9);
    expect(r2.result).toBeUndefined();
    expect(r2.diagnostics[0].message).toMatch(/nesting is too deep/);
  });

  it('parses a 10 MB single line in linear time', () => {
    const n = 1_000_000;
    const nums = new Array<string>(n);
    for (let i = 0; i < n; i++) nums[i] = String(i % 997);
    const text = '"t.a"() {a = array<i32: ' + nums.join(', ') + '>} : () -> ()';
    expect(text.length).toBeGreaterThan(3_500_000);
    const t0 = Date.now();
    const { result, diagnostics } = parse(text);
    expect(diagnostics).toEqual([]);
    expect(result).toBeDefined();
    expect(Date.now() - t0).toBeLessThan(20000);
  });

  it('reports an error deep inside a long line with the right column', () => {
    const text = '"t.a"() {a = array<i32: ' + '1, '.repeat(100000) + 'x>} : () -> ()';
    const { diagnostics } = parse(text);
    const loc = diagnostics[0].location as unknown as { line: number; column: number };
    expect(loc.line).toBe(1);
    // As MLIR: an unexpected token after whitespace is reported at the end of the previous token.
    expect(loc.column).toBe(text.indexOf('x>'));
  });
});
