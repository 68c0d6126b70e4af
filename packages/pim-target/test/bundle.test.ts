import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  createBundle,
  decodePimb,
  defaultHardwareConfig,
  encodePimb,
  formatDiagnostic,
  loadBundle,
  loadBundleFiles,
  loadTarget,
  makeInstruction,
  readBundle,
  readBundleFiles,
  validateBundle,
  writeBundle,
  writeBundleFiles,
  type Target,
  type TargetDiagnostic,
} from '@raptor-pim/pim-target';
import { BENCH_DIR, EXAMPLE_DIR, describeShared, program, readDirFiles, sampleBundle } from './helpers';

const text = (s: string): Uint8Array => new TextEncoder().encode(s);

function codes(ds: readonly TargetDiagnostic[]): string[] {
  return ds.map((d) => d.code);
}

/** Files of a valid one-core bundle, with `changes` applied (undefined deletes a file). */
function oneCore(changes: Record<string, string | Uint8Array | undefined> = {}): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>([
    ['config.json', text('{"core_cnt": 1, "array_group_map": {"core0": [1]}}')],
    ['core_0.pim', encodePimb(program('setbw ibiw=8, obiw=8\nsldi r1, 0\nvrelu r1, r1, len=4\n')).bytes!],
  ]);
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) files.delete(name);
    else files.set(name, typeof value === 'string' ? text(value) : value);
  }
  return files;
}

function pimOf(source: string): Uint8Array {
  return encodePimb(program(source)).bytes!;
}

describe('bundle writer and reader', () => {
  test('write -> read gives the same bundle; writing is deterministic', () => {
    const bundle = sampleBundle();
    const written = writeBundleFiles(bundle, { json: true });
    expect(written.diagnostics).toEqual([]);
    expect([...written.files!.keys()]).toEqual([
      'config.json',
      'core_0.pim',
      'core_0.json',
      'core_1.pim',
      'core_1.json',
      'network.json',
      'memory.bin',
      'weights.bin',
      'manifest.json',
    ]);
    const read = readBundleFiles(written.files!);
    expect(read.diagnostics).toEqual([]);
    const back = read.value!;
    expect(back.programs).toEqual(bundle.programs);
    expect(back.arrayGroupMap).toEqual(bundle.arrayGroupMap);
    expect(back.inputs).toEqual(bundle.inputs);
    expect(back.outputs).toEqual(bundle.outputs);
    expect(back.memoryImage).toEqual(bundle.memoryImage);
    expect(back.producer).toBe(bundle.producer);
    expect(back.target!.network).toEqual(bundle.target!.network);
    expect({ ...back.target!.config, chip_config: { ...back.target!.config.chip_config, network_config: null } }).toEqual({
      ...bundle.target!.config,
      chip_config: { ...bundle.target!.config.chip_config, network_config: null },
    });
    const sortedWeights = [...bundle.weights].sort((a, b) => a.core - b.core);
    expect(back.weights.map((w) => ({ ...w, data: Array.from(w.data) }))).toEqual(
      sortedWeights.map((w) => ({ ...w, data: Array.from(w.data) })),
    );
    const again = writeBundleFiles(back, { json: true }).files!;
    for (const [name, bytes] of written.files!) expect({ name, same: Buffer.from(again.get(name)!).equals(Buffer.from(bytes)) }).toEqual({ name, same: true });
    expect(validateBundle(back)).toEqual({ diagnostics: [], errorCount: 0, pimsimCompatible: true });
  });

  test('the manifest layout (golden)', () => {
    const manifest = new TextDecoder().decode(writeBundleFiles(sampleBundle()).files!.get('manifest.json')!);
    const parsed = JSON.parse(manifest);
    expect(Object.keys(parsed)).toEqual(['format', 'format_version', 'producer', 'target', 'inputs', 'outputs', 'memory', 'weights']);
    expect(parsed.format).toBe('raptor-pim-bundle');
    expect(parsed.format_version).toBe(1);
    expect(parsed.target.chip_config.network_config.net_config_file_path).toBe('network.json');
    expect(parsed.inputs).toEqual([{ name: 'x', address: 0, element_type: 'f32', shape: [1, 32] }]);
    expect(parsed.memory).toEqual({ file: 'memory.bin', size: 128 });
    expect(parsed.weights).toEqual({
      file: 'weights.bin',
      entries: [
        { core: 0, group: 0, rows: 3, cols: 1, element_type: 'i8', offset: 0, size: 3 },
        { core: 1, group: 1, rows: 4, cols: 2, element_type: 'f32', offset: 8, size: 32 },
      ],
    });
  });

  test('a bundle without target or data is a plain pimsim-nn directory', () => {
    const bundle = createBundle(1);
    bundle.arrayGroupMap = [[1]];
    bundle.programs[0] = program('setbw ibiw=8, obiw=8\nsync ev=0, core=0\n');
    expect([...writeBundleFiles(bundle).files!.keys()]).toEqual(['config.json', 'core_0.pim']);
  });

  test('writeBundle/readBundle on disk; stale core files of a bigger bundle are removed', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-bundle-'));
    try {
      const big = createBundle(3);
      big.arrayGroupMap = [[1], [1], [1]];
      big.programs = [0, 1, 2].map(() => program('setbw ibiw=8, obiw=8\nsync ev=0, core=0\n'));
      expect(writeBundle(dir, big, { json: true })).toEqual([]);
      fs.writeFileSync(path.join(dir, 'notes.txt'), 'kept');
      expect(writeBundle(dir, sampleBundle())).toEqual([]);
      expect(fs.readdirSync(dir).sort()).toEqual(
        ['config.json', 'core_0.pim', 'core_1.pim', 'manifest.json', 'memory.bin', 'network.json', 'notes.txt', 'weights.bin'].sort(),
      );
      const loaded = loadBundle(dir);
      expect(loaded.diagnostics).toEqual([]);
      expect(loaded.pimsimCompatible).toBe(true);
      expect(loaded.bundle!.programs).toEqual(sampleBundle().programs);
      expect(readBundle(path.join(dir, 'missing')).diagnostics[0]!.code).toBe('file-read');
      // Symbolic links to regular files count as files (pimsim-nn follows them too).
      const linked = path.join(dir, 'linked');
      fs.mkdirSync(linked);
      for (const name of ['config.json', 'core_0.pim', 'core_1.pim']) fs.symlinkSync(path.join(dir, name), path.join(linked, name));
      fs.mkdirSync(path.join(linked, 'core_9.pim')); // a directory named like a core file is ignored
      expect(loadBundle(linked).diagnostics).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a writer given an unencodable program writes nothing and says why', () => {
    const bundle = createBundle(1);
    bundle.arrayGroupMap = [[1]];
    bundle.programs[0] = [makeInstruction('sldi', { rd: 1, imm: 2 ** 40 })];
    const result = writeBundleFiles(bundle);
    expect(result.files).toBeUndefined();
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      "core_0.pim:instruction 0: error: field 'imm' = 1099511627776 does not fit its PIMB slot (-2147483648..2147483647)",
    ]);
  });
});

describe('bundle validation: each rejected kind names the file and the instruction', () => {
  const check = (files: Map<string, Uint8Array>, target?: Target) => {
    const loaded = loadBundleFiles(files, target ? { target } : {});
    return loaded.diagnostics.map(formatDiagnostic);
  };
  const target: Target = { config: defaultHardwareConfig(), network: { latency: new Map(), energy: new Map() } };

  test('a valid one-core bundle has no diagnostics', () => {
    expect(check(oneCore(), target)).toEqual([]);
  });
  test('bad magic', () => {
    expect(check(oneCore({ 'core_0.pim': 'PIMX\u0001\u0000\u0000\u0000\u0000\u0000\u0000\u0000' }))).toEqual([
      'core_0.pim:byte 0: error: invalid PIM binary magic 50 49 4d 58, expected "PIMB" (50 49 4d 42)',
    ]);
  });
  test('bad version', () => {
    const bytes = oneCore().get('core_0.pim')!.slice();
    bytes[4] = 7;
    expect(check(oneCore({ 'core_0.pim': bytes }))).toEqual(['core_0.pim:byte 4: error: unsupported PIM binary version 7, expected 1']);
  });
  test('truncated record', () => {
    const bytes = oneCore().get('core_0.pim')!;
    expect(check(oneCore({ 'core_0.pim': bytes.subarray(0, bytes.length - 3) }))[0]).toBe(
      'core_0.pim:instruction 2:byte 52: error: header announces 3 records but the file holds only 2 complete 20-byte records and 17 bytes of a truncated one',
    );
  });
  test('unknown opcode', () => {
    const bytes = oneCore().get('core_0.pim')!.slice();
    bytes[12 + 20] = 77;
    expect(check(oneCore({ 'core_0.pim': bytes }))).toEqual(['core_0.pim:instruction 1:byte 32: error: unknown opcode 77, expected 0..32 (pim-isa.md §3)']);
  });
  test('register and event register indices >= 32', () => {
    expect(check(oneCore({ 'core_0.pim': pimOf('setbw ibiw=8, obiw=8\nsldi r40, 1\nvrelu r1, r33, len=4\nwait ev=32, value=1\n') }))).toEqual([
      'core_0.pim:instruction 1: error: rd = r40 does not exist (registers are r0..r31)',
      'core_0.pim:instruction 2: error: rs1 = r33 does not exist (registers are r0..r31)',
      'core_0.pim:instruction 3: error: event register 32 does not exist (event registers are 0..31)',
    ]);
  });
  test('array group that does not exist', () => {
    expect(check(oneCore({ 'core_0.pim': pimOf('setbw ibiw=8, obiw=8\nmvmul r1, r0, mbiw=8, group=1\n') }))).toEqual([
      'core_0.pim:instruction 1: error: mvmul references array group 1, but array_group_map.core0 has 1 group(s) (pimsim-nn rejects it)',
    ]);
  });
  test('array groups over the crossbar budget, core count over the target', () => {
    expect(check(oneCore({ 'config.json': '{"core_cnt": 1, "array_group_map": {"core0": [60, 5]}}' }), target)).toEqual([
      'config.json: error: array_group_map.core0 assigns 65 crossbars, but the hardware provides 64 per core (matrix_config.xbar_array_count)',
    ]);
    const small: Target = { ...target, config: { ...target.config, chip_config: { ...target.config.chip_config, core_cnt: 1 } } };
    const two = oneCore({ 'config.json': '{"core_cnt": 2, "array_group_map": {"core0": [1], "core1": [1]}}', 'core_1.pim': oneCore().get('core_0.pim')! });
    expect(check(two, small)).toEqual(['config.json: error: core_cnt is 2, but the target has only 1 cores (chip_config.core_cnt)']);
  });
  test('missing core files, bad names, ids beyond core_cnt, missing array_group_map entries', () => {
    expect(
      check(
        oneCore({
          'config.json': '{"core_cnt": 3, "array_group_map": {"core0": [1], "core1": [1], "core7": [1]}}',
          'core_bad.json': '[]',
          'core_5.json': '[]',
        }),
      ),
    ).toEqual([
      'config.json: error: array_group_map.core7: key must be "core<id>" with 0 <= id < core_cnt',
      'config.json: error: array_group_map has no entry "core2" for core 2',
      'core_5.json: error: \'core_5.json\' is for core 5, but core_cnt is 3',
      "core_bad.json: error: file name must match core_<id>.json or core_<id>.pim (pimsim-nn rejects 'core_bad.json')",
      'core_1.pim: error: missing core_1.pim or core_1.json for core 1',
      'core_2.pim: error: missing core_2.pim or core_2.json for core 2',
    ]);
    expect(check(oneCore({ 'config.json': undefined }))).toEqual(['config.json: error: missing config.json (core_cnt, array_group_map)']);
    expect(check(oneCore({ 'config.json': '{"core_cnt": 0}' }))).toEqual(['config.json: error: core_cnt: expected a positive integer, got 0']);
  });
  test('a huge core_cnt is refused without allocating per-core state', () => {
    expect(check(oneCore({ 'config.json': '{"core_cnt": 1e15, "array_group_map": {"core0": [1]}}' }))).toEqual([
      'config.json: error: array_group_map has no entry "core1" for core 1',
      'config.json: error: array_group_map has no entry "core2" for core 2',
      'config.json: error: array_group_map has no entry "core3" for core 3',
      'config.json: error: array_group_map has no entry "core4" for core 4',
      'config.json: error: array_group_map has no entry "core5" for core 5',
      'config.json: error: array_group_map has no entry "core6" for core 6',
      'config.json: error: array_group_map has no entry "core7" for core 7',
      'config.json: error: array_group_map has no entry "core8" for core 8',
      'core_1.pim: error: missing core_1.pim or core_1.json for core 1',
    ]);
  });
  test('pimsim-nn compatibility: no setbw first, scalar last, nop, sld, lossy sadd rs2, offsets, send registers', () => {
    const json = JSON.stringify([
      { op: 'sldi', rd: 1, imm: 0 },
      { op: 'nop' },
      { op: 'sld', rd: 1, rs1: 2 },
      { op: 'sadd', rd: 1, rs1: 2, rs2: 3 },
      { op: 'vrelu', rd: 1, rs1: 2, len: 4, offset: { offset_select: 2, offset_value: 4 } },
      { op: 'send', rd: 1, rs1: 2, core: 0, size: 4 },
      { op: 'recv', rd: 1, core: 0, size: 4 },
      { op: 'ld', rd: 1, rs1: 3, size: 4 },
      { op: 'saddi', rd: 1, rs1: 1, imm: 1 },
    ]);
    const loaded = loadBundleFiles(oneCore({ 'core_0.pim': undefined, 'core_0.json': json }));
    expect(loaded.errorCount).toBe(0);
    expect(loaded.pimsimCompatible).toBe(false);
    expect(loaded.diagnostics.map(formatDiagnostic)).toEqual([
      'core_0.json:instruction 1: warning: nop crashes pimsim-nn (SIGSEGV); remove it',
      'core_0.json:instruction 2: warning: sld loads nothing in pimsim-nn and clobbers r0 with 0; avoid it',
      "core_0.json:instruction 3: warning: 'sadd' rs2 = r3 is lost in PIMB (decodes as r0); use saddi/smuli or r0 as the second operand",
      "core_0.json:instruction 4: warning: 'vrelu' uses an address offset: pimsim-nn tests offset_value bits instead of offset_select for rs1/rs2 (fact 5); use offset-free addressing",
      'core_0.json:instruction 5: warning: send reads its source from rd (r1) in pimsim-nn but from rs1 (r2) in the ISA; put the same register in both',
      'core_0.json:instruction 5: warning: send targets its own core 0',
      'core_0.json:instruction 6: warning: recv targets its own core 0',
      "core_0.json:instruction 7: warning: 'ld' rs1 = r3 starts a global-address register pair at an odd register",
      'core_0.json:instruction 0: warning: program does not begin with setbw: pimsim-nn starts with 0-bit widths (0-byte transfers)',
      "core_0.json:instruction 8: warning: program ends with 'saddi', which never enters the ROB: pimsim-nn never finishes this core (latency timeout); end with a vector, matrix or transfer instruction",
    ]);
  });
  test('vsoftmax: an error unless the target allows it, always a pimsim-nn warning', () => {
    const files = oneCore({ 'core_0.pim': pimOf('setbw ibiw=8, obiw=8\nvsoftmax r1, r2, len=4\n') });
    expect(check(files, target)).toEqual([
      'core_0.pim:instruction 1: error: vsoftmax (opcode 21) is not allowed by the target (raptor_config.allow_vsoftmax is false)',
      'core_0.pim:instruction 1: warning: pimsim-nn does not support opcode vsoftmax',
    ]);
    const allowing: Target = { ...target, config: { ...target.config, raptor_config: { ...target.config.raptor_config, allow_vsoftmax: true } } };
    expect(check(files, allowing)).toEqual(['core_0.pim:instruction 1: warning: pimsim-nn does not support opcode vsoftmax']);
  });
  test('mvmul mbiw 0, bad peers, bad setbw', () => {
    expect(
      check(
        oneCore({ 'core_0.pim': pimOf('setbw ibiw=0, obiw=8\nmvmul r1, r0, mbiw=0, group=0\nsync ev=0, core=4\nrecv r1, core=-1, size=4\n') }),
      ),
    ).toEqual([
      'core_0.pim:instruction 0: error: setbw ibiw = 0, expected 1..64',
      'core_0.pim:instruction 1: error: mvmul mbiw = 0, expected > 0 (0 crashes pimsim-nn with SIGFPE)',
      'core_0.pim:instruction 2: error: sync targets core 4, which does not exist (core_cnt 1; pimsim-nn dereferences a null switch)',
      'core_0.pim:instruction 3: error: recv targets core -1, which does not exist (core_cnt 1; pimsim-nn dereferences a null switch)',
    ]);
  });
  test('communication: unmatched send/recv, size mismatches, waits that exceed syncs', () => {
    const files = oneCore({
      'config.json': '{"core_cnt": 3, "array_group_map": {"core0": [1], "core1": [1], "core2": [1]}}',
      'core_0.pim': pimOf('setbw ibiw=8, obiw=8\nsend r1, r1, core=1, size=16\nsend r1, r1, core=1, size=32\nsend r1, r1, core=2, size=8\nwait ev=3, value=2\n'),
      'core_1.pim': pimOf('setbw ibiw=8, obiw=8\nrecv r1, core=0, size=16\nrecv r1, core=0, size=64\nsync ev=3, core=0\n'),
      'core_2.pim': pimOf('setbw ibiw=8, obiw=8\nsync ev=3, core=0\nsync ev=5, core=1\nsync ev=5, core=1\n'),
    });
    expect(check(files)).toEqual([
      'core_0.pim:instruction 2: error: send #1 from core 0 to core 1 has size 32, but the matching recv (core_1.pim instruction 2) has size 64',
      'core_0.pim:instruction 3: error: core 0 sends 1 message(s) to core 2, which receives 0 from core 0; the unmatched send blocks forever',
      "core_1.pim: warning: event register 5 of core 1 receives 2 sync(s) but its waits consume 0; the ISA's ==/reset wait and the fork's >=/subtract wait may disagree",
    ]);
    const starving = oneCore({ 'core_0.pim': pimOf('setbw ibiw=8, obiw=8\nwait ev=1, value=1\n') });
    expect(check(starving)).toEqual([
      'core_0.pim:instruction 1: error: core 0 waits for 1 event(s) on event register 1 in total, but all cores sync it only 0 time(s); a wait blocks forever',
    ]);
  });

  test('.pim wins over .json; a differing .json is a warning', () => {
    const files = oneCore({ 'core_0.json': '[{"op": "setbw", "ibiw": 8, "obiw": 8}]' });
    const read = readBundleFiles(files);
    expect(read.value!.sources).toEqual(['core_0.pim']);
    expect(read.diagnostics.map(formatDiagnostic)).toEqual([
      'core_0.json:instruction 1: warning: core_0.json differs from core_0.pim at instruction 1; pimsim-nn and our reader use the .pim file',
    ]);
  });
  test('manifest problems: version, missing files, weights that do not fit, tensors outside memory', () => {
    const written = writeBundleFiles(sampleBundle()).files!;
    const manifest = JSON.parse(new TextDecoder().decode(written.get('manifest.json')!));
    const withManifest = (m: unknown, drop?: string) => {
      const files = new Map(written);
      files.set('manifest.json', text(JSON.stringify(m)));
      if (drop) files.delete(drop);
      return loadBundleFiles(files).diagnostics.map(formatDiagnostic);
    };
    expect(withManifest({ ...manifest, format_version: 2 })).toEqual(['manifest.json: error: format_version 2 is not supported, expected 1']);
    expect(withManifest(manifest, 'weights.bin')).toEqual(["manifest.json: error: manifest names 'weights.bin', which is missing"]);
    expect(withManifest(manifest, 'network.json')).toEqual([
      "manifest.json: error: cannot read the NoC table file 'network.json': no such file",
    ]);
    const entries = manifest.weights.entries;
    expect(
      withManifest({
        ...manifest,
        weights: {
          ...manifest.weights,
          entries: [
            { ...entries[0], group: 3 },
            { ...entries[1], size: 4 },
            { ...entries[1], offset: 100 },
            { ...entries[0], rows: 300, cols: 1, size: 300, offset: 0 },
          ],
        },
        outputs: [{ name: 'y', address: 4194300, element_type: 'f32', shape: [2] }],
      }),
    ).toEqual([
      'manifest.json: error: weights entry 1 has size 4 bytes, but rows x cols x element size is 32',
      'weights.bin:byte 100: error: weights entry 2 ends at byte 132, beyond weights.bin (40 bytes)',
      'weights.bin:byte 0: error: weights entry 3 ends at byte 300, beyond weights.bin (40 bytes)',
      'manifest.json: error: weights entry 0 is for core 0 array group 3, which does not exist (the core has 1 groups)',
      "manifest.json: error: tensor 'y' ends at byte 4194308, beyond the global memory (4194304 bytes)",
    ]);
  });
});

describeShared('pimsim-nn program directories', () => {
  test('the example prog-pim and prog-json read to the same programs and are pimsim-nn compatible', () => {
    const target = loadTarget(path.join(EXAMPLE_DIR, 'arch', 'latency_config.json')).value!;
    const pim = loadBundle(path.join(EXAMPLE_DIR, 'prog-pim'), { target });
    const json = loadBundle(path.join(EXAMPLE_DIR, 'prog-json'), { target });
    expect(pim.diagnostics).toEqual([]);
    expect(json.diagnostics).toEqual([]);
    expect(pim.pimsimCompatible).toBe(true);
    expect(pim.bundle!.programs).toEqual(json.bundle!.programs);
    expect(pim.bundle!.arrayGroupMap).toEqual([[1], [2]]);
    expect(pim.bundle!.target).toBeUndefined();
    // Writing the example back gives the fork's own bytes for config.json and the .pim files.
    const files = writeBundleFiles(pim.bundle!).files!;
    const original = readDirFiles(path.join(EXAMPLE_DIR, 'prog-pim'));
    expect([...files.keys()].sort()).toEqual([...original.keys()].sort());
    for (const [name, bytes] of original) expect({ name, same: Buffer.from(files.get(name)!).equals(Buffer.from(bytes)) }).toEqual({ name, same: true });
    expect(decodePimb(files.get('core_1.pim')!).instructions).toEqual(json.bundle!.programs[1]);
  });

  const cases = fs.existsSync(BENCH_DIR) ? fs.readdirSync(BENCH_DIR).filter((c) => fs.existsSync(path.join(BENCH_DIR, c, 'prog'))) : [];
  /** Why pimsim-nn failed each failing family (pim-isa.md section 15/16), as our diagnostic codes. */
  const EXPECTED_CODE: Record<string, string> = {
    agmap_too_big: 'bundle-agmap-too-big',
    end_scalar_only: 'pimsim-scalar-last',
    end_setbw: 'pimsim-scalar-last',
    end_sldi: 'pimsim-scalar-last',
    group_oob: 'bad-group',
    mbiw0: 'bad-mbiw',
    nop_mid: 'pimsim-nop',
    unknown_op: 'json-unknown-op',
    verbose2: 'pimsim-verbose-crash',
    vsoftmax: 'pimsim-vsoftmax',
  };

  test('all 185 bench cases read and validate; every case pimsim-nn refused or crashed on is flagged', () => {
    expect(cases.length).toBe(185);
    let failing = 0;
    for (const c of cases) {
      const dir = path.join(BENCH_DIR, c);
      const expected = JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8')) as { latency_ns: number | null; error?: string };
      const target = loadTarget(path.join(dir, 'arch.json'));
      const loaded = loadBundle(path.join(dir, 'prog'), { target: target.value! });
      const diagnostics = [...target.diagnostics, ...loaded.diagnostics];
      const found = codes(diagnostics);
      if (expected.latency_ns === null) {
        failing++;
        const flagged = diagnostics.some((d) => d.severity === 'error' || d.code.startsWith('pimsim-'));
        expect({ c, flagged, code: found.includes(EXPECTED_CODE[c]!) }).toEqual({ c, flagged: true, code: true });
      } else {
        expect({ c, errors: diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic) }).toEqual({ c, errors: [] });
        expect(loaded.bundle!.programs.length).toBeGreaterThan(0);
      }
    }
    expect(failing).toBe(Object.keys(EXPECTED_CODE).length);
  });
});
