import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Where mlir-opt 22 is: `$MLIR_OPT`, the Debian `mlir-22-tools` path, or `mlir-opt` on PATH. */
export function findMlirOpt(): { path: string } | { missing: string } {
  const candidates = [process.env.MLIR_OPT, '/usr/lib/llvm-22/bin/mlir-opt'].filter((c): c is string => !!c);
  for (const c of candidates) if (fs.existsSync(c)) return { path: c };
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const c = path.join(dir, 'mlir-opt');
    if (dir && fs.existsSync(c)) {
      const v = spawnSync(c, ['--version'], { encoding: 'utf8' });
      if (/LLVM version 22\./.test(v.stdout)) return { path: c };
    }
  }
  return { missing: `mlir-opt 22 not found (looked at $MLIR_OPT, /usr/lib/llvm-22/bin/mlir-opt and PATH); install Debian mlir-22-tools` };
}

/** Runs mlir-opt on `input` (stdin) with `args`; returns stdout, or throws with its stderr. */
export function runMlirOpt(tool: string, args: readonly string[], input: string): string {
  return execFileSync(tool, [...args, '-'], { input, encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['pipe', 'pipe', 'pipe'] });
}
