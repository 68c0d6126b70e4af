/**
 * `raptor ... | head`: when the reader of standard output goes away, the command drops the rest
 * of its output quietly (as a Unix tool killed by SIGPIPE would) instead of dying on an unhandled
 * EPIPE error. Runs the built launcher (`bin/raptor.cjs`), as a user does.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';

const BIN = path.resolve(__dirname, '../bin/raptor.cjs');
const BUILT = fs.existsSync(path.resolve(__dirname, '../dist/bin.cjs'));

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
