/**
 * Differential test of the strided-layout arithmetic against mlir-opt 22: random subview,
 * collapse_shape, expand_shape, cast and transpose cases (fixed fast-check seed) are verified by
 * both; the verdicts and the first error message must be equal. Result types come from our
 * inference (so an accepted case means MLIR computes the same type) and, for a share of the
 * cases, are perturbed (so both must reject, with the same message). Skipped when mlir-opt is
 * not installed (CI installs it).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import fc from 'fast-check';
import { DYNAMIC, MemRefType, parseSourceString, printType, verify, type MLIRContext } from '@raptor-pim/ir-core';
import { computeCollapsedType, computeExpandedType, inferSubViewResultType } from '@raptor-pim/upstream-dialects';
import { makeContext } from './helpers';

const mlirOpt = process.env.MLIR_OPT ?? '/usr/lib/llvm-22/bin/mlir-opt';
const hasMlirOpt = fs.existsSync(mlirOpt);

const SEED = Number(process.env.MEMREF_DIFF_SEED ?? 20261130);

function memrefText(shape: readonly number[], layout: { strides: number[]; offset: number } | undefined, elem = 'f32'): string {
  const dims = shape.map((d) => (d === DYNAMIC ? '?' : String(d)));
  const s = [...dims, elem].join('x');
  if (!layout) return `memref<${s}>`;
  const v = (x: number) => (x === DYNAMIC ? '?' : String(x));
  const off = layout.offset === 0 ? '' : `, offset: ${v(layout.offset)}`;
  return `memref<${s}, strided<[${layout.strides.map(v).join(', ')}]${off}>>`;
}

function typeOf(ctx: MLIRContext, text: string): MemRefType {
  const m = parseSourceString(ctx, `"test.t"() : () -> ${text}`)!;
  return m.regions[0]!.firstBlock!.firstOp!.getResult(0).type as MemRefType;
}

/** Our verdict: undefined when valid, else the first error message. */
function ours(chunk: string): string | undefined {
  const ctx = makeContext();
  ctx.allowUnregisteredDialects = true;
  const { diagnostics } = ctx.diagnostics.capture(() => {
    const m = parseSourceString(ctx, chunk);
    if (m) verify(m);
  });
  const errs = diagnostics.filter((d) => d.severity === 'error');
  return errs.length ? errs[0]!.message : undefined;
}

/** mlir-opt's verdicts for all chunks at once (split-input-file). */
function theirs(chunks: readonly string[]): (string | undefined)[] {
  const text = chunks.join('\n// -----\n');
  const starts: number[] = [];
  let line = 1;
  for (const c of chunks) {
    starts.push(line);
    line += c.split('\n').length + 1;
  }
  let stderr = '';
  try {
    execFileSync(mlirOpt, ['--split-input-file', '--allow-unregistered-dialect', '-o', '/dev/null', '-'], { input: text, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (e) {
    stderr = (e as { stderr: string }).stderr;
  }
  const out: (string | undefined)[] = chunks.map(() => undefined);
  for (const l of stderr.split('\n')) {
    const m = /^<stdin>:(\d+):\d+: error: (.*)$/.exec(l);
    if (!m) continue;
    const ln = Number(m[1]);
    let idx = 0;
    while (idx + 1 < starts.length && starts[idx + 1]! <= ln) idx++;
    if (out[idx] === undefined) out[idx] = m[2]!;
  }
  return out;
}

/** Same verdicts and messages; the sample must hold both accepted and rejected cases. */
function compare(chunks: readonly string[], mlir: readonly (string | undefined)[]): void {
  chunks.forEach((c, i) => expect({ case: c, verdict: ours(c) }).toEqual({ case: c, verdict: mlir[i] }));
  const accepted = mlir.filter((m) => m === undefined).length;
  expect(accepted).toBeGreaterThan(chunks.length / 10);
  expect(accepted).toBeLessThan(chunks.length);
}

const dimArb = fc.integer({ min: 1, max: 6 });
const stridedArb = (rank: number) =>
  fc.record({
    strides: fc.array(fc.oneof(fc.integer({ min: 1, max: 40 }), fc.constant(DYNAMIC)), { minLength: rank, maxLength: rank }),
    offset: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.constant(DYNAMIC)),
  });

function contiguous(shape: readonly number[], offset: number): { strides: number[]; offset: number } {
  const strides = new Array<number>(shape.length);
  let r = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    strides[i] = r;
    r *= shape[i]!;
  }
  return { strides, offset };
}

(hasMlirOpt ? describe : describe.skip)('strided-layout arithmetic agrees with mlir-opt 22', () => {
  it('subview result types (with rank reduction and perturbations)', () => {
    const ctx = makeContext();
    ctx.allowUnregisteredDialects = true;
    const arb = fc.array(dimArb, { minLength: 1, maxLength: 3 }).chain((shape) =>
      fc.record({
        shape: fc.constant(shape),
        layout: fc.oneof(fc.constant(undefined), stridedArb(shape.length)),
        slice: fc.tuple(
          ...shape.map((n) =>
            fc.record({ off: fc.integer({ min: 0, max: n - 1 }), size: fc.integer({ min: 1, max: n }), stride: fc.integer({ min: 1, max: 3 }) }),
          ),
        ),
        reduce: fc.boolean(),
        perturb: fc.integer({ min: 0, max: 4 }),
      }),
    );
    const samples = fc.sample(arb, { seed: SEED, numRuns: 150 });
    const chunks = samples.map((s) => {
      const src = memrefText(s.shape, s.layout);
      const slice = {
        offsets: s.slice.map((x) => x.off),
        sizes: s.slice.map((x) => x.size),
        strides: s.slice.map((x) => x.stride),
      };
      const expected = inferSubViewResultType(typeOf(ctx, src), slice)!;
      let resultText = printType(expected);
      if (s.reduce && slice.sizes.includes(1)) {
        // Drop a subset of the unit dimensions (all of them, or every other one).
        let unit = 0;
        const keep = slice.sizes.map((z, i) => (z === 1 && (s.perturb % 2 === 0 || unit++ % 2 === 0) ? -1 : i)).filter((i) => i >= 0);
        const lay = expected.layout as unknown as { strides: number[]; offset: number };
        resultText = memrefText(
          keep.map((i) => slice.sizes[i]!),
          { strides: keep.map((i) => lay.strides[i]!), offset: lay.offset },
        );
      }
      if (s.perturb === 0) resultText = resultText.replace(/offset: (\d+)/, (_, n) => `offset: ${Number(n) + 1}`);
      return `%m = "test.src"() : () -> ${src}\n%r = memref.subview %m[${slice.offsets.join(', ')}] [${slice.sizes.join(', ')}] [${slice.strides.join(', ')}] : ${src} to ${resultText}`;
    });
    const mlir = theirs(chunks);
    compare(chunks, mlir);
  });

  it('collapse_shape validity and result layouts', () => {
    const ctx = makeContext();
    ctx.allowUnregisteredDialects = true;
    const arb = fc.array(fc.oneof({ weight: 4, arbitrary: dimArb }, { weight: 1, arbitrary: fc.constant(DYNAMIC) }), { minLength: 1, maxLength: 4 }).chain((shape) =>
      fc.record({
        shape: fc.constant(shape),
        layout: fc.oneof(
          fc.constant(undefined),
          fc.integer({ min: 0, max: 9 }).map((o) => contiguous(shape.map((d) => (d === DYNAMIC ? 3 : d)), o)),
          stridedArb(shape.length),
        ),
        cuts: fc.array(fc.boolean(), { minLength: shape.length - 1, maxLength: shape.length - 1 }),
      }),
    );
    const samples = fc.sample(arb, { seed: SEED + 1, numRuns: 150 });
    const chunks = samples.map((s) => {
      const groups: number[][] = [[0]];
      s.cuts.forEach((cut, i) => (cut ? groups.push([i + 1]) : groups[groups.length - 1]!.push(i + 1)));
      const src = memrefText(s.shape, s.layout);
      const resShape = groups.map((g) => (g.some((d) => s.shape[d] === DYNAMIC) ? DYNAMIC : g.reduce((a, d) => a * s.shape[d]!, 1)));
      const t = computeCollapsedType(typeOf(ctx, src), resShape, groups);
      const res = t ? printType(t) : memrefText(resShape, undefined);
      return `%m = "test.src"() : () -> ${src}\n%r = memref.collapse_shape %m [${groups.map((g) => `[${g.join(', ')}]`).join(', ')}] : ${src} into ${res}`;
    });
    const mlir = theirs(chunks);
    compare(chunks, mlir);
  });

  it('expand_shape result layouts and output shapes', () => {
    const ctx = makeContext();
    ctx.allowUnregisteredDialects = true;
    const arb = fc.array(fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }).chain((factors) =>
      fc.record({
        factors: fc.constant(factors),
        layout: fc.oneof(fc.constant(undefined), stridedArb(factors.length)),
        wrongShape: fc.integer({ min: 0, max: 5 }),
        dynamicGroups: fc.array(fc.boolean(), { minLength: factors.length, maxLength: factors.length }),
      }),
    );
    const samples = fc.sample(arb, { seed: SEED + 2, numRuns: 120 });
    const chunks = samples.map((s) => {
      // A dynamic group: its source dimension and its first result dimension are dynamic.
      const srcShape = s.factors.map((f, g) => (s.dynamicGroups[g] ? DYNAMIC : f.reduce((a, b) => a * b, 1)));
      const groups: number[][] = [];
      let k = 0;
      for (const f of s.factors) groups.push(f.map(() => k++));
      const resShape = s.factors.flatMap((f, g) => f.map((x, j) => (s.dynamicGroups[g] && j === 0 ? DYNAMIC : x)));
      const src = memrefText(srcShape, s.layout);
      const t = computeExpandedType(typeOf(ctx, src), resShape, groups);
      const res = t ? printType(t) : memrefText(resShape, undefined);
      const out = resShape.map((d) => (d === DYNAMIC ? '%d' : String(d)));
      if (s.wrongShape === 0 && out[0] !== '%d') out[0] = String(Number(out[0]) + 1);
      return `%m = "test.src"() : () -> ${src}\n%d = "test.src"() : () -> index\n%r = memref.expand_shape %m [${groups.map((g) => `[${g.join(', ')}]`).join(', ')}] output_shape [${out.join(', ')}] : ${src} into ${res}`;
    });
    const mlir = theirs(chunks);
    compare(chunks, mlir);
  });

  it('cast compatibility', () => {
    const arb = fc.array(dimArb, { minLength: 1, maxLength: 3 }).chain((shape) =>
      fc.record({
        a: fc.constant(shape),
        b: fc.tuple(...shape.map((d) => fc.oneof(fc.constant(d), fc.constant(DYNAMIC), fc.constant(d + 1)))),
        la: fc.oneof(fc.constant(undefined), stridedArb(shape.length)),
        lb: fc.oneof(fc.constant(undefined), stridedArb(shape.length)),
      }),
    );
    const samples = fc.sample(arb, { seed: SEED + 3, numRuns: 120 });
    const chunks = samples.map((s) => {
      const a = memrefText(s.a, s.la);
      const b = memrefText(s.b, s.lb);
      return `%m = "test.src"() : () -> ${a}\n%r = memref.cast %m : ${a} to ${b}`;
    });
    const mlir = theirs(chunks);
    compare(chunks, mlir);
  });

  it('transpose result types', () => {
    const arb = fc.array(dimArb, { minLength: 2, maxLength: 3 }).chain((shape) =>
      fc.record({
        shape: fc.constant(shape),
        layout: fc.oneof(fc.constant(undefined), stridedArb(shape.length)),
        perm: fc.shuffledSubarray(shape.map((_, i) => i), { minLength: shape.length, maxLength: shape.length }),
        resStrides: stridedArb(shape.length),
        useOurs: fc.boolean(),
      }),
    );
    const samples = fc.sample(arb, { seed: SEED + 4, numRuns: 100 });
    const chunks = samples.map((s) => {
      const src = memrefText(s.shape, s.layout);
      const so = s.layout ?? contiguous(s.shape, 0);
      const lay = s.useOurs ? { strides: s.perm.map((p) => so.strides[p]!), offset: so.offset } : s.resStrides;
      const res = memrefText(s.perm.map((p) => s.shape[p]!), lay);
      const dims = s.shape.map((_, i) => `d${i}`);
      return `%m = "test.src"() : () -> ${src}\n%r = memref.transpose %m (${dims.join(', ')}) -> (${s.perm.map((p) => `d${p}`).join(', ')}) : ${src} to ${res}`;
    });
    const mlir = theirs(chunks);
    compare(chunks, mlir);
  });
});
