/**
 * The standalone `raptor import` (`dist/import-bin.cjs`, one bundle with the packages a plain
 * import uses inlined), which the launcher runs for arguments without `--run` and
 * `--const-input`: which arguments go there, and, where the CLI is built, that it prints and
 * writes exactly what `runCli` does, with the same messages and exit codes.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { runCli } from '@raptor-pim/cli';
import { IMPORT_FLAGS_BEYOND_PLAIN } from '../src/import/plain-import';
import { captureIo } from './support/capture-io';
import { temporaryDirectories } from './support/temp-dirs';

jest.setTimeout(120_000);

interface StandaloneImport {
  standaloneImportEntry(distDir: string, args: readonly string[], exists: (file: string) => boolean): string | undefined;
  BEYOND_PLAIN_IMPORT: readonly string[];
  SHORT_RUN_V8_FLAGS: string;
  isTunedRuntime(v8Version?: string): boolean;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const launcher = require(path.resolve(__dirname, '../bin/standalone-import.cjs')) as StandaloneImport;

const BIN = path.resolve(__dirname, '../bin/raptor.cjs');
const BUILT = fs.existsSync(path.resolve(__dirname, '../dist/import-bin.cjs'));
const MODELS = path.resolve(__dirname, '../../../../shared/models');
const tmp = temporaryDirectories('raptor-standalone-');

describe('standaloneImportEntry', () => {
  const dist = path.join('pkg', 'dist');
  const bundle = path.join(dist, 'import-bin.cjs');
  const built = (file: string): boolean => file === bundle;

  it('runs a plain import standalone: any options but --run and --const-input, --help, argument errors', () => {
    for (const args of [['import', 'm.onnx'], ['import', 'm.onnx', '-o', 'out.mlir', '--input-shape', 'x=1x3', '--crossbar-size', '64'], ['import', '--help'], ['import'], ['import', '--bogus']]) {
      expect(launcher.standaloneImportEntry(dist, args, built)).toBe(bundle);
    }
  });

  it('leaves --run, --const-input (even as an option value), other commands and an unbuilt bundle to bin.cjs', () => {
    expect(launcher.standaloneImportEntry(dist, ['import', 'm.onnx', '--run', '--input', 'x.npy'], built)).toBeUndefined();
    expect(launcher.standaloneImportEntry(dist, ['import', 'm.onnx', '--const-input', 'w=w.npy'], built)).toBeUndefined();
    expect(launcher.standaloneImportEntry(dist, ['import', 'm.onnx', '-o', '--run'], built)).toBeUndefined();
    for (const args of [['opt', 'm.mlir'], ['compile', 'm.onnx', '-o', 'b'], [], ['--help']]) expect(launcher.standaloneImportEntry(dist, args, built)).toBeUndefined();
    expect(launcher.standaloneImportEntry(dist, ['import', 'm.onnx'], () => false)).toBeUndefined();
  });

  it('tunes V8 only on the V8 it was measured on (Node 20), with flags that Node accepts', () => {
    expect(launcher.isTunedRuntime('11.3.244.8-node.38')).toBe(true);
    expect(launcher.isTunedRuntime('12.4.254.21-node.33')).toBe(false);
    if (launcher.isTunedRuntime()) {
      const r = spawnSync(process.execPath, [...launcher.SHORT_RUN_V8_FLAGS.split(' '), '-e', '0'], { encoding: 'utf8' });
      expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
    }
  });

  it('names the words that the import command handles beyond the plain import', () => {
    expect([...launcher.BEYOND_PLAIN_IMPORT].sort()).toEqual([...IMPORT_FLAGS_BEYOND_PLAIN].sort());
  });
});

/** Runs the built launcher with `args` (its own compile cache in `cache`). */
function launch(args: readonly string[], cache: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, RAPTOR_COMPILE_CACHE: cache } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

(BUILT ? describe : describe.skip)('the built standalone import', () => {
  it('writes what runCli writes, byte for byte, without and then with its code cache (ultraface-slim-320)', async () => {
    const model = path.join(MODELS, 'ultraface-slim-320/model.onnx');
    const expected = captureIo();
    expect(await runCli(['import', model], expected)).toBe(0);
    const cache = tmp();
    for (const run of ['first', 'cached']) {
      const file = path.join(tmp(), 'out.mlir');
      const r = launch(['import', model, '-o', file], cache);
      expect({ run, status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ run, status: 0, stdout: '', stderr: expected.err });
      expect(fs.readFileSync(file, 'utf8') === expected.out).toBe(true);
    }
    // One bundle loaded and cached: the standalone one (the whole CLI loads six). Node 22.1 and
    // later keep their own compile cache instead.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    if (typeof (require('node:module') as { enableCompileCache?: unknown }).enableCompileCache !== 'function') {
      expect(fs.readdirSync(cache).filter((f) => f.endsWith('-import.v8cache'))).toHaveLength(1);
    }
    // Standard output, as `-o -` and without -o.
    for (const args of [['-o', '-'], []]) {
      const r = launch(['import', model, ...args], cache);
      expect(r.status).toBe(0);
      expect(r.stdout === expected.out).toBe(true);
    }
  });

  it('prints the usage, argument errors and read errors that runCli prints, with its exit codes', async () => {
    const cache = tmp();
    const cases = [['import', '--help'], ['import'], ['import', 'a.onnx', '--bogus'], ['import', 'a.onnx', '--crossbar-size', '0'], ['import', path.join(tmp(), 'missing.onnx')]];
    for (const args of cases) {
      const expected = captureIo();
      const code = await runCli(args, expected);
      const r = launch(args, cache);
      expect({ args, status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ args, status: code, stdout: expected.out, stderr: expected.err });
    }
  });

  it('leaves --run to the whole CLI (mlp_batch4 runs and matches its reference)', () => {
    const dir = path.join(MODELS, 'mlp_batch4');
    const r = launch(['import', path.join(dir, 'model.onnx'), '--run', '--input', path.join(dir, 'input_0.npy'), '--output-dir', tmp(), '--reference-dir', dir], tmp());
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/output 0: max \|diff\| vs reference = .*: ok\n$/);
  });
});
