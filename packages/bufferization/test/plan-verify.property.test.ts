// fast-check over whole streams: random sets of buffers (size, first and last step) become a
// core stream (a host load at the first step, a host store at the last), go through
// pim-bufferize + pim-plan-memory + pim-verify-memory, and every plan verifies and reaches at
// least its lower bound; moving one allocation onto another one live at the same time, or off
// the alignment, makes pim-verify-memory fail naming both allocations and the shared bytes.
import fc from 'fast-check';
import { DenseArrayAttr, IntegerAttr, IntegerType, type Operation } from '@raptor-pim/ir-core';
import { AllocOp } from '@raptor-pim/upstream-dialects';
import { MemoryPlanAttributes, PimPlanMemoryPass, type ModuleMemoryReport } from '../src';
import { parseOk, runPipeline } from './support/harness';

interface Spec {
  readonly elements: number;
  readonly start: number;
  readonly end: number;
}

const specsArb = fc.array(
  fc.record({ elements: fc.integer({ min: 1, max: 64 }), start: fc.integer({ min: 0, max: 12 }), len: fc.integer({ min: 0, max: 6 }) }),
  { minLength: 1, maxLength: 24 },
).map((xs): Spec[] => xs.map((x) => ({ elements: x.elements, start: x.start, end: x.start + x.len })));

/** A stream holding buffer k from step `start` (host load) to step `end` (host store). */
function streamOf(specs: readonly Spec[]): string {
  const last = specs.reduce((m, s) => Math.max(m, s.end), 0);
  const body: string[] = ['      %c0_0 = arith.constant 0 : index'];
  for (let t = 0; t <= last; t++) {
    specs.forEach((s, k) => {
      if (s.start !== t) return;
      const T = `tensor<1x${s.elements}xf32>`;
      body.push(`      %e${k} = tensor.empty() : ${T}`);
      body.push(`      %l${k} = pim.memcp_hd[%c0_0, %c0_0](%e${k}, %arg0) {size = ${4 * s.elements} : i32} : ${T}, memref<1x64xf32> -> ${T}`);
    });
    specs.forEach((s, k) => {
      if (s.end !== t) return;
      const T = `tensor<1x${s.elements}xf32>`;
      body.push(`      %s${k} = pim.memcp_dh[%c0_0, %c0_0](%out, %l${k}) {size = ${4 * s.elements} : i32} : memref<1x64xf32>, ${T} -> memref<1x64xf32>`);
    });
  }
  return [
    'func.func @main(%arg0: memref<1x64xf32>) -> memref<1x64xf32> {',
    '  %out = memref.alloc() : memref<1x64xf32>',
    '  pim.core [] = [] coreId 3 : [] -> () {',
    ...body,
    '      pim.halt',
    '  }',
    '  return %out : memref<1x64xf32>',
    '}',
  ].join('\n');
}

function allocsOf(module: Operation): Operation[] {
  const out: Operation[] = [];
  module.walk((op) => {
    if (op.definition === AllocOp && op.getDiscardableAttr(MemoryPlanAttributes.address)) out.push(op);
  });
  return out;
}

function recorded(op: Operation): { address: number; start: number; end: number; bytes: number } {
  const live = op.getDiscardableAttr(MemoryPlanAttributes.live) as DenseArrayAttr;
  const [start, end] = (live.values as readonly (number | bigint)[]).map(Number) as [number, number];
  const shape = (op.getResult(0).type as unknown as { shape: readonly number[] }).shape;
  return { address: Number((op.getDiscardableAttr(MemoryPlanAttributes.address) as IntegerAttr).value), start, end, bytes: 4 * shape.reduce((a, b) => a * b, 1) };
}

function setAddress(op: Operation, address: number): void {
  op.setDiscardableAttr(MemoryPlanAttributes.address, IntegerAttr.get(IntegerType.get(op.context, 64), address));
}

describe('plan then verify random streams', () => {
  it('every plan verifies and is never below the lower bound; an overlap or a misalignment put in is reported', () => {
    fc.assert(
      fc.property(specsArb, fc.nat(), (specs, pick) => {
        const module = parseOk(streamOf(specs));
        let report: ModuleMemoryReport | undefined;
        const planned = runPipeline(module, 'pim-bufferize,pim-plan-memory,pim-verify-memory', [() => new PimPlanMemoryPass({ onReport: (r) => (report = r) })]);
        expect(planned.diagnostics.map((d) => d.message)).toEqual([]);
        const stream = report!.streams[0]!;
        expect(stream.peak).toBeGreaterThanOrEqual(stream.lowerBound);
        expect(stream.lowerBound).toBe(
          Math.max(...Array.from({ length: 200 }, (_, t) => allocsOf(module).map(recorded).filter((r) => r.start <= t && t <= r.end).reduce((n, r) => n + r.bytes, 0))),
        );
        // Two allocations live at the same time: put the second onto the first.
        const allocs = allocsOf(module);
        const pairs: [number, number][] = [];
        for (let i = 0; i < allocs.length; i++)
          for (let j = i + 1; j < allocs.length; j++) {
            const a = recorded(allocs[i]!);
            const b = recorded(allocs[j]!);
            if (a.start <= b.end && b.start <= a.end) pairs.push([i, j]);
          }
        if (pairs.length > 0) {
          const [i, j] = pairs[pick % pairs.length]!;
          const a = recorded(allocs[i]!);
          const b = recorded(allocs[j]!);
          setAddress(allocs[j]!, a.address);
          const broken = runPipeline(module, 'pim-verify-memory');
          expect(broken.ok).toBe(false);
          expect(broken.diagnostics.map((d) => d.message)).toContain(
            `core 3: allocation #${i} (memref<1x${a.bytes / 4}xf32>) and allocation #${j} (memref<1x${b.bytes / 4}xf32>) are live at the same time and overlap in bytes [${a.address}, ${a.address + Math.min(a.bytes, b.bytes)})`,
          );
          setAddress(allocs[j]!, b.address);
        }
        const k = pick % allocs.length;
        const r = recorded(allocs[k]!);
        setAddress(allocs[k]!, r.address + 2);
        const misaligned = runPipeline(module, 'pim-verify-memory');
        expect(misaligned.ok).toBe(false);
        expect(misaligned.diagnostics.map((d) => d.message)).toContain(`core 3: allocation #${k} (memref<1x${r.bytes / 4}xf32>) at address ${r.address + 2} is not 4-byte aligned`);
      }),
      { numRuns: 25 },
    );
  });
});
