import * as path from 'node:path';
import fc from 'fast-check';
import { formatDiagnostic, formatSingleFileProgram, loadBundle, parseSingleFileProgram, validateBundle } from '@raptor-pim/pim-target';
import { EXAMPLE_DIR, describeShared, sampleBundle } from './helpers';

describe('pimsim-nn single-file programs', () => {
  test('format -> parse round trip', () => {
    const bundle = sampleBundle();
    const text = formatSingleFileProgram(bundle);
    const back = parseSingleFileProgram(text);
    expect(back.diagnostics).toEqual([]);
    expect(back.value!.programs).toEqual(bundle.programs);
    expect(back.value!.arrayGroupMap).toEqual(bundle.arrayGroupMap);
    expect(formatSingleFileProgram(back.value!)).toBe(text);
    expect(text.startsWith('{\n "config": {\n  "core_cnt": 2,')).toBe(true);
  });

  test('PIMCOMP-style file without array_group_map, absent cores, bad keys', () => {
    const result = parseSingleFileProgram(
      JSON.stringify({
        config: { core_cnt: 3 },
        core0: [{ op: 'setbw', ibiw: 8, obiw: 8 }, { op: 'sync', event_register: 0, core: 2 }],
        core2: [{ op: 'setbw', ibiw: 8, obiw: 8 }, { op: 'wait', event_register: 0, wait_value: 1 }],
        core5: [],
        comment: 'ignored',
      }),
      'pimcomp.json',
    );
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'pimcomp.json: warning: config.array_group_map is missing (PIMCOMP-NN omits it); pimsim-nn requires it, and every core gets no array group',
      'pimcomp.json: error: "core5" is beyond config.core_cnt (3)',
    ]);
    expect(result.value!.programs[1]).toEqual([]);
    expect(validateBundle(result.value!).diagnostics).toEqual([]);
    expect(parseSingleFileProgram('{"config": {"core_cnt": 1}}', 'x.json').diagnostics.map((d) => d.code)).toEqual([
      'pimsim-no-agmap',
      'single-file-no-core',
    ]);
    expect(parseSingleFileProgram('{"config": {"core_cnt": 1e12}}').diagnostics[0]!.code).toBe('bundle-bad-core-cnt');
    expect(parseSingleFileProgram('[]').value).toBeUndefined();
  });

  test('arbitrary JSON never throws', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        parseSingleFileProgram(JSON.stringify(value) ?? 'null');
        parseSingleFileProgram(JSON.stringify({ config: value, core0: value }));
        parseSingleFileProgram(JSON.stringify({ config: { core_cnt: 2, array_group_map: value }, core1: [value] }));
      }),
      { numRuns: 200 },
    );
  });
});

describeShared('single-file form of the pimsim-nn example', () => {
  test('the example directory converts to one file and back', () => {
    const dir = loadBundle(path.join(EXAMPLE_DIR, 'prog-json'));
    const single = parseSingleFileProgram(formatSingleFileProgram(dir.bundle!));
    expect(single.diagnostics).toEqual([]);
    expect(single.value!.programs).toEqual(dir.bundle!.programs);
  });
});
