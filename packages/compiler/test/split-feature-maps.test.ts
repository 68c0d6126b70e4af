/**
 * Models whose feature maps do not fit one core's 64 KiB of local memory, end to end on the
 * default target: resnet_mini (32x32 maps of 16-64 channels, `throughput`) and yolo_block
 * (SiLU, Split, Concat, a MaxPool pyramid, Resize and two heads, `layer-sequential`). The
 * scheduler splits their computes over more cores, each replica holding only the windows it
 * reads and its own result slots; spat-tile-parallel-computes first turns yolo_block's whole-map
 * Split and Concat computes into lane batches; and mobilenet_block (32x32 maps of 64 channels,
 * hard-swish, squeeze-excitation, `layer-sequential`: 285 host slots, whose readers of many
 * writer replicas share one READY register per producer result). The bundle pim-sim runs must
 * compute what onnxruntime computes. One strategy per model keeps the test bounded (about 10 s each); the
 * compile benchmark (`tools/bench/compile`) runs the others.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { simulateBundle } from '@raptor-pim/pim-sim';
import { defaultTarget } from '@raptor-pim/pim-target';
import { builtinScheduler } from '@raptor-pim/scheduler';
import { compile, formatCompileDiagnostic } from '@raptor-pim/compiler';
import { conformanceRatio } from './support/conformance-compile';
import { modelDir, readModel, readNpyTensor } from './support/models';

jest.setTimeout(300_000);

const CASES = [
  { name: 'resnet_mini', strategy: 'throughput' },
  { name: 'yolo_block', strategy: 'layer-sequential' },
  { name: 'mobilenet_block', strategy: 'layer-sequential' },
] as const;

describe.each(CASES)('$name with $strategy on the default 64 KiB target', ({ name, strategy }) => {
  test('compiles with computes split over cores and simulates to onnxruntime outputs', () => {
    const dir = modelDir(name);
    const input = readNpyTensor(path.join(dir, 'input_0.npy'));
    const target = defaultTarget();
    const r = compile(readModel(name), { target, scheduler: builtinScheduler(strategy)! });
    expect(r.diagnostics.filter((d) => d.severity === 'error').map(formatCompileDiagnostic)).toEqual([]);

    // Some compute runs on more cores than one: the memory split, not weight replication, forces it.
    const layers = r.report.schedule?.functions[0]?.layers ?? [];
    expect(layers.some((l) => l.replicas > 1)).toBe(true);
    for (const c of r.report.schedule!.functions[0]!.cores) {
      expect(c.peakLocalBytes).toBeLessThanOrEqual(target.config.chip_config.core_config.local_memory_config.memory_size);
    }

    const bundle = r.bundle!;
    const sim = simulateBundle(bundle, { mode: 'latency', inputs: { [bundle.inputs[0]!.name]: { dtype: 'f32', shape: [...bundle.inputs[0]!.shape], data: input.data } } });
    expect(sim.error?.message).toBeUndefined();
    const outputs = fs.readdirSync(dir).filter((f) => /^output_\d+\.npy$/.test(f)).sort();
    expect(sim.outputs.length).toBe(outputs.length);
    outputs.forEach((file, k) => {
      const reference = readNpyTensor(path.join(dir, file));
      const got = Float32Array.from(sim.outputs[k]!.array.data as ArrayLike<number>);
      expect([name, file, conformanceRatio(got, reference.data) <= 1]).toEqual([name, file, true]);
    });
  });
});

// The schedule's local-memory model is a promise the bufferized program must keep: with 32 KiB
// per core, yolo_block's max-pool pyramid makes 25 window slices per output strip, which the
// scheduler counts as temporaries next to their users. The scheduled bodies place them there
// (sinkViewsToFirstUse); made all before the maxima, the copies were live together and
// pim-plan-memory refused the program (48,896 B on one core).
describe('yolo_block with layer-sequential on 32 KiB of local memory per core', () => {
  test('every core stream fits after bufferization and the bundle computes the onnxruntime outputs', () => {
    const dir = modelDir('yolo_block');
    const input = readNpyTensor(path.join(dir, 'input_0.npy'));
    const target = defaultTarget();
    target.config.chip_config.core_config.local_memory_config.memory_size = 32 * 1024;
    const r = compile(readModel('yolo_block'), { target, scheduler: builtinScheduler('layer-sequential')! });
    expect(r.diagnostics.filter((d) => d.severity === 'error').map(formatCompileDiagnostic)).toEqual([]);
    const planned = r.report.stages.flatMap((s) => s.passes).find((p) => p.pass === 'pim-plan-memory');
    expect(planned?.statistics?.['max-peak-bytes']).toBeLessThanOrEqual(32 * 1024);

    const bundle = r.bundle!;
    const sim = simulateBundle(bundle, { mode: 'latency', inputs: { [bundle.inputs[0]!.name]: { dtype: 'f32', shape: [...bundle.inputs[0]!.shape], data: input.data } } });
    expect(sim.error?.message).toBeUndefined();
    const outputs = fs.readdirSync(dir).filter((f) => /^output_\d+\.npy$/.test(f)).sort();
    outputs.forEach((file, k) => {
      const reference = readNpyTensor(path.join(dir, file));
      const got = Float32Array.from(sim.outputs[k]!.array.data as ArrayLike<number>);
      expect([file, conformanceRatio(got, reference.data) <= 1]).toEqual([file, true]);
    });
  });
});
