/**
 * The launcher's heap: `raptor compile`/`run`/`opt`/`sim` run in a child Node with three quarters
 * of the machine's memory as heap (a resnet18 compile died of V8's heap limit otherwise), unless
 * the user chose a limit, opted out, or the gain is small; other commands run in place.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

interface HeapLimit {
  heapChildArgs(subcommand: string | undefined, execArgv: readonly string[], env: Record<string, string | undefined>, totalBytes: number, limitBytes: number, inputBytes?: number): string[] | undefined;
  inputBytesOf(args: readonly string[]): number | undefined;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { heapChildArgs, inputBytesOf } = require(path.resolve(__dirname, '../bin/heap-limit.cjs')) as HeapLimit;

const GiB = 1024 ** 3;

describe('heapChildArgs', () => {
  it('gives compile, run, opt and sim three quarters of the machine; compile and run a 64 MiB young generation', () => {
    for (const command of ['compile', 'run']) {
      expect(heapChildArgs(command, [], {}, 24 * GiB, 4 * GiB)).toEqual(['--max-old-space-size=18432', '--max-semi-space-size=64']);
    }
    for (const command of ['opt', 'sim']) expect(heapChildArgs(command, [], {}, 24 * GiB, 4 * GiB)).toEqual(['--max-old-space-size=18432']);
  });

  it('keeps the Node options of this process after the heap option', () => {
    expect(heapChildArgs('compile', ['--enable-source-maps'], {}, 16 * GiB, 4 * GiB)).toEqual(['--max-old-space-size=12288', '--max-semi-space-size=64', '--enable-source-maps']);
  });

  it('leaves the young generation to the user when they size it', () => {
    expect(heapChildArgs('compile', ['--max-semi-space-size=8'], {}, 16 * GiB, 4 * GiB)).toEqual(['--max-old-space-size=12288', '--max-semi-space-size=8']);
    expect(heapChildArgs('run', [], { NODE_OPTIONS: '--max_semi_space_size=32' }, 16 * GiB, 4 * GiB)).toEqual(['--max-old-space-size=12288']);
  });

  it('runs import, help and unknown commands in place', () => {
    for (const command of ['import', '--help', undefined, 'frobnicate']) expect(heapChildArgs(command, [], {}, 24 * GiB, 4 * GiB)).toBeUndefined();
  });

  it('respects a limit the user chose, the opt-out and the child mark', () => {
    expect(heapChildArgs('compile', ['--max-old-space-size=2000'], {}, 24 * GiB, 2 * GiB)).toBeUndefined();
    expect(heapChildArgs('compile', [], { NODE_OPTIONS: '--max_old_space_size=9000' }, 24 * GiB, 9 * GiB)).toBeUndefined();
    expect(heapChildArgs('compile', [], { RAPTOR_HEAP: '0' }, 24 * GiB, 4 * GiB)).toBeUndefined();
    expect(heapChildArgs('compile', [], { RAPTOR_HEAP_CHILD: '1' }, 24 * GiB, 4 * GiB)).toBeUndefined();
  });

  it('does not respawn for a small gain (a machine not much larger than the default heap)', () => {
    expect(heapChildArgs('compile', [], {}, 6 * GiB, 4 * GiB)).toBeUndefined();
    expect(heapChildArgs('compile', [], {}, 8 * GiB, 4 * GiB)).toEqual(['--max-old-space-size=6144', '--max-semi-space-size=64']);
  });

  it('runs opt and sim in place on a small input file, in a child on a large one or one of unknown size', () => {
    const MiB = 1024 ** 2;
    expect(heapChildArgs('opt', [], {}, 24 * GiB, 4 * GiB, 9 * MiB)).toBeUndefined();
    expect(heapChildArgs('sim', [], {}, 24 * GiB, 4 * GiB, 1 * MiB)).toBeUndefined();
    expect(heapChildArgs('opt', [], {}, 24 * GiB, 4 * GiB, 64 * MiB)).toEqual(['--max-old-space-size=18432']);
    expect(heapChildArgs('opt', [], {}, 24 * GiB, 4 * GiB, undefined)).toEqual(['--max-old-space-size=18432']);
    // compile and run always respawn: the pipeline grows a small model's IR by orders of magnitude.
    expect(heapChildArgs('compile', [], {}, 24 * GiB, 4 * GiB, 1 * MiB)).toEqual(['--max-old-space-size=18432', '--max-semi-space-size=64']);
  });
});

describe('inputBytesOf', () => {
  it('sums the input files, skipping options and the output; unknown for a folder, a missing file or no input', () => {
    const self = __filename;
    const size = fs.statSync(self).size;
    expect(inputBytesOf(['--print-generic', self, '-o', '/nonexistent/out.mlir'])).toBe(size);
    expect(inputBytesOf([self, '--output', 'missing.mlir', self])).toBe(2 * size);
    expect(inputBytesOf([__dirname])).toBeUndefined();
    expect(inputBytesOf(['/nonexistent/in.mlir'])).toBeUndefined();
    expect(inputBytesOf(['--print-generic'])).toBeUndefined();
  });
});
