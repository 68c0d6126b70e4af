/**
 * The element-wise, activation, softmax and standalone BatchNormalization lowerings against
 * onnxruntime-node: small hand-built models (fixed forms and fast-check random shapes and
 * attributes) are imported, interpreted and compared with onnxruntime on the same inputs
 * (rtol 1e-3, atol 1e-5 * max|ref|); the generated IR is checked for the plan or decomposition
 * each form should use; each refusal has its diagnostic.
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import fc from 'fast-check';
import { formatDiagnostic, importOnnxModel, readOnnxModel, runImportedModule, type ImportedModule } from '@raptor-pim/onnx-frontend';
import { type ModelSpec, encodeModel, floatTensor, node, valueInfo } from './build-model';
import { count, randomValues } from './helpers';

jest.setTimeout(60_000);

/** Deterministic pseudo-random values in [-scale, scale). */
const random = (n: number, seed: number, scale = 2): Float32Array => Float32Array.from(randomValues(n, seed, scale));


/** One differential case: the model, its runtime inputs (name -> shape), and optionally the model onnxruntime runs instead (same inputs). */
interface Case {
  readonly spec: ModelSpec;
  readonly inputs: Readonly<Record<string, number[]>>;
  readonly reference?: { readonly spec: ModelSpec; readonly dims: Readonly<Record<string, number[]>> };
  readonly scale?: number;
  readonly data?: Readonly<Record<string, Float32Array>>;
}

function importSpec(spec: ModelSpec): ImportedModule {
  const { model, diagnostics } = readOnnxModel(encodeModel(spec), { file: 'case.onnx' });
  expect(diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic)).toEqual([]);
  return importOnnxModel(model!);
}

type OrtReply = { outputs?: Record<string, { dims: number[]; data: number[] }>; error?: string };

/** Runs the models in one onnxruntime-node child process. */
function runOrt(requests: { model: Uint8Array; feeds: Record<string, { dims: number[]; data: Float32Array }> }[]): OrtReply[] {
  const input = JSON.stringify(requests.map((r) => ({ model: Buffer.from(r.model).toString('base64'), feeds: Object.fromEntries(Object.entries(r.feeds).map(([k, v]) => [k, { dims: v.dims, data: Array.from(v.data) }])) })));
  return JSON.parse(execFileSync(process.execPath, [path.join(__dirname, 'support/ort-run-batch.cjs')], { input, maxBuffer: 1 << 28 }).toString()) as OrtReply[];
}

/**
 * Imports and interprets every case, runs them all in onnxruntime, and checks output `y` of
 * each; returns the generated MLIR texts (same order).
 */
function differential(cases: readonly Case[]): string[] {
  const texts: string[] = [];
  const ours: Float32Array[] = [];
  const requests = cases.map((c, k) => {
    const imported = importSpec(c.spec);
    expect(imported.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic)).toEqual([]);
    const names = Object.keys(c.inputs);
    const data = names.map((name, i) => c.data?.[name] ?? random(count(c.inputs[name]!), 11 + 7 * i + 131 * k, c.scale));
    const byName = new Map(names.map((name, i) => [name, data[i]!]));
    const r = runImportedModule(imported, imported.inputs.map((inp) => ({ shape: inp.shape, data: byName.get(inp.name)! })));
    if (!r.ok) throw new Error(r.diagnostics.map(formatDiagnostic).join('\n'));
    texts.push(imported.text);
    ours.push(r.outputs[0]!.data);
    const dims = c.reference?.dims ?? c.inputs;
    return { model: encodeModel(c.reference?.spec ?? c.spec), feeds: Object.fromEntries(names.map((name, i) => [name, { dims: dims[name]!, data: data[i]! }])) };
  });
  const replies = runOrt(requests);
  replies.forEach((reply, k) => {
    const y = reply.outputs?.['y'];
    if (!y) throw new Error(`onnxruntime (case ${k}): ${reply.error}`);
    const got = ours[k]!;
    expect(got.length).toBe(y.data.length);
    const maxRef = y.data.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    for (let i = 0; i < y.data.length; i++) {
      const d = Math.abs(got[i]! - y.data[i]!);
      if (!(d <= 1e-5 * maxRef + 1e-3 * Math.abs(y.data[i]!) + 1e-7)) throw new Error(`case ${k} (${JSON.stringify(cases[k]!.inputs)}): y[${i}] = ${got[i]}, onnxruntime ${y.data[i]}`);
    }
  });
  return texts;
}

const model = (nodes: ModelSpec['nodes'], inputs: Record<string, number[]>, initializers: ModelSpec['initializers'] = [], opset = 13): ModelSpec => ({
  nodes,
  inputs: Object.entries(inputs).map(([name, dims]) => valueInfo(name, dims)),
  outputs: [valueInfo('y', undefined)],
  initializers,
  opset,
});

const occurrences = (text: string, what: string) => text.split(what).length - 1;

/** The numpy broadcast of two shapes (assumed compatible). */
function broadcastShape(a: readonly number[], b: readonly number[]): number[] {
  const rank = Math.max(a.length, b.length);
  const pa = [...new Array<number>(rank - a.length).fill(1), ...a];
  const pb = [...new Array<number>(rank - b.length).fill(1), ...b];
  return pa.map((d, i) => Math.max(d, pb[i]!));
}

describe('Add, Sub, Mul with broadcasting', () => {
  it('rank-4 plans: add_plan (runtime + runtime), bias_add_plan (x + c, x - c per channel), depthwise conv2d_plan (x * c per channel)', () => {
    const x = [1, 3, 2, 4];
    const c = floatTensor('c', [3, 1, 1], Array.from(random(3, 5)));
    const texts = differential([
      { spec: model([node('Relu', ['x'], ['r']), node('Add', ['r', 'x'], ['y'], {}, 'add')], { x }), inputs: { x } },
      { spec: model([node('Add', ['c', 'x'], ['y'], {}, 'add')], { x }, [c]), inputs: { x } },
      { spec: model([node('Sub', ['x', 'c'], ['y'], {}, 'sub')], { x }, [c]), inputs: { x } },
      { spec: model([node('Mul', ['c', 'x'], ['y'], {}, 'mul')], { x }, [c]), inputs: { x } },
      { spec: model([node('Sub', ['c', 'x'], ['y'], {}, 'rsub')], { x }, [c]), inputs: { x } },
    ]);
    expect(texts[0]).toContain('"spat.add_plan"');
    expect(texts[1]).toContain('"spat.bias_add_plan"');
    expect(texts[2]).toContain('"spat.bias_add_plan"');
    expect(texts[2]).toContain('loc("sub")');
    expect(texts[3]).toMatch(/"spat.conv2d_plan".*group = 3/);
    expect(texts[4]).toContain('spat.vsub');
    expect(texts[4]).not.toContain('_plan');
  });

  it('runtime operands of lower rank on either side (the test_*_bcast form [3,4,5] op [5]) and both sides broadcasting', () => {
    const texts = differential([
      { spec: model([node('Add', ['a', 'b'], ['y'])], { a: [3, 4, 5], b: [5] }), inputs: { a: [3, 4, 5], b: [5] } },
      { spec: model([node('Sub', ['b', 'a'], ['y'])], { a: [3, 4, 5], b: [5] }), inputs: { a: [3, 4, 5], b: [5] } },
      { spec: model([node('Mul', ['a', 'b'], ['y'])], { a: [2, 1, 4], b: [3, 1] }), inputs: { a: [2, 1, 4], b: [3, 1] } },
      { spec: model([node('Sub', ['a', 'b'], ['y'])], { a: [], b: [2, 3] }), inputs: { a: [], b: [2, 3] } },
    ]);
    expect(texts[0]).toContain('spat.concat axis 0');
    expect(texts[0]).toContain('spat.vadd');
    expect(texts[1]).toContain('spat.vsub');
    expect(texts[2]).toContain('spat.vmul');
  });

  it('constants on either side: a splat constant stays a splat of the output shape, others are broadcast in the region', () => {
    const texts = differential([
      { spec: model([node('Sub', ['x', 'k'], ['y'])], { x: [2, 3, 4] }, [floatTensor('k', [], [0.75])]), inputs: { x: [2, 3, 4] } },
      { spec: model([node('Sub', ['k', 'x'], ['y'])], { x: [2, 3, 4] }, [floatTensor('k', [3, 1], [1, -2, 3])]), inputs: { x: [2, 3, 4] } },
      { spec: model([node('Mul', ['x', 'k'], ['y'])], { x: [5] }, [floatTensor('k', [2, 1], [3, -0.5])]), inputs: { x: [5] } },
    ]);
    expect(texts[0]).toContain('dense<7.500000e-01> : tensor<2x3x4xf32>');
    expect(texts[1]).toContain('tensor<1x3x1xf32>');
    expect(texts[2]).toContain('spat.concat axis 1');
  });

  it('a long broadcast axis costs O(log k) concats: [1, 1000] + [37, 1]', () => {
    const [text] = differential([{ spec: model([node('Add', ['a', 'b'], ['y'])], { a: [1, 1000], b: [37, 1] }), inputs: { a: [1, 1000], b: [37, 1] } }]);
    expect(occurrences(text!, 'spat.concat')).toBeLessThanOrEqual(2 * (Math.ceil(Math.log2(1000)) + Math.ceil(Math.log2(37)) + 2));
  });

  it('opset-6 broadcast=1 with axis aligns B at the axis (compared with the opset-13 model whose B has the aligned shape)', () => {
    const legacy = model([node('Add', ['a', 'b'], ['y'], { broadcast: 1, axis: 1 })], { a: [2, 4, 3], b: [4] }, [], 6);
    const modern = model([node('Add', ['a', 'b'], ['y'])], { a: [2, 4, 3], b: [4, 1] });
    const legacyMul = model([node('Mul', ['a', 'b'], ['y'], { broadcast: 1 })], { a: [2, 4, 3], b: [4, 3] }, [], 6);
    const modernMul = model([node('Mul', ['a', 'b'], ['y'])], { a: [2, 4, 3], b: [4, 3] });
    differential([
      { spec: legacy, inputs: { a: [2, 4, 3], b: [4] }, reference: { spec: modern, dims: { a: [2, 4, 3], b: [4, 1] } } },
      { spec: legacyMul, inputs: { a: [2, 4, 3], b: [4, 3] }, reference: { spec: modernMul, dims: { a: [2, 4, 3], b: [4, 3] } } },
    ]);
  });

  it('random shapes, operators and constant sides match onnxruntime (fast-check)', () => {
    const dims = fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 0, maxLength: 4 });
    const caseArb = fc.record({
      out: dims,
      dropA: fc.nat(4),
      dropB: fc.nat(4),
      unitA: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
      unitB: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
      op: fc.constantFrom('Add', 'Sub', 'Mul'),
      constant: fc.constantFrom('none', 'a', 'b'),
    });
    const samples = fc.sample(caseArb, { seed: 20261130, numRuns: 40 });
    const cases: Case[] = samples.map((s, k) => {
      const operand = (drop: number, unit: boolean[]) => s.out.slice(Math.min(drop, s.out.length)).map((d, i) => (unit[i] ? 1 : d));
      const [a, b] = [operand(s.dropA, s.unitA), operand(s.dropB, s.unitB)];
      const n = node(s.op, ['a', 'b'], ['y']);
      if (s.constant === 'none') return { spec: model([n], { a, b }), inputs: { a, b } };
      const [cst, rt] = s.constant === 'a' ? ['a', 'b'] : ['b', 'a'];
      const cshape = s.constant === 'a' ? a : b;
      const rshape = s.constant === 'a' ? b : a;
      return { spec: model([n], { [rt]: rshape }, [floatTensor(cst, cshape, Array.from(random(count(cshape), 1000 + k)))]), inputs: { [rt]: rshape } };
    });
    expect(cases.some((c) => broadcastShape(Object.values(c.inputs)[0]!, Object.values(c.inputs)[1] ?? []).length === 4)).toBe(true);
    differential(cases);
  });
});

describe('activations', () => {
  it('Relu: relu_plan on rank 4, spat.relu in a graph_compute on other ranks', () => {
    const texts = differential([2, 3, 4, 5].map((rank) => {
      const x = [2, 3, 1, 2, 3].slice(0, rank);
      return { spec: model([node('Relu', ['x'], ['y'], {}, 'relu')], { x }), inputs: { x } };
    }));
    expect(texts[2]).toContain('"spat.relu_plan"');
    for (const k of [0, 1, 3]) {
      expect(texts[k]).toContain('spat.relu(');
      expect(texts[k]).not.toContain('relu_plan');
    }
  });

  it('Sigmoid on any rank; Mul(x, Sigmoid(x)) is silu_plan on rank 4 and sigmoid + vmul in one region otherwise', () => {
    const silu = (x: number[]) => model([node('Sigmoid', ['x'], ['s'], {}, 'sig'), node('Mul', ['s', 'x'], ['y'], {}, 'mul')], { x });
    const texts = differential([
      { spec: model([node('Sigmoid', ['x'], ['y'])], { x: [2, 3, 4] }), inputs: { x: [2, 3, 4] } },
      { spec: silu([1, 2, 3, 3]), inputs: { x: [1, 2, 3, 3] } },
      { spec: silu([3, 5]), inputs: { x: [3, 5] } },
    ]);
    expect(texts[0]).toContain('spat.sigmoid');
    expect(texts[1]).toContain('"spat.silu_plan"');
    expect(texts[1]).toContain('loc("mul")');
    expect(occurrences(texts[2]!, 'spat.graph_compute')).toBe(1);
    expect(texts[2]).toContain('spat.vmul');
  });

  it('Tanh = 2 sigmoid(2x) - 1 stays within tolerance near 0 and saturates for large |x|', () => {
    const x = [4, 50];
    const data = Float32Array.from({ length: 200 }, (_, i) => (i < 100 ? (i - 50) * 1e-3 : (i - 150) * 0.5));
    const texts = differential([
      { spec: model([node('Tanh', ['x'], ['y'])], { x }), inputs: { x }, data: { x: data } },
      { spec: model([node('Tanh', ['x'], ['y'])], { x: [3, 1, 2, 2, 2] }), inputs: { x: [3, 1, 2, 2, 2] }, scale: 4 },
    ]);
    expect(texts[0]).toContain('spat.sigmoid');
    expect(texts[0]).toContain('spat.vsub');
  });

  it('LeakyRelu: vmax(x, alpha x) for 0 <= alpha <= 1, relu(x) + alpha (x - relu(x)) otherwise', () => {
    const leaky = (alpha: number | undefined) => model([node('LeakyRelu', ['x'], ['y'], alpha === undefined ? {} : { alpha })], { x: [2, 3, 4] });
    // (node() encodes integral numbers as INT attributes, so alpha stays fractional here.)
    const texts = differential([undefined, 0.1, 0.75, 2.5, -0.5].map((alpha) => ({ spec: leaky(alpha), inputs: { x: [2, 3, 4] } })));
    expect(texts[0]).toContain('spat.vmax');
    expect(texts[3]).toContain('spat.relu');
    expect(texts[4]).not.toContain('spat.vmax');
  });

  it('Clip: inputs (either absent), opset-6 attributes, min > max, and HardSigmoid', () => {
    const x = [2, 3, 5];
    const lo = floatTensor('lo', [], [-0.5]);
    const hi = floatTensor('hi', [], [0.75]);
    const texts = differential([
      { spec: model([node('Clip', ['x', 'lo', 'hi'], ['y'])], { x }, [lo, hi]), inputs: { x } },
      { spec: model([node('Clip', ['x', 'lo'], ['y'])], { x }, [lo]), inputs: { x } },
      { spec: model([node('Clip', ['x', '', 'hi'], ['y'])], { x }, [hi]), inputs: { x } },
      { spec: model([node('Clip', ['x'], ['y'])], { x }), inputs: { x } },
      { spec: model([node('Clip', ['x', 'hi', 'lo'], ['y'])], { x }, [lo, hi]), inputs: { x } },
      { spec: model([node('Clip', ['x', 'z', 'six'], ['y'])], { x }, [floatTensor('z', [], [0]), floatTensor('six', [], [6])]), inputs: { x }, scale: 10 },
      { spec: model([node('Clip', ['x'], ['y'], { min: -0.25, max: 1.5 })], { x }, [], 6), inputs: { x } },
      { spec: model([node('HardSigmoid', ['x'], ['y'], { alpha: 0.3, beta: 0.4 })], { x }), inputs: { x }, scale: 5 },
      { spec: model([node('HardSigmoid', ['x'], ['y'])], { x: [1, 2, 3, 4] }), inputs: { x: [1, 2, 3, 4] }, scale: 5 },
    ]);
    expect(texts[5]).toContain('spat.relu');
    expect(texts[5]).toContain('spat.vmax');
    expect(texts[3]).not.toContain('spat.graph_compute');
  });

  it('random activations, ranks and attributes match onnxruntime (fast-check)', () => {
    const arb = fc.record({
      shape: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 5 }),
      op: fc.constantFrom('Relu', 'Sigmoid', 'Tanh', 'LeakyRelu', 'HardSigmoid', 'Clip'),
      a: fc.double({ min: -2, max: 2, noNaN: true }),
      b: fc.double({ min: -1, max: 1, noNaN: true }),
      hasLo: fc.boolean(),
      hasHi: fc.boolean(),
    });
    const cases: Case[] = fc.sample(arb, { seed: 7, numRuns: 30 }).map((s) => {
      const x = s.shape;
      const a = Math.fround(s.a);
      const b = Math.fround(s.b);
      if (s.op === 'LeakyRelu') return { spec: model([node('LeakyRelu', ['x'], ['y'], { alpha: a === Math.trunc(a) ? a + 0.5 : a })], { x }), inputs: { x } };
      if (s.op === 'HardSigmoid') return { spec: model([node('HardSigmoid', ['x'], ['y'], { alpha: a === Math.trunc(a) ? a + 0.5 : a, beta: b === Math.trunc(b) ? 0.25 : b })], { x }), inputs: { x } };
      if (s.op === 'Clip') {
        const inits = [...(s.hasLo ? [floatTensor('lo', [], [Math.min(a, b)])] : []), ...(s.hasHi ? [floatTensor('hi', [], [Math.max(a, b)])] : [])];
        return { spec: model([node('Clip', ['x', s.hasLo ? 'lo' : '', s.hasHi ? 'hi' : ''], ['y'])], { x }, inits), inputs: { x } };
      }
      return { spec: model([node(s.op, ['x'], ['y'])], { x }), inputs: { x }, scale: 4 };
    });
    differential(cases);
  });
});

describe('Softmax', () => {
  it('opset 13 along a middle axis (transpose to rows and back), opset 11 flattening from the axis, one and two rows', () => {
    const texts = differential([
      { spec: model([node('Softmax', ['x'], ['y'], { axis: 1 })], { x: [3, 4, 5] }), inputs: { x: [3, 4, 5] } },
      { spec: model([node('Softmax', ['x'], ['y'], { axis: 1 })], { x: [2, 3, 4] }, [], 11), inputs: { x: [2, 3, 4] } },
      { spec: model([node('Softmax', ['x'], ['y'])], { x: [6] }), inputs: { x: [6] } },
      { spec: model([node('Softmax', ['x'], ['y'], { axis: 0 })], { x: [1, 3] }), inputs: { x: [1, 3] } },
    ]);
    expect(texts[0]).toContain('tensor.insert_slice');
    expect(occurrences(texts[0]!, 'spat.softmax')).toBe(15);
    expect(occurrences(texts[1]!, 'spat.softmax')).toBe(2);
    expect(texts[1]).toContain('tensor<1x12xf32>');
    expect(texts[3]).not.toContain('spat.softmax');
  });

  it('many rows become lanes of a graph_compute_batch; rows of two elements become two sigmoids', () => {
    const texts = differential([
      { spec: model([node('Softmax', ['x'], ['y'], { axis: 2 })], { x: [2, 20, 3] }), inputs: { x: [2, 20, 3] } },
      { spec: model([node('Softmax', ['x'], ['y'], { axis: -1 })], { x: [3, 7, 2] }), inputs: { x: [3, 7, 2] }, scale: 20 },
      { spec: model([node('Softmax', ['x'], ['y'], { axis: 0 })], { x: [2, 3, 3] }), inputs: { x: [2, 3, 3] } },
    ]);
    expect(texts[0]).toContain('spat.graph_compute_batch');
    expect(texts[0]).toContain('spat.blueprint');
    expect(occurrences(texts[1]!, 'spat.sigmoid')).toBe(2);
    expect(texts[1]).not.toContain('spat.softmax');
    expect(occurrences(texts[2]!, 'spat.sigmoid')).toBe(2);
  });

  it("ultraface's [1, 4420, 2] softmax over axis 2 is one small region that imports and runs in well under a second", () => {
    const x = [1, 4420, 2];
    const t0 = Date.now();
    const [text] = differential([{ spec: model([node('Softmax', ['x'], ['y'], { axis: 2 })], { x }), inputs: { x }, scale: 8 }]);
    expect(occurrences(text!, 'spat.graph_compute')).toBe(1);
    expect(text!.length).toBeLessThan(5000);
    expect(Date.now() - t0).toBeLessThan(10_000);
  });

  it('random shapes, axes and opsets match onnxruntime (fast-check)', () => {
    const arb = fc
      .record({ shape: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 4 }), axisSeed: fc.nat(100), opset: fc.constantFrom(11, 13) })
      .map(({ shape, axisSeed, opset }) => ({ shape, axis: (axisSeed % (2 * shape.length)) - shape.length, opset }));
    const cases: Case[] = fc.sample(arb, { seed: 42, numRuns: 30 }).map(({ shape, axis, opset }) => ({
      spec: model([node('Softmax', ['x'], ['y'], { axis })], { x: shape }, [], opset),
      inputs: { x: shape },
      scale: 3,
    }));
    differential(cases);
  });
});

describe('BatchNormalization', () => {
  const bn = (x: number[], eps?: number) => {
    const c = x[1]!;
    const inits = [
      floatTensor('g', [c], Array.from(random(c, 3))),
      floatTensor('b', [c], Array.from(random(c, 4))),
      floatTensor('m', [c], Array.from(random(c, 5))),
      floatTensor('v', [c], Array.from(random(c, 6, 1)).map((v) => v + 1.5)),
    ];
    return model([node('BatchNormalization', ['x', 'g', 'b', 'm', 'v'], ['y'], eps === undefined ? {} : { epsilon: eps }, 'bn')], { x }, inits);
  };

  it('rank 2, 3 and 5 use a per-channel vmul + vadd region; rank 4 keeps the depthwise conv2d_plan', () => {
    const shapes = [[4, 3], [2, 3, 5], [1, 2, 3, 4], [2, 2, 2, 3, 2]];
    const texts = differential(shapes.map((x, i) => ({ spec: bn(x, i === 1 ? 1e-2 : undefined), inputs: { x } })));
    for (const k of [0, 1, 3]) {
      expect(texts[k]).toContain('spat.vmul');
      expect(texts[k]).toContain('spat.vadd');
      expect(texts[k]).not.toContain('conv2d_plan');
      expect(texts[k]).toContain('loc("bn")');
    }
    expect(texts[2]).toMatch(/"spat.conv2d_plan".*group = 2/);
  });

  it('random ranks and channel counts match onnxruntime (fast-check)', () => {
    const arb = fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 2, maxLength: 5 });
    differential(fc.sample(arb, { seed: 3, numRuns: 12 }).map((x) => ({ spec: bn(x), inputs: { x } })));
  });
});

describe('refusals', () => {
  const errors = (spec: ModelSpec) => {
    const r = importSpec(spec);
    expect(r.module).toBeUndefined();
    return r.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic).join('\n');
  };

  it('Clip whose bound is a runtime value', () => {
    expect(errors(model([node('Clip', ['x', 'lo'], ['y'], {}, 'clip')], { x: [2, 3], lo: [] }))).toContain("cannot lower Clip (node 'clip'): the min bound is not a compile-time scalar (bind it with constantInputs)");
    expect(errors(model([node('Clip', ['x', '', 'hi'], ['y'], {}, 'clip')], { x: [2, 3], hi: [] }))).toContain("cannot lower Clip (node 'clip'): the max bound is not a compile-time scalar");
  });

  it('BatchNormalization with runtime parameters', () => {
    const spec = model([node('BatchNormalization', ['x', 'g', 'b', 'm', 'v'], ['y'], {}, 'bn')], { x: [1, 2, 3], g: [2] }, [floatTensor('b', [2]), floatTensor('m', [2]), floatTensor('v', [2])]);
    expect(errors(spec)).toContain("cannot lower BatchNormalization (node 'bn'): scale, B, input_mean and input_var must be compile-time constants (bind them with constantInputs)");
  });

  it('integer element-wise arithmetic', () => {
    const spec: ModelSpec = { nodes: [node('Add', ['a', 'b'], ['y'], {}, 'iadd')], inputs: [valueInfo('a', [3], 7), valueInfo('b', [3], 7)], outputs: [valueInfo('y', undefined, 7)] };
    expect(errors(spec)).toContain("cannot lower Add (node 'iadd'): operand 'a' has element type int64; only float32 element-wise arithmetic is lowered");
  });
});
