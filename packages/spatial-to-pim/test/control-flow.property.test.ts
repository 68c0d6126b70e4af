// fast-check: random scheduled bodies with static control flow (an scf.for over rows of the
// input with random bounds and step, carrying an accumulator, an scf.if on the induction
// variable choosing between two element-wise ops, optionally inside a grouped
// spat.deferred_communication selecting one of two sources per case) give the Spatial
// interpreter's outputs after spat-to-pim (tensors) and after pim-bufferize + pim-plan-memory
// + pim-verify-memory (memrefs).
import fc from 'fast-check';
import { PassRegistry } from '@raptor-pim/ir-core';
import { registerBufferizationPasses } from '@raptor-pim/bufferization';
import { registerSpatialToPimPasses } from '../src';
import { asBuffers, parseOk, randomInputs, runPim, runPipeline, runSpatial } from './support/harness';

const OPS = ['spat.vadd', 'spat.vmax', 'spat.vsub', 'spat.vmul'] as const;
const PREDICATES = ['slt', 'sge', 'eq', 'ne'] as const;

const programArb = fc.record({
  rows: fc.integer({ min: 1, max: 6 }),
  width: fc.constantFrom(1, 3, 4),
  lb: fc.nat(3),
  trips: fc.nat(4),
  step: fc.integer({ min: 1, max: 3 }),
  pivot: fc.nat(5),
  predicate: fc.nat(3),
  thenOp: fc.nat(3),
  elseOp: fc.nat(3),
  deferred: fc.boolean(),
  core: fc.nat(7),
});

type Program = typeof programArb extends fc.Arbitrary<infer T> ? T : never;

function program(p: Program): string {
  const rows = Math.max(p.rows, p.lb + 1);
  const X = `tensor<${rows}x${p.width}xf32>`;
  const T = `tensor<1x${p.width}xf32>`;
  // Every iteration reads a row inside the input: the bound stops at `rows`.
  const ub = Math.min(rows, p.lb + p.trips * p.step);
  const L = [`func.func @main(%x: ${X}) -> ${T} {`];
  L.push(`  %y = spat.scheduled_compute [] = [] (%a) = (%x) coreId ${p.core} crossbarWeights 0 : [] (${X}) -> ${T} {`);
  L.push(`    %lb = arith.constant ${p.lb} : index`, `    %ub = arith.constant ${ub} : index`, `    %st = arith.constant ${p.step} : index`, `    %pv = arith.constant ${p.pivot} : index`);
  L.push(`    %init = tensor.extract_slice %a[0, 0] [1, ${p.width}] [1, 1] : ${X} to ${T}`);
  L.push(`    %acc = scf.for %i = %lb to %ub step %st iter_args(%s = %init) -> (${T}) {`);
  L.push(`      %row = tensor.extract_slice %a[%i, 0] [1, ${p.width}] [1, 1] : ${X} to ${T}`);
  L.push(`      %c = arith.cmpi ${PREDICATES[p.predicate]}, %i, %pv : index`);
  L.push(`      %t = scf.if %c -> (${T}) {`, `        %u = ${OPS[p.thenOp]} %s, %row : (${T}, ${T}) -> ${T}`, `        scf.yield %u : ${T}`, '      } else {');
  L.push(`        %v = ${OPS[p.elseOp]} %row, %s : (${T}, ${T}) -> ${T}`, `        scf.yield %v : ${T}`, '      }');
  L.push(`      scf.yield %t : ${T}`, '    }');
  let out = '%acc';
  if (p.deferred) {
    L.push(`    %cases = "spat.deferred_communication"(%acc, %init) ({`, `    ^bb0(%s0: ${T}, %s1: ${T}, %case: index):`);
    L.push(`      %sel = spat.deferred_source_select %case of %s0, %s1 : ${T}`, `      spat.yield %sel : ${T}`);
    L.push(`    }) {specialization_count = 2 : i64} : (${T}, ${T}) -> tensor<2x1x${p.width}xf32>`);
    L.push(`    %second = tensor.extract_slice %cases[1, 0, 0] [1, 1, ${p.width}] [1, 1, 1] : tensor<2x1x${p.width}xf32> to tensor<1x1x${p.width}xf32>`);
    L.push(`    %flat = tensor.collapse_shape %second [[0, 1], [2]] : tensor<1x1x${p.width}xf32> into ${T}`);
    L.push(`    %sum = spat.vadd %flat, %acc : (${T}, ${T}) -> ${T}`);
    out = '%sum';
  }
  L.push(`    spat.yield ${out} : ${T}`, '  }', `  return %y : ${T}`, '}');
  return L.join('\n');
}

const register = (r: PassRegistry): void => {
  registerSpatialToPimPasses(r);
  registerBufferizationPasses(r);
};

it('random static control flow: spatial == pim on tensors == pim on planned memrefs', () => {
  fc.assert(
    fc.property(programArb, fc.nat(1000), (p, seed) => {
      const module = parseOk(program(p));
      const inputs = randomInputs(module, 'tensor', seed + 1);
      const expected = runSpatial(module, inputs);
      const a = runPipeline(module, 'spat-to-pim', register);
      expect(a.diagnostics.map((d) => d.message)).toEqual([]);
      expect(runPim(module, asBuffers(inputs))).toEqual(expected);
      const b = runPipeline(module, 'pim-bufferize,pim-plan-memory,pim-verify-memory', register);
      expect(b.diagnostics.map((d) => d.message)).toEqual([]);
      expect(runPim(module, asBuffers(inputs))).toEqual(expected);
    }),
    { numRuns: 40 },
  );
});
