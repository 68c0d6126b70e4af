// fast-check: random channelized pipelines (a chain of element-wise ops per core, values sent
// core to core, earlier values reused later) give the Spatial interpreter's outputs after
// spat-to-pim (tensors) and after pim-bufferize + pim-plan-memory + pim-verify-memory (memrefs).
import fc from 'fast-check';
import { PassRegistry } from '@raptor-pim/ir-core';
import { registerBufferizationPasses } from '@raptor-pim/bufferization';
import { registerSpatialToPimPasses } from '../src';
import { asBuffers, parseOk, randomInputs, runPim, runPipeline, runSpatial } from './support/harness';

const UNARY = ['spat.relu', 'spat.sigmoid'] as const;
const BINARY = ['spat.vadd', 'spat.vsub', 'spat.vmul', 'spat.vmax'] as const;

interface Step {
  readonly unary: boolean;
  readonly op: number;
  readonly other: number; // index of an earlier value for binary ops
}

const stepArb = fc.record({ unary: fc.boolean(), op: fc.nat(3), other: fc.nat(20) });
const programArb = fc.record({
  width: fc.constantFrom(1, 4, 6),
  stages: fc.array(fc.array(stepArb, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 4 }),
  cores: fc.shuffledSubarray([0, 1, 2, 3, 4, 5, 6, 7], { minLength: 4, maxLength: 4 }),
});

function program(width: number, stages: readonly (readonly Step[])[], cores: readonly number[]): string {
  const T = `tensor<1x${width}xf32>`;
  const lines: string[] = [`func.func @main(%x: ${T}) -> ${T} {`];
  for (const c of new Set([0, ...cores])) lines.push(`  %c${c} = arith.constant ${c} : index`);
  stages.forEach((steps, k) => {
    const core = cores[k]!;
    const last = k === stages.length - 1;
    const vals: string[] = ['%a'];
    const body: string[] = [];
    if (k > 0) {
      body.push(`    %in = spat.channel_receive channel %c0 from %c${cores[k - 1]} to %c${core} : ${T}`);
      body.push(`    %mix = spat.vadd %in, %a : (${T}, ${T}) -> ${T}`);
      vals.push('%in', '%mix');
    }
    steps.forEach((s, i) => {
      const cur = vals[vals.length - 1]!;
      const name = `%v${i}`;
      if (s.unary) body.push(`    ${name} = ${UNARY[s.op % UNARY.length]}(${cur}) : ${T} -> ${T}`);
      else body.push(`    ${name} = ${BINARY[s.op % BINARY.length]} ${cur}, ${vals[s.other % vals.length]} : (${T}, ${T}) -> ${T}`);
      vals.push(name);
    });
    const result = vals[vals.length - 1]!;
    if (!last) body.push(`    spat.channel_send ${result} channel %c0 from %c${core} to %c${cores[k + 1]} : ${T}`);
    body.push(last ? `    spat.yield ${result} : ${T}` : '    spat.yield');
    const res = last ? T : '()';
    lines.push(`  ${last ? '%y = ' : ''}spat.scheduled_compute [] = [] (%a) = (%x) coreId ${core} crossbarWeights 0 : [] (${T}) -> ${res} {`);
    lines.push(...body, '  }');
  });
  lines.push(`  return %y : ${T}`, '}');
  return lines.join('\n');
}

/** Equal up to f32 rounding of transcendental ops and the sign of zero (the two interpreters' kernels differ there). */
function expectClose(actual: number[][], expected: number[][]): void {
  expect(actual.length).toBe(expected.length);
  actual.forEach((row, i) =>
    row.forEach((v, j) => {
      const e = expected[i]![j]!;
      if (Math.abs(v - e) > 1e-6 * Math.max(1, Math.abs(e))) expect(row).toEqual(expected[i]);
    }),
  );
}

const register = (r: PassRegistry): void => {
  registerSpatialToPimPasses(r);
  registerBufferizationPasses(r);
};

it('random pipelines: spatial == pim on tensors == pim on planned memrefs', () => {
  fc.assert(
    fc.property(programArb, fc.nat(1000), ({ width, stages, cores }, seed) => {
      const text = program(width, stages, cores);
      const module = parseOk(text);
      const inputs = randomInputs(module, 'tensor', seed + 1);
      const expected = runSpatial(module, inputs);
      const a = runPipeline(module, 'spat-to-pim', register);
      expect(a.diagnostics.map((d) => d.message)).toEqual([]);
      expectClose(runPim(module, asBuffers(inputs)), expected);
      const b = runPipeline(module, 'pim-bufferize,pim-plan-memory,pim-verify-memory', register);
      expect(b.diagnostics.map((d) => d.message)).toEqual([]);
      expectClose(runPim(module, asBuffers(inputs)), expected);
    }),
    { numRuns: 40 },
  );
});
