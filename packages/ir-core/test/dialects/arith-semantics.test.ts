/**
 * The arith interpreter rules and folders against independent references: JS int32 arithmetic
 * (Math.imul, |0, >>>), BigInt.asIntN for i64, Math.fround for f32, Math.floor/ceil for the
 * rounding divisions; folding through the greedy driver gives the interpreter's values.
 */
import fc from 'fast-check';
import {
  Interpreter,
  InterpreterRegistry,
  MLIRContext,
  applyPatternsGreedily,
  parseSourceString,
  printOperation,
  registerBuiltinDialects,
  registerBuiltinInterpreterRules,
  verify,
  type Operation,
  type RuntimeValue,
} from '@raptor-pim/ir-core';

function parse(text: string): Operation {
  const ctx = new MLIRContext();
  registerBuiltinDialects(ctx);
  const { result, diagnostics } = ctx.diagnostics.capture(() => {
    const m = parseSourceString(ctx, text, { filename: 't.mlir' });
    return m && verify(m) ? m : undefined;
  });
  if (!result) throw new Error(diagnostics.map((d) => d.message).join('\n'));
  return result;
}

const registry = new InterpreterRegistry();
registerBuiltinInterpreterRules(registry);

/** Runs `@f` of a one-op function `%r = <op> %a, %b : T` (or a custom body). */
function binary(op: string, type: string): (a: RuntimeValue, b: RuntimeValue) => { ok: boolean; value?: RuntimeValue; error?: string } {
  const m = parse(`func.func @f(%a: ${type}, %b: ${type}) -> ${type} {\n  %r = arith.${op} %a, %b : ${type}\n  return %r : ${type}\n}\n`);
  return (a, b) => {
    const r = new Interpreter(registry).runFunction(m, 'f', [a, b]);
    return r.ok ? { ok: true, value: r.values[0] } : { ok: false, error: r.diagnostic.message };
  };
}

const i32 = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
const i64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
const f32 = fc.float({ noNaN: false }).map((x) => Math.fround(x));

describe('i32 arithmetic matches JS int32 arithmetic', () => {
  const cases: [string, (a: number, b: number) => number | undefined][] = [
    ['addi', (a, b) => (a + b) | 0],
    ['subi', (a, b) => (a - b) | 0],
    ['muli', (a, b) => Math.imul(a, b)],
    ['divsi', (a, b) => (b === 0 || (a === -(2 ** 31) && b === -1) ? undefined : (a / b) | 0)],
    ['divui', (a, b) => (b === 0 ? undefined : ((a >>> 0) / (b >>> 0)) | 0)],
    ['remsi', (a, b) => (b === 0 ? undefined : a === -(2 ** 31) && b === -1 ? 0 : a % b | 0)],
    ['remui', (a, b) => (b === 0 ? undefined : (a >>> 0) % (b >>> 0) | 0)],
    ['floordivsi', (a, b) => (b === 0 || (a === -(2 ** 31) && b === -1) ? undefined : Math.floor(a / b) | 0)],
    ['ceildivsi', (a, b) => (b === 0 || (a === -(2 ** 31) && b === -1) ? undefined : Math.ceil(a / b) | 0)],
    ['andi', (a, b) => a & b],
    ['ori', (a, b) => a | b],
    ['xori', (a, b) => a ^ b],
    ['shli', (a, b) => ((b >>> 0) >= 32 ? undefined : a << b)],
    ['shrsi', (a, b) => ((b >>> 0) >= 32 ? undefined : a >> b)],
    ['shrui', (a, b) => ((b >>> 0) >= 32 ? undefined : (a >>> b) | 0)],
    ['maxsi', (a, b) => Math.max(a, b)],
    ['minsi', (a, b) => Math.min(a, b)],
    ['maxui', (a, b) => ((a >>> 0) >= (b >>> 0) ? a : b)],
    ['minui', (a, b) => ((a >>> 0) <= (b >>> 0) ? a : b)],
  ];
  it.each(cases)('arith.%s', (op, ref) => {
    const run = binary(op, 'i32');
    const small = fc.integer({ min: -40, max: 40 });
    fc.assert(
      fc.property(fc.oneof(i32, small), fc.oneof(i32, small), (a, b) => {
        const want = ref(a, b);
        const got = run(a, b);
        if (want === undefined) expect(got.error).toMatch(/undefined behavior/);
        else expect(got.value).toBe(want);
      }),
      { numRuns: 300 },
    );
  });
});

describe('i64 arithmetic is exact (bigint) with wrap-around', () => {
  it.each([
    ['addi', (a: bigint, b: bigint) => BigInt.asIntN(64, a + b)],
    ['muli', (a: bigint, b: bigint) => BigInt.asIntN(64, a * b)],
    ['subi', (a: bigint, b: bigint) => BigInt.asIntN(64, a - b)],
    ['xori', (a: bigint, b: bigint) => BigInt.asIntN(64, a ^ b)],
  ] as const)('arith.%s', (op, ref) => {
    const run = binary(op, 'i64');
    fc.assert(
      fc.property(i64, i64, (a, b) => {
        expect(run(a, b).value).toBe(ref(a, b));
      }),
      { numRuns: 300 },
    );
  });
});

describe('f32 arithmetic rounds every result with Math.fround', () => {
  it.each([
    ['addf', (a: number, b: number) => Math.fround(a + b)],
    ['subf', (a: number, b: number) => Math.fround(a - b)],
    ['mulf', (a: number, b: number) => Math.fround(a * b)],
    ['divf', (a: number, b: number) => Math.fround(a / b)],
    ['remf', (a: number, b: number) => Math.fround(a % b)],
    ['maximumf', (a: number, b: number) => Math.max(a, b)],
    ['minnumf', (a: number, b: number) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.min(a, b))],
  ] as const)('arith.%s', (op, ref) => {
    const run = binary(op, 'f32');
    fc.assert(
      fc.property(f32, f32, (a, b) => {
        expect(Object.is(run(a, b).value, ref(a, b))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

test('comparisons, select and casts', () => {
  const m = parse(`func.func @f(%a: i32, %b: i32, %x: f32) -> (i1, i1, i32, i64, i8, f32, i32, i64, index) {
  %0 = arith.cmpi ult, %a, %b : i32
  %1 = arith.cmpf uno, %x, %x : f32
  %2 = arith.select %0, %a, %b : i32
  %3 = arith.extui %a : i32 to i64
  %4 = arith.trunci %a : i32 to i8
  %5 = arith.uitofp %a : i32 to f32
  %6 = arith.bitcast %x : f32 to i32
  %7 = arith.extsi %a : i32 to i64
  %8 = arith.index_cast %a : i32 to index
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : i1, i1, i32, i64, i8, f32, i32, i64, index
}
`);
  const r = new Interpreter(registry).runFunction(m, 'f', [-1, 1, NaN]);
  expect(r.ok).toBe(true);
  expect(r.ok && r.values).toEqual([0, 1, 1, 4294967295n, -1, 4294967296, 0x7fc00000, -1n, -1]);
  const bad = parse(`func.func @g(%x: f32) -> i8 {\n  %0 = arith.fptosi %x : f32 to i8\n  return %0 : i8\n}\n`);
  const b = new Interpreter(registry).runFunction(bad, 'g', [300]);
  expect(b.ok).toBe(false);
  expect(!b.ok && b.diagnostic.message).toMatch(/'arith.fptosi' op has undefined behavior/);
});

test('tensors run elementwise, constants included', () => {
  const m = parse(`func.func @relu(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %zero = arith.constant dense<0.0> : tensor<1x4xf32>
  %r = arith.maximumf %x, %zero : tensor<1x4xf32>
  return %r : tensor<1x4xf32>
}
`);
  const { ShapedValue, FloatType, MLIRContext: Ctx } = jest.requireActual('@raptor-pim/ir-core') as typeof import('@raptor-pim/ir-core');
  const x = new ShapedValue('tensor', FloatType.f32(new Ctx()), [1, 4], Float32Array.from([-1, 2, -3, 4]));
  const r = new Interpreter(registry).runFunction(m, 'relu', [x]);
  expect(r.ok).toBe(true);
  const out = r.ok ? (r.values[0] as InstanceType<typeof ShapedValue>) : undefined;
  expect(Array.from(out!.data as Float32Array)).toEqual([0, 2, 0, 4]);
});

test('calls run through func.call', () => {
  const m = parse(`func.func @sq(%a: i32) -> i32 {
  %0 = arith.muli %a, %a : i32
  return %0 : i32
}
func.func @f(%a: i32) -> i32 {
  %0 = call @sq(%a) : (i32) -> i32
  %1 = call @sq(%0) : (i32) -> i32
  return %1 : i32
}
`);
  const r = new Interpreter(registry).runFunction(m, 'f', [3]);
  expect(r.ok && r.values).toEqual([81]);
});

test('folding through the greedy driver computes what the interpreter computes', () => {
  const text = `func.func @f() -> (i32, i32, f32, i1, i8, tensor<2xi32>) {
  %c7 = arith.constant 7 : i32
  %c-3 = arith.constant -3 : i32
  %c0 = arith.constant 0 : i32
  %0 = arith.floordivsi %c7, %c-3 : i32
  %1 = arith.divsi %c7, %c0 : i32
  %f = arith.constant 1.0e8 : f32
  %g = arith.constant 1.0 : f32
  %2 = arith.addf %f, %g : f32
  %3 = arith.cmpi slt, %c-3, %c0 : i32
  %4 = arith.trunci %0 : i32 to i8
  %t = arith.constant dense<[1, 2]> : tensor<2xi32>
  %5 = arith.muli %t, %t : tensor<2xi32>
  return %0, %1, %2, %3, %4, %5 : i32, i32, f32, i1, i8, tensor<2xi32>
}
`;
  const m = parse(text);
  const before = new Interpreter(registry).runFunction(parse(text.replace('arith.divsi %c7, %c0', 'arith.divsi %c7, %c-3')), 'f', []);
  const result = applyPatternsGreedily(m, []);
  expect(result.converged).toBe(true);
  expect(verify(m)).toBe(true);
  const printed = printOperation(m);
  // Division by zero is undefined behavior: not folded.
  expect(printed).toContain('arith.divsi');
  expect(printed).not.toContain('arith.floordivsi');
  expect(printed).not.toContain('arith.addf');
  expect(printed).toContain('arith.constant -3 : i32');
  expect(printed).toContain('arith.constant 1.000000e+08 : f32');
  expect(printed).toContain('arith.constant dense<[1, 4]> : tensor<2xi32>');
  expect(printed).toContain('arith.constant -3 : i8');
  expect(before.ok && before.values.slice(0, 5)).toEqual([-3, -2, 100000000, 1, -3]);
});

test('operand-identity folds match mlir-opt --canonicalize', () => {
  const m = parse(`func.func @f(%a: i32, %v: vector<4xi32>) -> (i32, i32, i32, i32, i32, i1, i1, vector<4xi32>, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %m1 = arith.constant -1 : i32
  %0 = arith.subi %a, %a : i32
  %1 = arith.muli %a, %c0 : i32
  %2 = arith.andi %a, %m1 : i32
  %3 = arith.ori %a, %m1 : i32
  %4 = arith.remui %a, %c1 : i32
  %5 = arith.cmpi sle, %a, %a : i32
  %6 = arith.cmpi ugt, %a, %a : i32
  %7 = arith.xori %v, %v : vector<4xi32>
  %8 = arith.maxsi %a, %a : i32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : i32, i32, i32, i32, i32, i1, i1, vector<4xi32>, i32
}
`);
  expect(applyPatternsGreedily(m, []).converged).toBe(true);
  const printed = printOperation(m);
  const body = printed.split('\n').filter((l) => l.includes(' = arith.'));
  // Only constants remain: every op folded to a constant or to %arg0.
  expect(body.every((l) => l.includes('arith.constant'))).toBe(true);
  expect(printed).toContain('return %c0_i32, %c0_i32, %arg0, %c-1_i32, %c0_i32, %true, %false, %cst, %arg0 :');
});
