/**
 * Malformed bundles (byte flips, truncations, garbage appended) end in an error value, never
 * in an exception or a hang.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { loadTarget, writeBundleFiles } from '@raptor-pim/pim-target';
import { simulateBundleFiles } from '@raptor-pim/pim-sim';
import { SHARED, f32Bytes, image, makeBundle, randomFloats, tensor, loadPrologue } from './helpers';

const EXAMPLE = path.join(SHARED, 'spec/pimsim-nn-example');

function readDir(dir: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  for (const name of fs.readdirSync(dir).sort()) files.set(name, new Uint8Array(fs.readFileSync(path.join(dir, name))));
  return files;
}

/** A Raptor bundle with manifest, memory image and weights, as files. */
function raptorBundleFiles(): Map<string, Uint8Array> {
  const bundle = makeBundle({
    cores: [
      `
      ${loadPrologue(512)}
      sldi r6, 1024
      mvmul r6, r2, mbiw=8, relu=1, group=0
      send r6, r6, core=1, size=512
    `,
      `
      setbw ibiw=32, obiw=32
      sldi r6, 0
      recv r6, core=0, size=512
      vtanh r6, r6, len=128
      sldi r8, 0
      sldi r9, 8192
      st r8, r6, size=512
      sync ev=0, core=0
    `,
    ],
    groups: [[1], [1]],
    memory: image(1024, [[0, f32Bytes(randomFloats(128, 3))]]),
    weights: [{ core: 0, group: 0, rows: 128, cols: 128, elementType: 'f32', data: f32Bytes(randomFloats(128 * 128, 4)) }],
    inputs: [tensor('x', 0, [128])],
    outputs: [tensor('y', 8192, [128])],
  });
  const written = writeBundleFiles(bundle);
  if (!written.files) throw new Error('cannot write the test bundle');
  return new Map(written.files);
}

const mutation = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), flips: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }) }),
  fc.record({ kind: fc.constant('truncate' as const), keep: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({ kind: fc.constant('append' as const), extra: fc.uint8Array({ minLength: 1, maxLength: 40 }) }),
  fc.record({ kind: fc.constant('drop' as const) }),
);

/** One mutation drawn by {@link mutation}. */
interface Mutation {
  kind: 'flip' | 'truncate' | 'append' | 'drop';
  flips?: [number, number][];
  keep?: number;
  extra?: Uint8Array;
}

function mutate(files: Map<string, Uint8Array>, fileIndex: number, m: Mutation): Map<string, Uint8Array> {
  const names = [...files.keys()];
  const name = names[fileIndex % names.length];
  const out = new Map(files);
  const bytes = files.get(name)!.slice();
  if (m.kind === 'flip') {
    for (const [at, v] of m.flips!) if (bytes.length > 0) bytes[at % bytes.length] = v;
    out.set(name, bytes);
  } else if (m.kind === 'truncate') out.set(name, bytes.slice(0, Math.floor(bytes.length * m.keep!)));
  else if (m.kind === 'append') {
    const grown = new Uint8Array(bytes.length + m.extra!.length);
    grown.set(bytes);
    grown.set(m.extra!, bytes.length);
    out.set(name, grown);
  } else out.delete(name);
  return out;
}

function check(files: Map<string, Uint8Array>, options: Parameters<typeof simulateBundleFiles>[1]): void {
  const r = simulateBundleFiles(files, { ...options, budgetNs: 1e8 });
  if (!r.ok) {
    expect(r.error).toBeDefined();
    expect(typeof r.error!.message).toBe('string');
    expect(r.error!.message.length).toBeGreaterThan(0);
  } else {
    expect(r.timing).toBeDefined();
  }
}

describe('malformed bundles', () => {
  const target = loadTarget(path.join(EXAMPLE, 'arch/latency_config.json')).value!;

  test('the unmodified bundles run', () => {
    expect(simulateBundleFiles(readDir(path.join(EXAMPLE, 'prog-pim')), { target }).ok).toBe(true);
    const r = simulateBundleFiles(raptorBundleFiles());
    expect(r.error).toBeUndefined();
    expect(r.outputs[0].array.shape).toEqual([128]);
  });

  test('pimsim-nn directory (PIMB): flips, truncations, appends, missing files', () => {
    const files = readDir(path.join(EXAMPLE, 'prog-pim'));
    fc.assert(
      fc.property(fc.nat(), mutation, (fileIndex, m) => check(mutate(files, fileIndex, m), { target })),
      { numRuns: 300 },
    );
  });

  test('pimsim-nn directory (JSON)', () => {
    const files = readDir(path.join(EXAMPLE, 'prog-json'));
    fc.assert(
      fc.property(fc.nat(), mutation, (fileIndex, m) => check(mutate(files, fileIndex, m), { target })),
      { numRuns: 200 },
    );
  });

  test('Raptor bundle with manifest, memory image and weights', () => {
    const files = raptorBundleFiles();
    fc.assert(
      fc.property(fc.nat(), mutation, (fileIndex, m) => check(mutate(files, fileIndex, m), {})),
      { numRuns: 300 },
    );
  });
});
