/**
 * What `raptor compile` and `raptor run` refuse, and that a refusal leaves nothing behind: a
 * model whose weights exceed the target's crossbars, a target whose local memory is too small,
 * a target that disables `vsoftmax` with a softmax model, a broken pipeline string, an unknown
 * scheduler module. Each is exit status 1 with the stage's diagnostic, no bundle directory (nor
 * a temporary `.DIR.partial-*` one), an existing bundle at DIR left as it was, and for
 * `raptor run` no `output_<k>.npy`. mlp compiles in about a second, so every case is cheap.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultTarget, saveTarget, type Target } from '@raptor-pim/pim-target';
import { compileCommand } from '../src/commands/compile';
import { runCommand } from '../src/commands/run';
import { captureIo } from './support/capture-io';
import { temporaryDirectories } from './support/temp-dirs';

jest.setTimeout(60_000);

const SHARED = process.env.RAPTOR_SHARED ?? path.resolve(__dirname, '../../../../shared');
const MLP = path.join(SHARED, 'models/mlp');
const tmp = temporaryDirectories('raptor-refusal-');

/** Writes a target like the defaults (vsoftmax allowed: mlp ends in Softmax) after `edit`, in a directory of its own. */
function targetFile(edit: (t: Target) => void = () => undefined): string {
  const target = defaultTarget();
  target.config.raptor_config.allow_vsoftmax = true;
  edit(target);
  const file = path.join(tmp(), 'config.json');
  saveTarget(target, file);
  return file;
}

interface Refusal {
  /** The compile options of the case (after the model). */
  readonly args: readonly string[];
  /** Substrings the diagnostics on stderr must contain. */
  readonly diagnostics: readonly string[];
}

const REFUSALS: Readonly<Record<string, () => Refusal>> = {
  'weights exceeding the crossbars of the target': () => ({
    args: [
      '--target',
      targetFile((t) => {
        t.config.chip_config.core_cnt = 4;
        t.config.chip_config.network_config.layout = [2, 2];
        t.config.chip_config.core_config.matrix_config.xbar_array_count = 1;
      }),
    ],
    diagnostics: ['spat-schedule: the model needs 8 crossbars for one copy of its weights but the target has 4', 'use a target with more cores or crossbars per core'],
  }),
  'a local memory too small for the live data': () => ({
    args: ['--target', targetFile((t) => void (t.config.chip_config.core_config.local_memory_config.memory_size = 1024))],
    // Refused by the scheduler's local-memory check or by bufferization's memory plan, both naming the setting.
    diagnostics: ['1024 bytes (target chip_config.core_config.local_memory_config.memory_size)'],
  }),
  'a softmax model on a target that disables vsoftmax': () => ({
    args: ['--target', targetFile((t) => void (t.config.raptor_config.allow_vsoftmax = false))],
    diagnostics: ['allow_vsoftmax'],
  }),
  'a broken pipeline string': () => ({
    args: ['--pass-pipeline', 'builtin.module(raptor-compile'],
    diagnostics: ["invalid pipeline 'builtin.module(raptor-compile'"],
  }),
  'an unknown pass in the pipeline': () => ({
    args: ['--pass-pipeline', 'builtin.module(raptor-frontend,spat-shedule,pim-emit)'],
    diagnostics: ["'spat-shedule' does not refer to a registered pass or pass pipeline"],
  }),
  'a pipeline that does not emit a bundle': () => ({
    args: ['--target', targetFile(), '--pass-pipeline', 'builtin.module(raptor-frontend)'],
    diagnostics: ['emitted no bundle (it must end with pim-emit)'],
  }),
  'an unknown scheduler module': () => ({
    args: ['--target', targetFile(), '--scheduler', './no-such-scheduler.mjs'],
    diagnostics: ['no-such-scheduler.mjs', 'spat-schedule'],
  }),
};

describe.each(Object.keys(REFUSALS))('refusal: %s', (name) => {
  test('raptor compile: exit 1, the diagnostic, no bundle and no temporary directory', async () => {
    const refusal = REFUSALS[name]!();
    const dir = tmp();
    const s = captureIo();
    const code = await compileCommand.run([path.join(MLP, 'model.onnx'), '-o', path.join(dir, 'mlp.bundle'), ...refusal.args], s);
    expect(code).toBe(1);
    for (const text of refusal.diagnostics) expect(s.err).toContain(text);
    expect(s.err).toMatch(/raptor compile: .*no bundle written\n$|raptor compile: compilation failed/);
    expect(s.out).toBe('');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  test('raptor compile onto an existing bundle: exit 1, the old bundle is left as it was', async () => {
    const refusal = REFUSALS[name]!();
    const bundle = path.join(tmp(), 'mlp.bundle');
    fs.mkdirSync(bundle);
    fs.writeFileSync(path.join(bundle, 'config.json'), '{"old": true}\n');
    const s = captureIo();
    expect(await compileCommand.run([path.join(MLP, 'model.onnx'), '-o', bundle, ...refusal.args], s)).toBe(1);
    expect(fs.readdirSync(path.dirname(bundle))).toEqual(['mlp.bundle']);
    expect(fs.readdirSync(bundle)).toEqual(['config.json']);
    expect(fs.readFileSync(path.join(bundle, 'config.json'), 'utf8')).toBe('{"old": true}\n');
  });

  test('raptor run: exit 1, the diagnostic, no output written', async () => {
    const refusal = REFUSALS[name]!();
    const out = tmp();
    const s = captureIo();
    const code = await runCommand.run([path.join(MLP, 'model.onnx'), '--input', path.join(MLP, 'input_0.npy'), '--output-dir', out, '--reference-dir', MLP, ...refusal.args], s);
    expect(code).toBe(1);
    for (const text of refusal.diagnostics) expect(s.err).toContain(text);
    expect(s.out).toBe('');
    expect(fs.readdirSync(out)).toEqual([]);
  });
});
