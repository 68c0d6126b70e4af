// pim-verify-memory rejects every broken rule (expected-error cases split by `// -----`), and a
// stream whose live data exceeds the local memory fails pim-plan-memory with core, peak and
// capacity.
import * as path from 'node:path';
import { defaultTarget } from '@raptor-pim/pim-target';
import { describeExpectedDiagnostics, passPipelineRunner } from '../../../tools/test-support/expected-diagnostics';
import { PimPlanMemoryPass, TargetKey, registerBufferizationPasses } from '../src';
import { FIXTURES, makeContext, runPipeline, parseOk } from './support/harness';

describeExpectedDiagnostics('verify-memory-invalid.mlir', path.join(FIXTURES, 'verify-memory-invalid.mlir'), {
  makeContext,
  run: passPipelineRunner('builtin.module(pim-verify-memory)', registerBufferizationPasses),
  checkOutcome: true,
});

it('live data beyond the local memory is a diagnostic naming the core, the peak and the capacity', () => {
  const text = `func.func @main(%arg0: memref<64x160xf32>) {
  pim.core [] = [] coreId 7 : [] -> () {
    %c0 = arith.constant 0 : index
    %a = memref.alloc() : memref<64x160xf32>
    %b = memref.alloc() : memref<64x160xf32>
    %0 = pim.memcp_hd[%c0, %c0](%a, %arg0) {size = 40960 : i32} : memref<64x160xf32>, memref<64x160xf32> -> memref<64x160xf32>
    %1 = pim.vrelu(%a, %b) : (memref<64x160xf32>, memref<64x160xf32>) -> memref<64x160xf32>
    pim.halt
  }
  return
}`;
  const module = parseOk(text);
  const r = runPipeline(module, 'pim-plan-memory', [() => new PimPlanMemoryPass()]);
  expect(r.ok).toBe(false);
  expect(r.diagnostics.map((d) => d.message)).toEqual([
    'core 7: live data needs 81920 bytes at op #2 but the local memory holds 65536 bytes (target chip_config.core_config.local_memory_config.memory_size); the schedule must keep less data live on this core',
  ]);
  // Nothing is placed for such a stream (placement is quadratic in the buffers live together).
  const allocs: string[] = [];
  module.walk((op) => {
    if (op.name === 'memref.alloc') allocs.push(op.getDiscardableAttr('pim.address') === undefined ? 'unplaced' : 'placed');
  });
  expect(allocs).toEqual(['unplaced', 'unplaced']);
  void defaultTarget;
  void TargetKey;
});
