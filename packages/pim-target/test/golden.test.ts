import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultHardwareConfig, exportArchitectureJson, loadBundle, writeBundleFiles } from '@raptor-pim/pim-target';
import { readDirFiles, sampleBundle } from './helpers';

const FIXTURES = path.join(__dirname, 'fixtures');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

describe('golden files (UPDATE_GOLDEN=1 regenerates them)', () => {
  test('a complete two-core bundle, byte for byte (fixtures/sample-bundle)', () => {
    const dir = path.join(FIXTURES, 'sample-bundle');
    const files = writeBundleFiles(sampleBundle(), { json: true }).files!;
    if (UPDATE) {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      for (const [name, bytes] of files) fs.writeFileSync(path.join(dir, name), bytes);
    }
    const golden = readDirFiles(dir);
    expect([...golden.keys()].sort()).toEqual([...files.keys()].sort());
    for (const [name, bytes] of files) {
      expect({ name, same: Buffer.from(golden.get(name)!).equals(Buffer.from(bytes)) }).toEqual({ name, same: true });
    }
    const loaded = loadBundle(dir);
    expect(loaded.diagnostics).toEqual([]);
    expect(loaded.bundle!.programs).toEqual(sampleBundle().programs);
  });

  test("Raptor's default machine as a pimsim-nn architecture file (fixtures/raptor-default-arch.json)", () => {
    const file = path.join(FIXTURES, 'raptor-default-arch.json');
    const text = exportArchitectureJson(defaultHardwareConfig());
    if (UPDATE) fs.writeFileSync(file, text);
    expect(text).toBe(fs.readFileSync(file, 'utf8'));
  });
});
