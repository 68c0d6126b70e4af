/**
 * Differential tests at every stage boundary, in one place: `raptor-compile` runs on a shared
 * model with the IR printed after every pass; each printed module is parsed back and
 * interpreted (every IR level is executable: spat and pim register interpreter rules) on the
 * model's input, and its output must equal onnxruntime's `output_0.npy` within onnx-frontend's
 * conformance tolerance. The bundle `pim-emit` produced is then simulated by pim-sim against
 * the same reference. A wrong pass is named by the failing assertion (`[model, pass]`).
 *
 * mlp, lenet5 and mnist-8: the models small enough to interpret after every pass (13 s for the
 * three at 42c2692, mostly lenet5's and mnist-8's interpretation; it took up to 3 min of wall
 * time on the loaded machine with the larger IR of earlier stages). A printed module equal to
 * the previous one is not interpreted again.
 */
import * as path from 'node:path';
import { parseSourceString } from '@raptor-pim/ir-core';
import { simulateBundle } from '@raptor-pim/pim-sim';
import { defaultTarget } from '@raptor-pim/pim-target';
import { RAPTOR_STAGES, compile, createRaptorContext, formatCompileDiagnostic, interpretFunction } from '@raptor-pim/compiler';
import { conformanceRatio } from './support/conformance-compile';
import { modelDir, readModel, readNpyTensor } from './support/models';

jest.setTimeout(420_000);

/** Every pass name of `raptor-compile`, in order (the elements of every stage, without the `func.func` anchors). */
const PASSES = RAPTOR_STAGES.flatMap((s) => [...s.pipeline.matchAll(/([a-z][\w-]*)(?=[,){]|$)/g)].map((m) => m[1]!)).filter((p) => p !== 'func');

/** The models of this test; `softmax` when the model ends in Softmax (the default target refuses `vsoftmax`, pimsim-nn lacks it). */
const MODELS: readonly { name: string; softmax: boolean }[] = [
  { name: 'mlp', softmax: true },
  { name: 'lenet5', softmax: false },
  { name: 'mnist-8', softmax: false },
];

describe.each(MODELS)('raptor-compile on $name: the module after every pass and the bundle compute what onnxruntime computes', ({ name, softmax }) => {
  const input = readNpyTensor(path.join(modelDir(name), 'input_0.npy'));
  const reference = readNpyTensor(path.join(modelDir(name), 'output_0.npy'));

  test('every pass', () => {
    const target = defaultTarget();
    target.config.raptor_config.allow_vsoftmax = softmax;
    const r = compile(readModel(name), { target, dumpAfter: [...new Set(PASSES)] });
    expect(r.diagnostics.filter((d) => d.severity === 'error').map(formatCompileDiagnostic)).toEqual([]);
    expect(r.dumps.map((d) => d.pass)).toEqual(PASSES);

    let previous = '';
    const checked: string[] = [];
    for (const dump of r.dumps) {
      if (dump.ir === previous) continue;
      previous = dump.ir;
      const ctx = createRaptorContext();
      const parsed = ctx.diagnostics.capture(() => parseSourceString(ctx, dump.ir));
      expect([dump.pass, parsed.diagnostics.map((d) => d.message)]).toEqual([dump.pass, []]);
      const out = interpretFunction(parsed.result!, 'main', [input]);
      const outcome = out.ok ? { shape: out.outputs[0]!.shape, withinTolerance: conformanceRatio(out.outputs[0]!.data, reference.data) <= 1 } : out.diagnostics.map((d) => d.message);
      expect([name, dump.pass, outcome]).toEqual([name, dump.pass, { shape: reference.shape, withinTolerance: true }]);
      checked.push(dump.pass);
    }
    // Every stage changed the module at least once, so each stage's output was interpreted.
    expect(checked.length).toBeGreaterThanOrEqual(RAPTOR_STAGES.filter((s) => s.pipeline !== '').length - 1);

    // The last boundary: the emitted bundle on pim-sim.
    const bundle = r.bundle!;
    const sim = simulateBundle(bundle, { mode: 'latency', inputs: { [bundle.inputs[0]!.name]: { dtype: 'f32', shape: [...bundle.inputs[0]!.shape], data: input.data } } });
    expect([name, 'pim-sim', sim.error?.message]).toEqual([name, 'pim-sim', undefined]);
    const got = Float32Array.from(sim.outputs[0]!.array.data as ArrayLike<number>);
    expect([name, 'pim-sim', conformanceRatio(got, reference.data) <= 1]).toEqual([name, 'pim-sim', true]);
  });
});
