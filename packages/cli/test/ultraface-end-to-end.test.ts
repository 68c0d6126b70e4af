/**
 * ultraface-slim-320 (a face detector: 19 depthwise convolutions over maps up to 160 x 120 x 32,
 * two outputs) end to end on the default target with one strategy, bounded: `raptor run
 * --scheduler layer-sequential` in a Node process of its own run from the sources
 * (support/run-cli-from-sources.ts), compared with onnxruntime's outputs. It needs the depthwise
 * convolutions as channel blocks (plan lowering) split into column parts (the scheduler), and
 * layer barriers where its ~100 layers on ~60 cores each would take more event registers than a
 * core has; about 3 minutes on the shared 2-core machine. The other strategies are measured by
 * `tools/bench/compile`. Skipped when the shared models are not beside the repository.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCliFromSources } from './support/run-cli-from-sources';
import { temporaryDirectories } from './support/temp-dirs';

const SHARED = process.env.RAPTOR_SHARED ?? path.resolve(__dirname, '../../../../shared');
const MODEL = path.join(SHARED, 'models/ultraface-slim-320');
const available = fs.existsSync(path.join(MODEL, 'model.onnx'));

const tmp = temporaryDirectories('raptor-ultraface-');

(available ? describe : describe.skip)('ultraface-slim-320 end to end (layer-sequential)', () => {
  test("raptor run: pim-sim gives onnxruntime's scores and boxes", () => {
    const dir = tmp();
    const run = runCliFromSources([
      'run',
      path.join(MODEL, 'model.onnx'),
      '--input',
      path.join(MODEL, 'input_0.npy'),
      '--reference-dir',
      MODEL,
      '--output-dir',
      dir,
      '--scheduler',
      'layer-sequential',
      '--json',
    ]);
    expect(run.status).toBe(0);
    const result = JSON.parse(run.stdout) as { ok: boolean; cores: number; outputs: { name: string; shape: number[]; matches?: boolean; maxAbsDiff?: number }[] };
    expect(result.ok).toBe(true);
    expect(result.cores).toBe(64);
    expect(result.outputs.map((o) => [o.name, o.shape, o.matches])).toEqual([
      ['scores', [1, 4420, 2], true],
      ['boxes', [1, 4420, 4], true],
    ]);
  }, 1_800_000);
});
