import fc from 'fast-check';
import { IndexType, IntegerType, RankedTensorType, FloatType, parseSourceString, printOperation, printType, verify, type Type, type MLIRContext, type Operation } from '@raptor-pim/ir-core';
import {
  compressIntegerRuns,
  expandIntegerRuns,
  expandTypeRuns,
  formatIntegerRangeList,
  groupTypeRuns,
  isRepeatKeyword,
  MAX_TYPE_REPEAT,
} from '../src';
import { makeContext } from './support/test-dialect';

function parse(ctx: MLIRContext, text: string): { module?: Operation; errors: string[] } {
  const { result, diagnostics } = ctx.diagnostics.capture(() => {
    const m = parseSourceString(ctx, text, { filename: 'test.mlir' });
    return m && verify(m) ? m : undefined;
  });
  return { module: result, errors: diagnostics.map((d) => d.message) };
}

/** Parses, prints the body of the module (custom form, without the `module {` wrapper). */
function roundTrip(text: string): string {
  const ctx = makeContext();
  const { module, errors } = parse(ctx, text);
  if (!module) throw new Error(errors.join('\n'));
  const printed = printOperation(module).replace(/\n$/, '');
  const lines = printed.split('\n');
  return lines
    .slice(1, -1)
    .map((l) => l.replace(/^ {2}/, ''))
    .join('\n');
}

function errorsOf(text: string): string[] {
  return parse(makeContext(), text).errors;
}

describe('type repetition', () => {
  it('prints the reference extract_rows/concat shapes canonically', () => {
    const text = [
      '%0 = "t.m"() : () -> tensor<2x4xf32>',
      '%1:2 = cat.types %0 : (tensor<2x4xf32>) -> tensor<1x4xf32> x2',
      '%2 = cat.types %1#0, %1#1 : (tensor<1x4xf32> x2) -> tensor<1x8xf32>',
    ].join('\n');
    expect(roundTrip(text)).toBe(
      [
        '%0 = "t.m"() : () -> tensor<2x4xf32>',
        '%1:2 = cat.types %0 : (tensor<2x4xf32>) -> tensor<1x4xf32> x2',
        '%2 = cat.types %1#0, %1#1 : (tensor<1x4xf32> x2) -> tensor<1x8xf32>',
      ].join('\n'),
    );
  });

  it('expands explicit repeats and prints the compact form', () => {
    const text = '%0 = "t.m"() : () -> i32\n%1:3 = cat.types %0, %0, %0 : (i32, i32, i32) -> (f32, f32, i32)';
    expect(roundTrip(text)).toBe('%0 = "t.m"() : () -> i32\n%1:3 = cat.types %0, %0, %0 : (i32 x3) -> (f32 x2, i32)');
  });

  it('prints empty lists and a single x1 as plain types', () => {
    expect(roundTrip('cat.types : () -> ()')).toBe('cat.types : () -> ()');
    expect(roundTrip('%0 = cat.types : () -> i32 x1')).toBe('%0 = cat.types : () -> i32');
  });

  it('a repeat suffix followed by an op without results is not mistaken for a keyword', () => {
    const text = '%0:2 = cat.types : () -> i32 x2\ncat.types %0#0 : (i32) -> ()';
    expect(roundTrip(text)).toBe(text);
  });

  it('diagnoses repeat counts above the limit and missing types', () => {
    expect(errorsOf(`%0 = cat.types : () -> i32 x${MAX_TYPE_REPEAT + 1}`).length).toBeGreaterThan(0);
    expect(errorsOf('cat.types : (x2) -> ()').length).toBeGreaterThan(0);
  });

  it('diagnoses operand/type count mismatches from expanded lists', () => {
    const errs = errorsOf('%0 = "t.m"() : () -> i32\ncat.types %0 : (i32 x2) -> ()');
    expect(errs.length).toBe(1);
  });

  it('property: random type lists print compactly and parse back to the same types', () => {
    const names = ['i32', 'f32', 'index', 'tensor<1x4xf32>'];
    const list = fc.array(fc.constantFrom(...names), { maxLength: 12 });
    fc.assert(
      fc.property(list, list, (ins, outs) => {
        const defs = ins.map((t, k) => `%a${k} = "t.v"() : () -> ${t}`);
        const lhs = outs.length === 0 ? '' : outs.length === 1 ? '%r = ' : `%r:${outs.length} = `;
        const res = outs.length === 1 ? outs[0] : `(${outs.join(', ')})`;
        const text = [...defs, `${lhs}cat.types ${ins.map((_, k) => `%a${k}`).join(', ')} : (${ins.join(', ')}) -> ${res}`].join('\n');
        const printed = roundTrip(text);
        expect(roundTrip(printed)).toBe(printed);
        const ctx = makeContext();
        const { module } = parse(ctx, printed);
        const op = module!.regions[0]!.firstBlock!.lastOp!;
        const show = (ts: readonly Type[]) => ts.map((t) => String(printType(t)));
        expect(show(op.operands.map((v) => v.type))).toEqual(ins);
        expect(show(op.resultTypes)).toEqual(outs);
        // canonical: no two adjacent groups of the same type, no `x1`
        const sig = printed.split('\n').pop()!;
        expect(sig).not.toMatch(/ x1\b/);
      }),
      { numRuns: 150 },
    );
  });

  it('recognises repeat keywords', () => {
    expect(isRepeatKeyword('x2')).toBe(true);
    expect(isRepeatKeyword(`x${MAX_TYPE_REPEAT}`)).toBe(true);
    expect(isRepeatKeyword(`x${MAX_TYPE_REPEAT + 1}`)).toBe(false);
    expect(isRepeatKeyword('x0')).toBe(false);
    expect(isRepeatKeyword('x02')).toBe(false);
    expect(isRepeatKeyword('xx')).toBe(false);
  });

  it('splits runs longer than the limit', () => {
    const ctx = makeContext();
    const i32 = IntegerType.get(ctx, 32);
    const runs = groupTypeRuns(new Array<Type>(MAX_TYPE_REPEAT + 3).fill(i32));
    expect(runs.map((r) => r.count)).toEqual([MAX_TYPE_REPEAT, 3]);
  });
});

describe('integer range lists', () => {
  it('expands the reference core list and mixed lists, printing them compactly', () => {
    expect(roundTrip('cat.cores [0 to 3]')).toBe('cat.cores [0 to 3]');
    expect(roundTrip('cat.cores [0, 1, 2, 3, 8, 10, 11]')).toBe('cat.cores [0 to 3, 8, 10, 11]');
    // a range prints only where it is shorter than the list (runs of 3+), as the reference's `coreIds [0, 1]`
    expect(roundTrip('cat.cores [0, 1]')).toBe('cat.cores [0, 1]');
    expect(roundTrip('cat.cores [4 to 6]')).toBe('cat.cores [4 to 6]');
    expect(roundTrip('cat.cores [0 to 3, 8, 10 to 11]')).toBe('cat.cores [0 to 3, 8, 10, 11]');
    expect(roundTrip('cat.cores [5 to 5, 7, 6]')).toBe('cat.cores [5, 7, 6]');
    expect(roundTrip('cat.cores []')).toBe('cat.cores []');
    expect(roundTrip('cat.cores [-2 to 1]')).toBe('cat.cores [-2 to 1]');
    expect(roundTrip('cat.cores [-2 to -1]')).toBe('cat.cores [-2, -1]');
  });

  it('stores the expanded list', () => {
    const ctx = makeContext();
    const { module } = parse(ctx, 'cat.cores [0 to 3, 8, 10 to 11]');
    const op = module!.regions[0]!.firstBlock!.firstOp!;
    const ids = op.getAttr('coreIds') as unknown as { values: readonly bigint[] };
    expect(ids.values.map(Number)).toEqual([0, 1, 2, 3, 8, 10, 11]);
  });

  it('diagnoses empty ranges and non-integers', () => {
    expect(errorsOf('cat.cores [3 to 1]')).toEqual(["integer range '3 to 1' is empty: the upper bound is inclusive and must be >= the lower bound"]);
    expect(errorsOf('cat.cores [a]')).toEqual(['expected an integer or an inclusive range `a to b` in integer list']);
    expect(errorsOf('cat.cores [1 to]').length).toBe(1);
    expect(errorsOf('cat.cores [1').length).toBe(1);
  });

  it('property: compress/expand and print/parse are inverse', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -20, max: 60 }), { maxLength: 24 }), (values) => {
        expect(expandIntegerRuns(compressIntegerRuns(values))).toEqual(values);
        const text = `cat.cores [${formatIntegerRangeList(values)}]`;
        const ctx = makeContext();
        const { module } = parse(ctx, `cat.cores [${values.join(', ')}]`);
        const op = module!.regions[0]!.firstBlock!.firstOp!;
        const ids = (op.getAttr('coreIds') as unknown as { values: readonly bigint[] }).values.map(Number);
        expect(ids).toEqual(values);
        expect(roundTrip(text)).toBe(text);
      }),
      { numRuns: 150 },
    );
  });
});

describe('lane ranges, bindings, shared_outs', () => {
  const batch = [
    '%0 = "t.w"() : () -> tensor<4x3xf32>',
    '%1 = "t.x"() : () -> tensor<2x1x4xf32>',
    '%2 = cat.batch %lane = 0 to 2 [%warg] = [%0] (%arg) = (%1) shared_outs(%out) : [tensor<4x3xf32>] (tensor<2x1x4xf32>) -> tensor<2x1x4xf32> {',
    '  "t.use"(%lane, %warg, %arg, %out) : (index, tensor<4x3xf32>, tensor<2x1x4xf32>, tensor<2x1x4xf32>) -> ()',
    '}',
  ].join('\n');

  it('round-trips a batch with every binding kind', () => {
    expect(roundTrip(batch)).toBe(batch);
  });

  it('round-trips empty bindings and repeated binding types', () => {
    const text = [
      '%0 = "t.x"() : () -> tensor<1x4xf32>',
      'cat.batch %lane = 0 to 4 [] = [] (%arg, %arg_0) = (%0, %0) : [] (tensor<1x4xf32> x2) -> () {',
      '  "t.use"(%lane, %arg, %arg_0) : (index, tensor<1x4xf32>, tensor<1x4xf32>) -> ()',
      '}',
    ].join('\n');
    expect(roundTrip(text)).toBe(text);
  });

  it('gives the lane argument type index and the bodies their bound types', () => {
    const ctx = makeContext();
    const { module } = parse(ctx, batch);
    const op = module!.regions[0]!.firstBlock!.lastOp!;
    const args = op.regions[0]!.firstBlock!.arguments;
    expect(args[0]!.type).toBe(IndexType.get(ctx));
    const f32 = FloatType.get(ctx, 'f32');
    expect(args[1]!.type).toBe(RankedTensorType.get(ctx, [4, 3], f32));
    expect(args[3]!.type).toBe(RankedTensorType.get(ctx, [2, 1, 4], f32));
  });

  it('diagnoses malformed lane ranges and bindings', () => {
    const body = ' {\n}';
    expect(errorsOf(`cat.batch %lane = 2 to 2 [] = [] () = () : [] () -> ()${body}`)).toEqual([
      "lane range '2 to 2' must have lower bound < upper bound (the upper bound is exclusive)",
    ]);
    expect(errorsOf(`cat.batch %lane = 0 2 [] = [] () = () : [] () -> ()${body}`).length).toBe(1);
    expect(errorsOf(`%0 = "t.x"() : () -> i32\ncat.batch %lane = 0 to 2 [] = [] (%a, %b) = (%0) : [] (i32) -> ()${body}`)).toEqual([
      'input binding declares 2 argument(s) but binds 1 value(s)',
    ]);
    expect(errorsOf(`%0 = "t.x"() : () -> i32\ncat.batch %lane = 0 to 2 [%w] = [] () = () : [] () -> ()${body}`)).toEqual([
      'weight binding declares 1 argument(s) but binds 0 value(s)',
    ]);
    expect(errorsOf(`%0 = "t.x"() : () -> i32\ncat.batch %lane = 0 to 2 [] = [] (%a) = (%0) : [] (i32 x2) -> ()${body}`)).toEqual([
      'input binding has 2 type(s) for 1 value(s)',
    ]);
    expect(errorsOf(`%0 = "t.x"() : () -> i32\ncat.batch %lane = 0 to 2 [%w] = [%0] () = () : [i32, i32] () -> ()${body}`)).toEqual([
      'weight binding has 2 type(s) for 1 value(s)',
    ]);
  });

  it('property: random binding signatures print -> parse -> print identically', () => {
    const typeNames = ['i32', 'f32', 'tensor<1x4xf32>', 'index'];
    const arbList = fc.array(fc.constantFrom(...typeNames), { maxLength: 6 });
    fc.assert(
      fc.property(arbList, arbList, arbList, fc.integer({ min: 1, max: 9 }), (ws, ins, outs, lanes) => {
        const defs: string[] = [];
        const val = (t: string, k: number, p: string): string => {
          defs.push(`%${p}${k} = "t.v"() : () -> ${t}`);
          return `%${p}${k}`;
        };
        const wv = ws.map((t, k) => val(t, k, 'w'));
        const iv = ins.map((t, k) => val(t, k, 'i'));
        const waNames = ws.map((_, k) => `%wa${k}`);
        const iaNames = ins.map((_, k) => `%ia${k}`);
        const oaNames = outs.map((_, k) => `%oa${k}`);
        const shared = outs.length ? ` shared_outs(${oaNames.join(', ')})` : '';
        const res = outs.length === 0 ? '()' : outs.length === 1 ? outs[0] : `(${outs.join(', ')})`;
        const lhs = outs.length === 0 ? '' : outs.length === 1 ? '%r = ' : `%r:${outs.length} = `;
        const text =
          defs.join('\n') +
          `\n${lhs}cat.batch %l = 0 to ${lanes} [${waNames.join(', ')}] = [${wv.join(', ')}] (${iaNames.join(', ')}) = (${iv.join(', ')})${shared} : [${ws.join(', ')}] (${ins.join(', ')}) -> ${res} {\n  "t.use"(%l) : (index) -> ()\n}`;
        const once = roundTrip(text);
        expect(roundTrip(once)).toBe(once);
        // The printed signature expands back to the same types.
        const ctx = makeContext();
        const { module } = parse(ctx, once);
        const op = module!.regions[0]!.firstBlock!.lastOp!;
        expect(op.operands.length).toBe(ws.length + ins.length);
        expect(op.resultTypes.length).toBe(outs.length);
        expect(op.regions[0]!.firstBlock!.arguments.length).toBe(1 + ws.length + ins.length + outs.length);
      }),
      { numRuns: 120 },
    );
  });

  it('property: groupTypeRuns/expandTypeRuns are inverse and maximal', () => {
    const ctx = makeContext();
    const pool = [IntegerType.get(ctx, 32), IntegerType.get(ctx, 8), IndexType.get(ctx)];
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2 }), { maxLength: 30 }), (idx) => {
        const types = idx.map((i) => pool[i]!);
        const runs = groupTypeRuns(types);
        expect(expandTypeRuns(runs)).toEqual(types);
        for (let k = 1; k < runs.length; k++) expect(runs[k]!.type).not.toBe(runs[k - 1]!.type);
      }),
    );
  });
});
