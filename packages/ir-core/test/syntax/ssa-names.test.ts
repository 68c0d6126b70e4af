/**
 * SSA names chosen by the printer beyond numbering:
 * - `ParseOptions.retainIdentifierNames` + `PrintOptions.useRetainedNames`: source names come
 *   back (test/fixtures/names/retained.mlir prints back byte-identically), clashes are uniqued as
 *   MLIR's SSANameState uniques suggested names, and the output always re-parses (fast-check).
 * - `PrintOptions.useNameLocAsPrefix`: the same output as `mlir-opt --mlir-use-nameloc-as-prefix`
 *   (test/fixtures/names/nameloc.expected, produced by mlir-opt 22; compared live when it is
 *   installed).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import {
  MLIRContext,
  IntegerType,
  OpBuilder,
  Operation,
  UnknownLoc,
  getRetainedName,
  parseSourceString,
  printOperation,
  registerBuiltinDialects,
  setRetainedName,
  splitInputFile,
  verify,
  type ParseOptions,
  type PrintOptions,
  type Value,
} from '../../src';
import { findMlirOpt, runMlirOpt } from '../interop/mlir-opt';

const FIXTURES = path.resolve(__dirname, '../fixtures/names');
const update = process.env.UPDATE_GOLDEN === '1';

function newContext(): MLIRContext {
  const ctx = new MLIRContext();
  registerBuiltinDialects(ctx);
  ctx.allowUnregisteredDialects = true;
  return ctx;
}

function parse(text: string, options: ParseOptions = {}, ctx = newContext()): Operation {
  const { result, diagnostics } = ctx.diagnostics.capture(() => {
    const m = parseSourceString(ctx, text, options);
    return m && verify(m) ? m : undefined;
  });
  expect(diagnostics.map((d) => d.message)).toEqual([]);
  return result!;
}

const retain: ParseOptions = { retainIdentifierNames: true };
const named: PrintOptions = { useRetainedNames: true };

function golden(name: string, actual: string): void {
  const file = path.join(FIXTURES, name);
  if (update || !fs.existsSync(file)) fs.writeFileSync(file, actual);
  expect(actual).toBe(fs.readFileSync(file, 'utf8'));
}

describe('retained identifier names', () => {
  const text = fs.readFileSync(path.join(FIXTURES, 'retained.mlir'), 'utf8');

  it('prints the source back byte-identically in custom form', () => {
    expect(printOperation(parse(text, retain), named)).toBe(text);
  });

  it('keeps the names through custom -> generic -> custom', () => {
    const generic = printOperation(parse(text, retain), { ...named, generic: true });
    golden('retained.generic.out', generic);
    expect(generic).toContain('^bb0(%x: i32, %y: i32, %arg9: index):');
    expect(printOperation(parse(generic, retain), named)).toBe(text);
  });

  it('records nothing without the parse option, and the printer numbers as before', () => {
    const plain = parse(text);
    let recorded = 0;
    plain.walk((op) => {
      for (const r of op.results) if (getRetainedName(r) !== undefined) recorded++;
    });
    expect(recorded).toBe(0);
    const numbered = printOperation(plain);
    expect(numbered).toBe(printOperation(parse(text, retain)));
    expect(numbered).toBe(printOperation(plain, named));
    expect(numbered).toContain('func.func @names(%arg0: i32, %arg1: i32, %arg2: index) -> i32 {');
  });

  it('records result groups, block and region arguments; numeric names stay unrecorded', () => {
    const m = parse(text, retain);
    const names: string[] = [];
    m.walk((op) => {
      for (const r of op.regions)
        for (let b = r.firstBlock; b; b = b.next) for (const a of b.arguments) names.push(`arg:${getRetainedName(a) ?? '-'}`);
      if (op.name.startsWith('t.f') || op.name === 't.two' || op.name === 't.three')
        names.push(`${op.name}:${op.results.map((r) => getRetainedName(r) ?? '-').join(',')}`);
    });
    expect(names).toEqual(expect.arrayContaining(['arg:x', 'arg:y', 'arg:arg9', 'arg:loop', 'arg:lane', 'arg:arg0']));
    expect(names).toEqual(expect.arrayContaining(['t.two:pair,-', 't.four:a,b,-,c_1', 't.three:-,-,-']));
  });

  const found = findMlirOpt();
  ('path' in found ? it : it.skip)('the named output is valid MLIR: mlir-opt 22 reads it and numbers it as we do without names', () => {
    const tool = (found as { path: string }).path;
    const out = printOperation(parse(text, retain), named);
    expect(runMlirOpt(tool, ['--allow-unregistered-dialect'], out)).toBe(printOperation(parse(text)) + '\n');
  });

  it('a retained name wins over the op suggestion (arith.constant would print %c3_i32)', () => {
    const out = printOperation(parse('func.func @f() -> i32 {\n  %three = arith.constant 3 : i32\n  return %three : i32\n}', retain), named);
    expect(out).toContain('%three = arith.constant 3 : i32');
  });

  it('uniques clashing names as MLIR does (name_N with one counter) and numbers unnamed values', () => {
    const ctx = newContext();
    const m = parse('func.func @f(%a: i32) -> i32 {\n  %b = arith.addi %a, %a : i32\n  return %b : i32\n}', retain, ctx);
    const fn = m.regions[0]!.firstBlock!.firstOp!;
    const add = fn.regions[0]!.firstBlock!.firstOp!;
    const b = new OpBuilder(ctx);
    b.setInsertionPointAfter(add);
    const i32 = IntegerType.get(ctx, 32);
    const loc = UnknownLoc.get(ctx);
    const mk = (): Operation => b.insert(Operation.create({ context: ctx, name: 't.new', resultTypes: [i32], location: loc }));
    const first = mk();
    const second = mk();
    const third = mk();
    setRetainedName(first.results[0]!, 'b');
    setRetainedName(second.results[0]!, 'b');
    void third;
    const out = printOperation(m, named);
    expect(out).toContain('%b = arith.addi %a, %a : i32\n    %b_0 = "t.new"() : () -> i32\n    %b_1 = "t.new"() : () -> i32\n    %0 = "t.new"() : () -> i32');
    // Invalid characters are sanitized as MLIR sanitizes suggested names.
    setRetainedName(second.results[0]!, '9 lives!');
    expect(printOperation(m, named)).toContain('%_9_lives21 = "t.new"()');
    // An empty name removes the entry.
    setRetainedName(second.results[0]!, '');
    expect(getRetainedName(second.results[0]!)).toBeUndefined();
  });

  it('a name used in an enclosing region is uniqued in a nested one; siblings may share it', () => {
    const m = parse(text, retain);
    const inner = m.regions[0]!.firstBlock!.firstOp!.regions[0]!.firstBlock!.next!.firstOp!;
    expect(inner.name).toBe('t.region');
    setRetainedName(inner.regions[0]!.firstBlock!.arguments[1]!, 'sum');
    const out = printOperation(m, named);
    expect(out).toContain('^bb0(%lane: i32, %sum_0: i32):');
    expect(printOperation(parse(out, retain), named)).toBe(out);
  });

  it('any retained names print as a form that re-parses to the same IR (property)', () => {
    const nameArb = fc.oneof(
      fc.constantFrom('x', 'arg0', 'arg1', 'a', 'a_0', '0', 'c3_i32', 'lane', 'x.y', 'v$1', 'a-b'),
      fc.string({ minLength: 1, maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.array(fc.option(nameArb, { nil: undefined }), { minLength: 12, maxLength: 12 }), (names) => {
        const m = parse(text, retain);
        const values: Value[] = [];
        m.walk((op) => {
          for (const r of op.regions) for (let b = r.firstBlock; b; b = b.next) values.push(...b.arguments);
          values.push(...op.results);
        });
        values.forEach((v, i) => setRetainedName(v, names[i % names.length] ?? ''));
        const out = printOperation(m, named);
        const again = parse(out, retain);
        // Same IR: identical numbered printing, and a fixed point with retained names.
        expect(printOperation(again)).toBe(printOperation(m));
        expect(printOperation(again, named)).toBe(out);
      }),
      { numRuns: 60 },
    );
  });
});

describe('NameLoc as prefix (mlir-opt --mlir-use-nameloc-as-prefix)', () => {
  const input = fs.readFileSync(path.join(FIXTURES, 'nameloc.mlir'), 'utf8');
  const ours = splitInputFile(input)
    .map((c) => printOperation(parse(c.text), { useNameLocAsPrefix: true }) + '\n')
    .join('// -----\n');

  it('matches the golden output of mlir-opt 22', () => {
    golden('nameloc.expected', ours);
    expect(ours).toContain('func.func @f(%alpha: i32, %arg1: i32, %alpha_0: i32) -> i32 {');
    expect(ours).toContain('^bb0(%alpha_2: i32):');
  });

  it('changes nothing without the option', () => {
    expect(printOperation(parse(splitInputFile(input)[0]!.text))).toContain('func.func @f(%arg0: i32, %arg1: i32, %arg2: i32) -> i32 {');
  });

  const found = findMlirOpt();
  ('path' in found ? it : it.skip)('is what mlir-opt 22 prints', () => {
    const tool = (found as { path: string }).path;
    const theirs = runMlirOpt(tool, ['--allow-unregistered-dialect', '--split-input-file', '--mlir-use-nameloc-as-prefix'], input);
    expect(ours).toBe(theirs);
  });
});
