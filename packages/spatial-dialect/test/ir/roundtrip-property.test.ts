/**
 * Property tests (fast-check) of the custom assembly: random element-wise programs, concat
 * with repeated and mixed input types (compact `T xN` lists), extract_rows of random heights,
 * blueprints with permuted slots and graph batches with random lane counts and core lists
 * print back exactly as written (up to SSA names), and survive custom -> generic -> custom.
 */
import fc from 'fast-check';
import { SEED } from '../kernels/support/unwrap';
import { parseVerified, printCustom, printGeneric } from './helpers';

const ty = (s: readonly number[]) => `tensor<${s.join('x')}xf32>`;

/** Normalizes SSA names by order of first appearance and trims lines. */
function normalize(text: string): string {
  const ids = new Map<string, string>();
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('func.func') && !l.startsWith('return') && l !== '}' && !l.startsWith('module'))
    .join('\n')
    .replace(/%[A-Za-z_0-9$.-]+/g, (n) => {
      if (!ids.has(n)) ids.set(n, `%v${ids.size}`);
      return ids.get(n)!;
    });
}

function check(text: string): void {
  const m = parseVerified(text);
  const custom = printCustom(m);
  expect(normalize(custom)).toBe(normalize(text));
  expect(printCustom(parseVerified(printGeneric(m)))).toBe(custom);
}

const dims = fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 4 });

describe('custom assembly round trips (fast-check)', () => {
  it('element-wise chains', () => {
    fc.assert(
      fc.property(dims, fc.array(fc.constantFrom('relu', 'sigmoid', 'softmax', 'vadd', 'vsub', 'vmul', 'vmax'), { minLength: 1, maxLength: 6 }), (shape, ops) => {
        const t = ty(shape);
        const lines = ops.map((op, i) => {
          const prev = i === 0 ? '%x' : `%v${i - 1}`;
          return ['relu', 'sigmoid', 'softmax'].includes(op)
            ? `  %v${i} = spat.${op}(${prev}) : ${t} -> ${t}`
            : `  %v${i} = spat.${op} ${prev}, %x : (${t}, ${t}) -> ${t}`;
        });
        check(`func.func @f(%x: ${t}) -> ${t} {\n${lines.join('\n')}\n  return %v${ops.length - 1} : ${t}\n}`);
      }),
      { numRuns: 60, seed: SEED },
    );
  });

  it('concat with compact type runs and extract_rows of random heights', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 5 }), (widths, rows) => {
        const args = widths.map((w, i) => `%a${i}: ${ty([rows, w])}`).join(', ');
        const runs: string[] = [];
        for (let i = 0; i < widths.length; ) {
          let j = i;
          while (j < widths.length && widths[j] === widths[i]) j++;
          runs.push(j - i > 1 ? `${ty([rows, widths[i]!])} x${j - i}` : ty([rows, widths[i]!]));
          i = j;
        }
        const total = widths.reduce((a, b) => a + b, 0);
        const rowType = ty([1, total]);
        const results = rows > 1 ? `${rowType} x${rows}` : rowType;
        const text = `func.func @f(${args}) {
  %c = spat.concat axis 1 ${widths.map((_, i) => `%a${i}`).join(', ')} : (${runs.join(', ')}) -> ${ty([rows, total])}
  %r${rows > 1 ? `:${rows}` : ''} = spat.extract_rows %c : ${ty([rows, total])} -> ${results}
  return
}`;
        check(text);
      }),
      { numRuns: 60, seed: SEED },
    );
  });

  it('blueprints with permuted source slots', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 1000 }), (slots, width, seed) => {
        const perm = Array.from({ length: slots }, (_, i) => i);
        for (let i = slots - 1; i > 0; i--) {
          const j = (seed * (i + 7)) % (i + 1);
          [perm[i], perm[j]] = [perm[j]!, perm[i]!];
        }
        const offsets = perm.flatMap((_, k) => [0, k * width]);
        const sizes = perm.flatMap(() => [1, width]);
        const text = `func.func @f(%y: ${ty([slots, 1, width])}) {
  %l = spat.blueprint fragments(%y) layout nchw physical fragmented offsets [${offsets.join(', ')}] sizes [${sizes.join(', ')}] map explicit mode fragment_assembly operandIndices [${perm.map(() => 0).join(', ')}] sourceSlots [${perm.join(', ')}] sourceOffsets [${perm.map(() => 0).join(', ')}] strides [${sizes.map(() => 1).join(', ')}] conflict disjoint coverage complete : (${ty([slots, 1, width])}) -> ${ty([1, slots * width])}
  return
}`;
        check(text);
      }),
      { numRuns: 40, seed: SEED },
    );
  });

  it('graph batches with random lane counts and core lists', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 20 }), fc.boolean(), (lanes, width, firstCore, withCores) => {
        // canonical core lists: a range only for runs of 3+ (the reference prints `coreIds [0, 1]`)
        const coreList = Array.from({ length: lanes }, (_, k) => firstCore + k);
        const cores = withCores ? ` coreIds [${lanes >= 3 ? `${firstCore} to ${firstCore + lanes - 1}` : coreList.join(', ')}]` : '';
        const text = `func.func @f(%x: ${ty([1, lanes * width])}) {
  %y = spat.graph_compute_batch %lane = 0 to ${lanes} [] = [] (%arg) = (%x) shared_outs(%out)${cores} crossbarWeights 0 : [] (${ty([1, lanes * width])}) -> ${ty([lanes, 1, width])} {
    %o = affine.apply affine_map<(d0) -> (${width > 1 ? `d0 * ${width}` : "d0"})>(%lane)
    %e = tensor.extract_slice %arg[0, %o] [1, ${width}] [1, 1] : ${ty([1, lanes * width])} to ${ty([1, width])}
    %v = spat.sigmoid(%e) : ${ty([1, width])} -> ${ty([1, width])}
    spat.in_parallel {
      tensor.parallel_insert_slice %v into %out[%lane, 0, 0] [1, 1, ${width}] [1, 1, 1] : ${ty([1, width])} into ${ty([lanes, 1, width])}
    }
  }
  return
}`;
        check(text);
      }),
      { numRuns: 40, seed: SEED },
    );
  });

  it('graph_compute with weights, optional coreId and a derived crossbarWeights count', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3 }), fc.option(fc.integer({ min: 0, max: 64 }), { nil: undefined }), (usedWeights, coreId) => {
        const consts = Array.from({ length: 3 }, (_, k) => `  %w${k} = arith.constant dense<${k + 1}.000000e+00> : tensor<4x4xf32>`);
        const wargs = ['%warg', '%warg_0', '%warg_1'];
        const body = Array.from({ length: usedWeights }, (_, k) => `    %p${k} = spat.wvmm[${wargs[k]}](%arg) : (tensor<4x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>`);
        const result = usedWeights ? `%p${usedWeights - 1}` : '%arg';
        const text = `func.func @f(%x: tensor<1x4xf32>) {
${consts.join('\n')}
  %y = spat.graph_compute [${wargs.join(', ')}] = [%w0, %w1, %w2] (%arg) = (%x)${coreId === undefined ? '' : ` coreId ${coreId}`} crossbarWeights ${usedWeights} : [tensor<4x4xf32> x3] (tensor<1x4xf32>) -> tensor<1x4xf32> {
${body.length ? body.join('\n') + '\n' : ''}    spat.yield ${result} : tensor<1x4xf32>
  }
  return
}`;
        check(text);
      }),
      { numRuns: 30, seed: SEED },
    );
  });
});
