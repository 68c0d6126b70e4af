/**
 * fast-check property: on random convolution and max-pool geometries (channels, groups incl.
 * depthwise, kernel, stride, dilation, asymmetric padding, sizes that are not multiples of the
 * crossbar) and every layout form (dense -> dense, dense -> row strips, row strips -> row
 * strips), the interpreter gives the same outputs before and after `spat-lower-plans`, on small
 * random crossbars (2..8 rows x 2..6 columns) so that every conv is cut into several tiles.
 */
import * as fc from 'fast-check';
import { FloatType, MLIRContext, RankedTensorType, ShapedValue, parseSourceString, type Operation } from '@raptor-pim/ir-core';
import { WvmmOp, registerSpatialDialect } from '@raptor-pim/spatial-dialect';
import { interpret, runPipeline, targetWithCrossbar, worstRatio } from './helpers';

jest.setTimeout(300_000);

const D = '#spat<physical_layout dense_nchw>';
const R = '#spat<physical_layout nhwc_row_strip>';
const L = 'logicalLayout = #spat<logical_layout nchw>';
type Form = 'dense' | 'dense-to-strips' | 'strips';

/** Seeded values in [-1, 1). */
function values(n: number, seed: number): number[] {
  let s = seed >>> 0 || 1;
  return Array.from({ length: n }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return Math.round((s / 2 ** 31 - 1) * 1000) / 1000;
  });
}

/** A dense literal of `shape` (nested brackets) holding `xs` in row-major order. */
function nested(xs: readonly number[], shape: readonly number[]): string {
  if (shape.length === 0) return String(xs[0]);
  const inner = shape.slice(1).reduce((a, b) => a * b, 1);
  const parts: string[] = [];
  for (let i = 0; i < shape[0]!; i++) parts.push(nested(xs.slice(i * inner, (i + 1) * inner), shape.slice(1)));
  return `[${parts.join(', ')}]`;
}

const t4 = (s: readonly number[]): string => `tensor<${s.join('x')}xf32>`;
const arr = (xs: readonly number[]): string => `array<i64: ${xs.join(', ')}>`;
const outSize = (i: number, k: number, p0: number, p1: number, s: number, d: number): number => Math.floor((i + p0 + p1 - d * (k - 1) - 1) / s) + 1;

/**
 * A function applying `plan` (generic text with `%in` and result `%y`) to `%x`, wrapped in the
 * materializations of `form` (the plan's record says which layouts it has).
 */
function wrap(form: Form, inShape: readonly number[], outShape: readonly number[], plan: (input: string, record: string) => string, extraOperands: number): string {
  const ins = form === 'strips' ? R : D;
  const res = form === 'dense' ? D : R;
  const record = `{spat.operand_layouts = [${[ins, ...new Array<string>(extraOperands).fill(D)].join(', ')}], spat.result_layout = ${res}}`;
  const lines = [`func.func @main(%x: ${t4(inShape)}) -> ${t4(outShape)} {`];
  let input = '%x';
  if (form === 'strips') {
    lines.push(`  %xr = "spat.materialize_layout"(%x) <{${L}, sourcePhysicalLayout = ${D}, targetPhysicalLayout = ${R}}> : (${t4(inShape)}) -> ${t4(inShape)}`);
    input = '%xr';
  }
  lines.push(plan(input, record));
  let result = '%y';
  if (form !== 'dense') {
    lines.push(`  %yd = "spat.materialize_layout"(%y) <{${L}, sourcePhysicalLayout = ${R}, targetPhysicalLayout = ${D}}> : (${t4(outShape)}) -> ${t4(outShape)}`);
    result = '%yd';
  }
  lines.push(`  return ${result} : ${t4(outShape)}`, '}');
  return lines.join('\n');
}

function checkBeforeAfter(text: string, inShape: readonly number[], rows: number, columns: number, seed: number): void {
  const ctx = new MLIRContext();
  registerSpatialDialect(ctx);
  const module = ctx.diagnostics.capture(() => parseSourceString(ctx, text)).result as Operation | undefined;
  if (!module) throw new Error(`does not parse:\n${text}`);
  const x = ShapedValue.allocate('tensor', FloatType.f32(ctx), inShape)!;
  (x.data as Float32Array).set(values(x.data.length, seed));
  const before = interpret(module, 'main', [x]);
  const run = runPipeline(module, 'builtin.module(func.func(spat-lower-plans))', targetWithCrossbar(rows, columns));
  if (!run.success) throw new Error(`${run.diagnostics.map((d) => d.message).join('\n')}\n${text}`);
  const after = interpret(module, 'main', [x]);
  expect(worstRatio(after[0]!, before[0]!)).toBeLessThanOrEqual(1);
}

const FORMS: readonly Form[] = ['dense', 'dense-to-strips', 'strips'];

const convCase = fc
  .record({
    groups: fc.integer({ min: 1, max: 3 }),
    cinPerGroup: fc.integer({ min: 1, max: 3 }),
    coutPerGroup: fc.integer({ min: 1, max: 4 }),
    kh: fc.integer({ min: 1, max: 3 }),
    kw: fc.integer({ min: 1, max: 3 }),
    sh: fc.integer({ min: 1, max: 3 }),
    sw: fc.integer({ min: 1, max: 2 }),
    dh: fc.integer({ min: 1, max: 2 }),
    dw: fc.integer({ min: 1, max: 2 }),
    pads: fc.tuple(fc.nat(2), fc.nat(2), fc.nat(2), fc.nat(2)),
    h: fc.integer({ min: 1, max: 7 }),
    w: fc.integer({ min: 1, max: 7 }),
    bias: fc.boolean(),
    form: fc.constantFrom(...FORMS),
    rows: fc.integer({ min: 2, max: 8 }),
    columns: fc.integer({ min: 2, max: 6 }),
    seed: fc.nat(),
  })
  .filter((c) => outSize(c.h, c.kh, c.pads[0], c.pads[2], c.sh, c.dh) >= 1 && outSize(c.w, c.kw, c.pads[1], c.pads[3], c.sw, c.dw) >= 1);

it('conv2d: same outputs before and after lowering (random geometry, layout form and crossbar)', () => {
  fc.assert(
    fc.property(convCase, (c) => {
      const cin = c.groups * c.cinPerGroup;
      const cout = c.groups * c.coutPerGroup;
      const ho = outSize(c.h, c.kh, c.pads[0], c.pads[2], c.sh, c.dh);
      const wo = outSize(c.w, c.kw, c.pads[1], c.pads[3], c.sw, c.dw);
      const inShape = [1, cin, c.h, c.w];
      const outShape = [1, cout, ho, wo];
      const wShape = [cout, c.cinPerGroup, c.kh, c.kw];
      const weight = values(wShape.reduce((a, b) => a * b, 1), c.seed + 1);
      const bias = values(cout, c.seed + 2);
      const text = wrap(
        c.form,
        inShape,
        outShape,
        (input, record) =>
          `  %wc = arith.constant dense<${nested(weight, wShape)}> : ${t4(wShape)}\n` + convLine(input, record, c, inShape, wShape, outShape, bias),
        c.bias ? 2 : 1,
      );
      checkBeforeAfter(text, inShape, c.rows, c.columns, c.seed);
    }),
    { numRuns: 60, seed: 20261201 },
  );
});

function convLine(
  input: string,
  record: string,
  c: { groups: number; sh: number; sw: number; dh: number; dw: number; pads: readonly number[]; bias: boolean },
  inShape: readonly number[],
  wShape: readonly number[],
  outShape: readonly number[],
  bias: readonly number[],
): string {
  const props = `<{dilations = ${arr([c.dh, c.dw])}, group = ${c.groups} : i64, ${L}, pads = ${arr(c.pads)}, strides = ${arr([c.sh, c.sw])}}>`;
  if (!c.bias) return `  %y = "spat.conv2d_plan"(${input}, %wc) ${props} ${record} : (${t4(inShape)}, ${t4(wShape)}) -> ${t4(outShape)}`;
  return `  %b = arith.constant dense<[${bias.join(', ')}]> : tensor<${bias.length}xf32>\n  %y = "spat.conv2d_plan"(${input}, %wc, %b) ${props} ${record} : (${t4(inShape)}, ${t4(wShape)}, tensor<${bias.length}xf32>) -> ${t4(outShape)}`;
}

const poolCase = fc
  .record({
    c: fc.integer({ min: 1, max: 5 }),
    kh: fc.integer({ min: 1, max: 3 }),
    kw: fc.integer({ min: 1, max: 3 }),
    sh: fc.integer({ min: 1, max: 3 }),
    sw: fc.integer({ min: 1, max: 3 }),
    dh: fc.integer({ min: 1, max: 2 }),
    dw: fc.integer({ min: 1, max: 2 }),
    pads: fc.tuple(fc.nat(2), fc.nat(2), fc.nat(2), fc.nat(2)),
    h: fc.integer({ min: 1, max: 8 }),
    w: fc.integer({ min: 1, max: 8 }),
    form: fc.constantFrom(...FORMS),
    seed: fc.nat(),
  })
  .filter((c) => {
    // Pads smaller than the kernel (the interpreter's max-pool kernel requires it, as onnxruntime).
    const padsOk = c.pads[0] < c.kh && c.pads[2] < c.kh && c.pads[1] < c.kw && c.pads[3] < c.kw;
    return padsOk && outSize(c.h, c.kh, c.pads[0], c.pads[2], c.sh, c.dh) >= 1 && outSize(c.w, c.kw, c.pads[1], c.pads[3], c.sw, c.dw) >= 1;
  });

it('max_pool2d: same outputs before and after lowering (random geometry and layout form)', () => {
  fc.assert(
    fc.property(poolCase, (c) => {
      const ho = outSize(c.h, c.kh, c.pads[0], c.pads[2], c.sh, c.dh);
      const wo = outSize(c.w, c.kw, c.pads[1], c.pads[3], c.sw, c.dw);
      const inShape = [1, c.c, c.h, c.w];
      const outShape = [1, c.c, ho, wo];
      const props = `<{dilations = ${arr([c.dh, c.dw])}, kernelShape = ${arr([c.kh, c.kw])}, ${L}, pads = ${arr(c.pads)}, strides = ${arr([c.sh, c.sw])}}>`;
      const text = wrap(c.form, inShape, outShape, (input, record) => `  %y = "spat.max_pool2d_plan"(${input}) ${props} ${record} : (${t4(inShape)}) -> ${t4(outShape)}`, 0);
      checkBeforeAfter(text, inShape, 4, 4, c.seed);
    }),
    { numRuns: 60, seed: 20261202 },
  );
});

describe('column groups of convolutions larger than a core', () => {
  /** The weights' shapes of the lowered batch of a 3x3 row-strip conv (cin -> cout) on 2x2 crossbars, outputs checked. */
  function loweredWeightShapes(cin: number, cout: number): number[][] {
    const inShape = [1, cin, 4, 4];
    const outShape = [1, cout, 4, 4];
    const wShape = [cout, cin, 3, 3];
    const weight = values(wShape.reduce((a, b) => a * b, 1), 7);
    const c = { groups: 1, sh: 1, sw: 1, dh: 1, dw: 1, pads: [1, 1, 1, 1], bias: false };
    const text = wrap('strips', inShape, outShape, (input, record) => `  %wc = arith.constant dense<${nested(weight, wShape)}> : ${t4(wShape)}\n` + convLine(input, record, c, inShape, wShape, outShape, []), 1);
    checkBeforeAfter(text, inShape, 2, 2, 3);
    const ctx = new MLIRContext();
    registerSpatialDialect(ctx);
    const module = parseSourceString(ctx, text) as Operation;
    expect(runPipeline(module, 'builtin.module(func.func(spat-lower-plans))', targetWithCrossbar(2, 2)).success).toBe(true);
    const shapes: number[][] = [];
    module.walk((op) => {
      if (WvmmOp.match(op)) shapes.push([...((op.getOperand(0).type as RankedTensorType).shape as number[])]);
    });
    return shapes;
  }

  it('keeps one weight per crossbar tile where no input-channel split brings the row tiles within a core (one channel range)', () => {
    // 2 channels on 2-row crossbars: 9 row tiles (one per tap), 8 column tiles, 72 crossbars > 64.
    const shapes = loweredWeightShapes(2, 16);
    expect(shapes.length).toBeGreaterThan(0);
    for (const [r, c] of shapes) expect(r! <= 2 && c! <= 2).toBe(true);
  });

  it('groups the column tiles where a split over input channels fits a core', () => {
    // 4 channels: 18 row tiles x 6 column tiles = 108 crossbars; two channel parts of 54 fit.
    const shapes = loweredWeightShapes(4, 12);
    expect(shapes.length).toBe(18);
    for (const [r, c] of shapes) expect([r, c]).toEqual([2, 12]);
  });
});
