/**
 * `raptor ... | head`: when the reader of standard output goes away, the command drops the rest
 * of its output quietly (as a Unix tool killed by SIGPIPE would) instead of dying on an unhandled
 * EPIPE error. The writer is checked with a stand-in for the descriptor write; the built
 * launcher (`bin/raptor.cjs`) as a user runs it, where it is built.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { descriptorWriter } from '../src/descriptor-writer';

const BIN = path.resolve(__dirname, '../bin/raptor.cjs');
const BUILT = fs.existsSync(path.resolve(__dirname, '../dist/bin.cjs'));

const epipe = (): never => {
  throw Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
};

describe('descriptorWriter', () => {
  it('writes every byte, across partial writes', () => {
    const got: number[] = [];
    const write = descriptorWriter(1, () => new PassThrough(), (_fd, bytes, offset) => {
      const n = Math.min(3, bytes.length - offset);
      got.push(...bytes.subarray(offset, offset + n));
      return n;
    });
    write('héllo, world');
    expect(Buffer.from(got).toString('utf8')).toBe('héllo, world');
  });

  it('after EPIPE drops the rest quietly, without touching the stream', () => {
    let calls = 0;
    let streamAsked = false;
    const write = descriptorWriter(1, () => ((streamAsked = true), new PassThrough()), () => {
      calls++;
      return epipe();
    });
    expect(() => write('first')).not.toThrow();
    expect(() => write('second')).not.toThrow();
    expect(calls).toBe(1);
    expect(streamAsked).toBe(false);
  });

  it('after another failure (EAGAIN) goes on through the stream, and an EPIPE there ends it quietly', () => {
    const stream = new PassThrough();
    const chunks: string[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
    const write = descriptorWriter(1, () => stream, () => {
      throw Object.assign(new Error('write EAGAIN'), { code: 'EAGAIN' });
    });
    write('one ');
    write('two');
    expect(chunks.join('')).toBe('one two');
    expect(() => stream.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))).not.toThrow();
    write('dropped');
    expect(chunks.join('')).toBe('one two');
  });
});

(BUILT ? describe : describe.skip)('a closed standard output', () => {
  it('raptor opt --print-generic piped into a reader that stops after 10 bytes: no EPIPE error, exit 0', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'raptor-epipe-'));
    try {
      const big = path.join(dir, 'big.mlir');
      const err = path.join(dir, 'err.txt');
      // A module long enough that the writer outlives the reader.
      const many = `module {\n${Array.from({ length: 4000 }, (_, i) => `  func.func @f${i}(%a: i32) -> i32 {\n    %0 = arith.addi %a, %a : i32\n    return %0 : i32\n  }\n`).join('')}}\n`;
      fs.writeFileSync(big, many);
      const run = spawnSync('bash', ['-c', `node "$0" opt "$1" --print-generic 2>"$2" | head -c 10 >/dev/null; echo "\${PIPESTATUS[0]}"`, BIN, big, err], { encoding: 'utf8' });
      expect(fs.readFileSync(err, 'utf8')).toBe('');
      expect(run.stdout.trim()).toBe('0');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
