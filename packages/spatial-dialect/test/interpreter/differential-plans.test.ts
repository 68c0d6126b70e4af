/**
 * The interpreter rules of spat.conv2d_plan, spat.max_pool2d_plan, spat.resize_nearest_plan,
 * spat.concat_plan (and global average pool, bias add, flatten) checked against onnxruntime on
 * random shapes (fast-check): each property builds the plan op as IR text, verifies it, runs it
 * through the interpreter and compares with the ONNX node (tolerance policy of docs/kernels.md).
 * onnxruntime runs in a child process (test/kernels/support/ort-runner.ts).
 */
import fc from 'fast-check';
import { kernels } from '../../src';
import { compareWithReference, DIFFERENTIAL_TEST_TIMEOUT_MS, randomTensor, runOrtNode, stopOrt } from '../kernels/support/ort-runner';
import { SEED } from '../kernels/support/unwrap';
import { f32, ok, runVerified, shapeOfValue, valuesOf } from './support';

jest.setTimeout(DIFFERENTIAL_TEST_TIMEOUT_MS);
afterAll(stopOrt);

const L = 'logicalLayout = #spat<logical_layout nchw>';
const ty = (s: readonly number[]) => `tensor<${s.join('x')}xf32>`;
const arr = (v: readonly number[]) => `array<i64${v.length ? ': ' + v.join(', ') : ''}>`;

/** Runs one plan op `name` with `props` on `inputs` through the interpreter. */
function runPlan(name: string, props: string, inputs: readonly kernels.F32Tensor[], out: readonly number[]): kernels.F32Tensor {
  const args = inputs.map((t, i) => `%a${i}: ${ty(t.shape)}`).join(', ');
  const text = `func.func @main(${args}) -> ${ty(out)} {
  %y = "spat.${name}"(${inputs.map((_, i) => `%a${i}`).join(', ')}) <{${props}}> : (${inputs.map((t) => ty(t.shape)).join(', ')}) -> ${ty(out)}
  return %y : ${ty(out)}
}`;
  const [y] = ok(runVerified(text, 'main', inputs.map((t) => f32(t.shape, Array.from(t.data)))));
  return { shape: shapeOfValue(y), data: Float32Array.from(valuesOf(y)) };
}

const seedArb = fc.integer({ min: 0, max: 1 << 30 });

describe('plan interpreter rules vs onnxruntime', () => {
  it('spat.conv2d_plan = Conv (groups, pads, strides, dilations, optional bias)', async () => {
    const arb = fc
      .record({
        group: fc.constantFrom(1, 2),
        cin: fc.integer({ min: 1, max: 3 }),
        cout: fc.integer({ min: 1, max: 4 }),
        h: fc.integer({ min: 1, max: 7 }),
        w: fc.integer({ min: 1, max: 7 }),
        kh: fc.integer({ min: 1, max: 3 }),
        kw: fc.integer({ min: 1, max: 3 }),
        pads: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 4, maxLength: 4 }),
        strides: fc.array(fc.integer({ min: 1, max: 2 }), { minLength: 2, maxLength: 2 }),
        dilations: fc.array(fc.integer({ min: 1, max: 2 }), { minLength: 2, maxLength: 2 }),
        bias: fc.boolean(),
        seed: seedArb,
      })
      .filter(
        (p) =>
          kernels.windowOutputSize(p.h, p.kh, p.pads[0]!, p.pads[2]!, p.strides[0]!, p.dilations[0]!) >= 1 &&
          kernels.windowOutputSize(p.w, p.kw, p.pads[1]!, p.pads[3]!, p.strides[1]!, p.dilations[1]!) >= 1,
      );
    await fc.assert(
      fc.asyncProperty(arb, async (p) => {
        const x = randomTensor([1, p.group * p.cin, p.h, p.w], p.seed);
        const w = randomTensor([p.group * p.cout, p.cin, p.kh, p.kw], p.seed + 1);
        const b = p.bias ? randomTensor([p.group * p.cout], p.seed + 2) : undefined;
        const oh = kernels.windowOutputSize(p.h, p.kh, p.pads[0]!, p.pads[2]!, p.strides[0]!, p.dilations[0]!);
        const ow = kernels.windowOutputSize(p.w, p.kw, p.pads[1]!, p.pads[3]!, p.strides[1]!, p.dilations[1]!);
        const out = [1, p.group * p.cout, oh, ow];
        const props = `pads = ${arr(p.pads)}, strides = ${arr(p.strides)}, dilations = ${arr(p.dilations)}, group = ${p.group} : i64, ${L}`;
        const ours = runPlan('conv2d_plan', props, b ? [x, w, b] : [x, w], out);
        const ref = await runOrtNode({
          opType: 'Conv',
          nodeInputs: b ? ['x', 'w', 'b'] : ['x', 'w'],
          inputs: [{ name: 'x', tensor: x }, { name: 'w', tensor: w }, ...(b ? [{ name: 'b', tensor: b }] : [])],
          outputShape: out,
          attributes: { pads: { ints: p.pads }, strides: { ints: p.strides }, dilations: { ints: p.dilations }, group: { int: p.group }, kernel_shape: { ints: [p.kh, p.kw] } },
        });
        expect(compareWithReference(ours, ref)).toBeUndefined();
      }),
      { numRuns: 25, seed: SEED },
    );
  });

  it('spat.max_pool2d_plan = MaxPool', async () => {
    const arb = fc
      .record({
        c: fc.integer({ min: 1, max: 3 }),
        h: fc.integer({ min: 1, max: 8 }),
        w: fc.integer({ min: 1, max: 8 }),
        kernel: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 2, maxLength: 2 }),
        pads: fc.array(fc.integer({ min: 0, max: 1 }), { minLength: 4, maxLength: 4 }),
        strides: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 2, maxLength: 2 }),
        dilations: fc.array(fc.integer({ min: 1, max: 2 }), { minLength: 2, maxLength: 2 }),
        seed: seedArb,
      })
      .filter(
        (p) =>
          p.pads.every((v, i) => v < p.kernel[i % 2]!) &&
          kernels.windowOutputSize(p.h, p.kernel[0]!, p.pads[0]!, p.pads[2]!, p.strides[0]!, p.dilations[0]!) >= 1 &&
          kernels.windowOutputSize(p.w, p.kernel[1]!, p.pads[1]!, p.pads[3]!, p.strides[1]!, p.dilations[1]!) >= 1,
      );
    await fc.assert(
      fc.asyncProperty(arb, async (p) => {
        const x = randomTensor([1, p.c, p.h, p.w], p.seed);
        const oh = kernels.windowOutputSize(p.h, p.kernel[0]!, p.pads[0]!, p.pads[2]!, p.strides[0]!, p.dilations[0]!);
        const ow = kernels.windowOutputSize(p.w, p.kernel[1]!, p.pads[1]!, p.pads[3]!, p.strides[1]!, p.dilations[1]!);
        const out = [1, p.c, oh, ow];
        const props = `kernelShape = ${arr(p.kernel)}, pads = ${arr(p.pads)}, strides = ${arr(p.strides)}, dilations = ${arr(p.dilations)}, ${L}`;
        const ours = runPlan('max_pool2d_plan', props, [x], out);
        const ref = await runOrtNode({
          opType: 'MaxPool',
          nodeInputs: ['x'],
          inputs: [{ name: 'x', tensor: x }],
          outputShape: out,
          attributes: { kernel_shape: { ints: p.kernel }, pads: { ints: p.pads }, strides: { ints: p.strides }, dilations: { ints: p.dilations } },
        });
        expect(compareWithReference(ours, ref, 0, 0)).toBeUndefined();
      }),
      { numRuns: 25, seed: SEED },
    );
  });

  it('spat.resize_nearest_plan = Resize(nearest, asymmetric, floor) with the result shape as sizes', async () => {
    const arb = fc.record({
      c: fc.integer({ min: 1, max: 3 }),
      h: fc.integer({ min: 1, max: 5 }),
      w: fc.integer({ min: 1, max: 5 }),
      oh: fc.integer({ min: 1, max: 10 }),
      ow: fc.integer({ min: 1, max: 10 }),
      seed: seedArb,
    });
    await fc.assert(
      fc.asyncProperty(arb, async (p) => {
        const x = randomTensor([1, p.c, p.h, p.w], p.seed);
        const out = [1, p.c, p.oh, p.ow];
        const ours = runPlan('resize_nearest_plan', L, [x], out);
        const ref = await runOrtNode({
          opType: 'Resize',
          nodeInputs: ['x', '', '', 'sizes'],
          inputs: [{ name: 'x', tensor: x }],
          initializers: [{ name: 'sizes', shape: [4], int64: out }],
          outputShape: out,
          attributes: { mode: { string: 'nearest' }, coordinate_transformation_mode: { string: 'asymmetric' }, nearest_mode: { string: 'floor' } },
        });
        expect(compareWithReference(ours, ref, 0, 0)).toBeUndefined();
      }),
      { numRuns: 25, seed: SEED },
    );
  });

  it('spat.concat_plan = Concat(axis 1)', async () => {
    const arb = fc.record({
      channels: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 4 }),
      h: fc.integer({ min: 1, max: 5 }),
      w: fc.integer({ min: 1, max: 5 }),
      seed: seedArb,
    });
    await fc.assert(
      fc.asyncProperty(arb, async (p) => {
        const xs = p.channels.map((c, i) => randomTensor([1, c, p.h, p.w], p.seed + i));
        const out = [1, p.channels.reduce((a, b) => a + b, 0), p.h, p.w];
        const ours = runPlan('concat_plan', `axis = 1 : i64, ${L}`, xs, out);
        const ref = await runOrtNode({
          opType: 'Concat',
          nodeInputs: xs.map((_, i) => `x${i}`),
          inputs: xs.map((t, i) => ({ name: `x${i}`, tensor: t })),
          outputShape: out,
          attributes: { axis: { int: 1 } },
        });
        expect(compareWithReference(ours, ref, 0, 0)).toBeUndefined();
      }),
      { numRuns: 20, seed: SEED },
    );
  });

  it('spat.global_average_pool_plan = GlobalAveragePool, spat.flatten_plan = Flatten, spat.bias_add_plan = Add of [1,C,1,1]', async () => {
    const arb = fc.record({ c: fc.integer({ min: 1, max: 4 }), h: fc.integer({ min: 1, max: 6 }), w: fc.integer({ min: 1, max: 6 }), axis: fc.integer({ min: 0, max: 4 }), seed: seedArb });
    await fc.assert(
      fc.asyncProperty(arb, async (p) => {
        const x = randomTensor([1, p.c, p.h, p.w], p.seed);
        const gap = runPlan('global_average_pool_plan', L, [x], [1, p.c, 1, 1]);
        const gapRef = await runOrtNode({ opType: 'GlobalAveragePool', nodeInputs: ['x'], inputs: [{ name: 'x', tensor: x }], outputShape: [1, p.c, 1, 1] });
        expect(compareWithReference(gap, gapRef)).toBeUndefined();
        const first = x.shape.slice(0, p.axis).reduce((a, b) => a * b, 1);
        const flat = runPlan('flatten_plan', `axis = ${p.axis} : i64, ${L}`, [x], [first, x.data.length / first]);
        const flatRef = await runOrtNode({ opType: 'Flatten', nodeInputs: ['x'], inputs: [{ name: 'x', tensor: x }], outputShape: [first, x.data.length / first], attributes: { axis: { int: p.axis } } });
        expect(compareWithReference(flat, flatRef, 0, 0)).toBeUndefined();
        const bias = randomTensor([1, p.c, 1, 1], p.seed + 7);
        const added = runPlan('bias_add_plan', L, [x, bias], x.shape);
        const addRef = await runOrtNode({ opType: 'Add', nodeInputs: ['x', 'b'], inputs: [{ name: 'x', tensor: x }, { name: 'b', tensor: bias }], outputShape: x.shape });
        expect(compareWithReference(added, addRef)).toBeUndefined();
      }),
      { numRuns: 15, seed: SEED },
    );
  });
});
