import * as fs from 'node:fs';
import * as path from 'node:path';
import { assemble, createBundle, emptyNetworkTable, pimsimDefaultConfig, writeBundle } from '@raptor-pim/pim-target';
import { readNpy, writeNpy } from '@raptor-pim/pim-sim';
import type { CliIo } from '../src/command';
import { simCommand } from '../src/commands/sim';
import { captureIo } from './support/capture-io';
import { temporaryDirectories } from './support/temp-dirs';

/** Runs `raptor sim ...` in-process (argv without the program name, starting with 'sim'). */
function runCli(argv: string[], io: CliIo): Promise<number> {
  expect(argv[0]).toBe('sim');
  return simCommand.run(argv.slice(1), io);
}

const SHARED = process.env.RAPTOR_SHARED ?? path.resolve(__dirname, '../../../../shared');
const EXAMPLE = path.join(SHARED, 'spec/pimsim-nn-example');

const io = captureIo;

/** A fresh temporary directory, removed after the file's tests. */
const tmp = temporaryDirectories('raptor-sim-');

/** A one-core bundle: y = relu(x) + relu(x) over 16 f32 values, x at global 0, y at 4096. */
function writeReluBundle(dir: string, program?: string, more: string[] = []): void {
  const b = createBundle(1 + more.length);
  const text =
    program ??
    `setbw ibiw=32, obiw=32
     sldi r0, 0
     sldi r1, 0
     sldi r2, 0
     ld r2, r0, size=64
     vrelu r2, r2, len=16
     vvadd r2, r2, r2, len=16
     sldi r8, 0
     sldi r9, 4096
     st r8, r2, size=64`;
  b.programs = [text, ...more].map((t) => assemble(t).instructions);
  b.arrayGroupMap = b.programs.map(() => [1]);
  const config = pimsimDefaultConfig();
  config.chip_config.core_cnt = b.coreCount;
  config.sim_config.sim_mode = 1;
  b.target = { config, network: emptyNetworkTable() };
  b.inputs = [{ name: 'x', address: 0, elementType: 'f32', shape: [1, 16] }];
  b.outputs = [{ name: 'model/y', address: 4096, elementType: 'f32', shape: [1, 16] }];
  expect(writeBundle(dir, b).filter((d) => d.severity === 'error')).toEqual([]);
}

describe('raptor sim', () => {
  test('times the pimsim-nn example like pimsim-nn (--json)', async () => {
    const s = io();
    const code = await runCli(['sim', path.join(EXAMPLE, 'prog-pim'), '--config', path.join(EXAMPLE, 'arch/latency_config.json'), '--json'], s);
    expect(s.err).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(s.out);
    expect(report.latencyNs).toBe(5938);
    expect(report.energyPj).toBe(20298);
    expect(report.cores.map((c: { id: number; finishNs: number }) => [c.id, c.finishNs])).toEqual([
      [0, 5938],
      [1, 5930],
    ]);
    expect(report.compatibility.pimsimCompatible).toBe(true);
  });

  test('prints the text report by default and honours --mode throughput', async () => {
    const s = io();
    const code = await runCli(['sim', path.join(EXAMPLE, 'prog-json'), '--config', path.join(EXAMPLE, 'arch/latency_config.json'), '--mode', 'throughput'], s);
    expect(code).toBe(0);
    expect(s.out).toContain('|*************** Simulation Report ***************|');
    expect(s.out).toContain('simulation mode:    0 (throughput)');
    expect(s.out).toContain('Core 1 Information');
  });

  test('reads inputs, writes outputs as .npy, reports and a Chrome trace', async () => {
    const dir = tmp();
    const bundle = path.join(dir, 'model.bundle');
    writeReluBundle(bundle);
    const x = Float32Array.from({ length: 16 }, (_, i) => i - 8);
    const xFile = path.join(dir, 'x.npy');
    fs.writeFileSync(xFile, writeNpy({ dtype: 'f32', shape: [1, 16], data: x }));
    const out = path.join(dir, 'out');
    const trace = path.join(dir, 'trace.json');
    const s = io();
    const code = await runCli(['sim', bundle, '--input', `x=${xFile}`, '--output-dir', out, '--trace', trace, '--json'], s);
    expect(s.err).toBe('');
    expect(code).toBe(0);
    const y = readNpy(fs.readFileSync(path.join(out, 'model_y.npy')));
    expect(y.ok).toBe(true);
    if (!y.ok) return;
    expect(y.array.shape).toEqual([1, 16]);
    expect(Array.from(y.array.data as Float32Array)).toEqual(Array.from(x, (v) => 2 * Math.max(v, 0)));
    const report = JSON.parse(s.out);
    expect(report.outputs).toEqual([{ name: 'model/y', shape: [1, 16], dtype: 'f32', file: path.join(out, 'model_y.npy') }]);
    expect(JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8')).latencyNs).toBe(report.latencyNs);
    expect(fs.readFileSync(path.join(out, 'report.txt'), 'utf8')).toContain('latency:');
    const t = JSON.parse(fs.readFileSync(trace, 'utf8'));
    const names = t.traceEvents.filter((e: { ph: string }) => e.ph === 'X').map((e: { name: string }) => e.name);
    expect(names).toEqual(expect.arrayContaining(['ld', 'vrelu', 'vvadd', 'st']));
    expect(t.traceEvents.some((e: { ph: string; args?: { name?: string } }) => e.ph === 'M' && e.args?.name === 'core 0')).toBe(true);
  });

  test('exit 1 with a clear message on a deadlock', async () => {
    const dir = tmp();
    writeReluBundle(dir, 'setbw ibiw=8, obiw=8\nrecv r0, core=1, size=16\nsend r0, r0, core=1, size=16', [
      'setbw ibiw=8, obiw=8\nrecv r0, core=0, size=16\nsend r0, r0, core=0, size=16',
    ]);
    const s = io();
    const code = await runCli(['sim', dir], s);
    expect(code).toBe(1);
    expect(s.err).toContain('raptor sim: error: deadlock: every unfinished core is blocked');
    expect(s.err).toContain('core 0, pc 1 (recv r0, core=1, size=16) waits for data from core 1');
    expect(s.err).toContain('core 1, pc 1 (recv r0, core=0, size=16) waits for data from core 0');
  });

  test('exit 1 listing the validation errors of an invalid bundle', async () => {
    const bench = path.join(SHARED, 'spec/pimsim-nn-bench/group_oob');
    const s = io();
    expect(await runCli(['sim', path.join(bench, 'prog'), '--config', path.join(bench, 'arch.json')], s)).toBe(1);
    expect(s.err).toBe(
      "core_0.json:instruction 5: error: mvmul references array group 1, but array_group_map.core0 has 1 group(s) (pimsim-nn rejects it)\n" +
        'raptor sim: error: the bundle is invalid (1 error above)\n',
    );
    expect(s.out).toBe('');
  });

  test('a value check failure suggests --timing-only, which then times the program', async () => {
    const bench = path.join(SHARED, 'spec/pimsim-nn-bench/vop_vavg');
    const args = ['sim', path.join(bench, 'prog'), '--config', path.join(bench, 'arch.json')];
    const s = io();
    expect(await runCli(args, s)).toBe(1);
    expect(s.err).toContain('local memory access [4096, 1306625) is out of bounds');
    expect(s.err).toContain('--timing-only times the program without the value checks');
    const t = io();
    expect(await runCli([...args, '--timing-only', '--json'], t)).toBe(0);
    expect(JSON.parse(t.out).latencyNs).toBe(69);
  });

  test('exit 1 on usage errors and unreadable inputs', async () => {
    const cases: [string[], string][] = [
      [['sim'], 'expected exactly one BUNDLE directory'],
      [['sim', '/nonexistent/bundle'], "'/nonexistent/bundle' is not a bundle directory"],
      [['sim', EXAMPLE, '--mode', 'fast'], "--mode must be 'latency' or 'throughput'"],
      [['sim', EXAMPLE, '--input', 'x'], '--input expects NAME=FILE.npy'],
      [['sim', EXAMPLE, '--bogus'], "unknown option '--bogus'"],
      [['sim', EXAMPLE, '--config', '/nonexistent/arch.json'], "cannot use the hardware configuration '/nonexistent/arch.json'"],
    ];
    for (const [args, message] of cases) {
      const s = io();
      expect(await runCli(args, s)).toBe(1);
      expect(s.err).toContain(message);
    }
    const dir = tmp();
    writeReluBundle(dir);
    const bad = path.join(dir, 'bad.npy');
    fs.writeFileSync(bad, 'not numpy');
    const s = io();
    expect(await runCli(['sim', dir, '--input', `x=${bad}`], s)).toBe(1);
    expect(s.err).toContain('invalid .npy file');
  });
});
