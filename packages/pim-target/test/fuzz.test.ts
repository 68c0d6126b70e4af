import fc from 'fast-check';
import {
  decodePimb,
  dumpPimb,
  formatDiagnostic,
  loadBundleFiles,
  parseArchitectureJson,
  parseNetworkTable,
  parseProgramJson,
  validateHardwareConfig,
  writeBundleFiles,
  type TargetDiagnostic,
} from '@raptor-pim/pim-target';
import { sampleBundle } from './helpers';

const VALID = writeBundleFiles(sampleBundle(), { json: true }).files!;
const NAMES = [...VALID.keys()];

type Mutation =
  | { kind: 'flip'; file: number; at: number; mask: number }
  | { kind: 'truncate'; file: number; keep: number }
  | { kind: 'delete'; file: number }
  | { kind: 'insert'; file: number; at: number; bytes: Uint8Array }
  | { kind: 'set-u32'; file: number; at: number; value: number };

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), file: fc.nat(), at: fc.nat(), mask: fc.integer({ min: 1, max: 255 }) }),
  fc.record({ kind: fc.constant('truncate' as const), file: fc.nat(), keep: fc.nat() }),
  fc.record({ kind: fc.constant('delete' as const), file: fc.nat() }),
  fc.record({ kind: fc.constant('insert' as const), file: fc.nat(), at: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }) }),
  fc.record({ kind: fc.constant('set-u32' as const), file: fc.nat(), at: fc.nat(), value: fc.nat() }),
);

function apply(files: Map<string, Uint8Array>, m: Mutation): void {
  const name = NAMES[m.file % NAMES.length]!;
  const bytes = files.get(name);
  if (!bytes) return;
  switch (m.kind) {
    case 'flip': {
      if (bytes.length === 0) return;
      const copy = bytes.slice();
      copy[m.at % copy.length]! ^= m.mask;
      files.set(name, copy);
      return;
    }
    case 'truncate':
      files.set(name, bytes.slice(0, m.keep % (bytes.length + 1)));
      return;
    case 'delete':
      files.delete(name);
      return;
    case 'insert': {
      const at = m.at % (bytes.length + 1);
      files.set(name, new Uint8Array([...bytes.subarray(0, at), ...m.bytes, ...bytes.subarray(at)]));
      return;
    }
    case 'set-u32': {
      if (bytes.length < 4) return;
      const copy = bytes.slice();
      new DataView(copy.buffer).setUint32(m.at % (copy.length - 3), m.value >>> 0, true);
      files.set(name, copy);
      return;
    }
  }
}

function wellFormed(ds: readonly TargetDiagnostic[]): void {
  for (const d of ds) {
    expect(['error', 'warning', 'note']).toContain(d.severity);
    expect(typeof d.code).toBe('string');
    expect(d.message.length).toBeGreaterThan(0);
    expect(typeof formatDiagnostic(d)).toBe('string');
  }
}

describe('malformed input never throws or hangs', () => {
  test('byte flips, truncations, insertions and deletions of a valid bundle end in diagnostics', () => {
    fc.assert(
      fc.property(fc.array(mutationArb, { minLength: 1, maxLength: 4 }), (mutations) => {
        const files = new Map(VALID);
        for (const m of mutations) apply(files, m);
        const started = Date.now();
        const loaded = loadBundleFiles(files);
        expect(Date.now() - started).toBeLessThan(2000);
        wellFormed(loaded.diagnostics);
        if (loaded.bundle === undefined) expect(loaded.errorCount).toBeGreaterThan(0);
        // An unchanged file set must still load cleanly (the mutation may have been a no-op).
        const changed = [...files].some(([n, b]) => !VALID.has(n) || !Buffer.from(VALID.get(n)!).equals(Buffer.from(b))) || files.size !== VALID.size;
        if (!changed) expect(loaded.diagnostics).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });

  test('every truncation of every file of a valid bundle is reported (or harmless)', () => {
    for (const name of NAMES) {
      const bytes = VALID.get(name)!;
      for (let keep = 0; keep < bytes.length; keep += Math.max(1, Math.floor(bytes.length / 64))) {
        const files = new Map(VALID);
        files.set(name, bytes.slice(0, keep));
        const loaded = loadBundleFiles(files);
        wellFormed(loaded.diagnostics);
        if (name.endsWith('.pim') || name.endsWith('.json')) {
          expect({ name, keep, reported: loaded.diagnostics.length > 0 }).toEqual({ name, keep, reported: true });
        }
      }
    }
  });

  test('arbitrary bytes as a PIMB file or a JSON program', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.boolean(), (tail, withHeader) => {
        const bytes = withHeader ? new Uint8Array([0x50, 0x49, 0x4d, 0x42, 1, 0, 0, 0, ...tail]) : tail;
        wellFormed(decodePimb(bytes).diagnostics);
        wellFormed(dumpPimb(bytes).diagnostics);
        wellFormed(parseProgramJson(new TextDecoder().decode(tail)).diagnostics);
      }),
      { numRuns: 400 },
    );
  });

  test('arbitrary JSON values as configuration, NoC table or program', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        wellFormed(validateHardwareConfig(value).diagnostics);
        wellFormed(validateHardwareConfig({ chip_config: value, sim_config: value, raptor_config: value }).diagnostics);
        const text = JSON.stringify(value) ?? 'null';
        wellFormed(parseNetworkTable(text).diagnostics);
        wellFormed(parseNetworkTable(JSON.stringify({ latency: value, energy: { 0: value } })).diagnostics);
        wellFormed(parseProgramJson(text).diagnostics);
        wellFormed(parseProgramJson(JSON.stringify([value, { op: 'vvadd', offset: value, len: value }])).diagnostics);
        wellFormed(parseArchitectureJson(text).diagnostics);
      }),
      { numRuns: 300 },
    );
  });

  test('deeply nested JSON does not overflow the reader', () => {
    const deep = '['.repeat(200000) + ']'.repeat(200000);
    wellFormed(parseProgramJson(deep).diagnostics);
    wellFormed(parseProgramJson('['.repeat(200000)).diagnostics);
  });
});
