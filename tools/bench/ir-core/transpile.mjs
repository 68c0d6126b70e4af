// Transpiles packages/ir-core/src to CommonJS JavaScript in a scratch folder (TypeScript's
// transpileModule: no type check, no bundling) so benchmarks can load the current sources
// without a build. Usage: node transpile.mjs [outDir]; prints the output folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

const here = path.dirname(new URL(import.meta.url).pathname);
const repo = path.resolve(here, '../../..');
const require = createRequire(path.join(repo, 'package.json'));
const ts = require('typescript');

/** Transpiles every .ts file under `src` into `out` (same relative paths, .js). */
export function transpileTree(src, out) {
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
        const rel = path.relative(src, full);
        const js = ts.transpileModule(fs.readFileSync(full, 'utf8'), {
          compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, sourceMap: false },
          fileName: full,
        }).outputText;
        const dest = path.join(out, rel.replace(/\.ts$/, '.js'));
        fs.mkdirSync(path.dirname(dest), { recursive: true });
        fs.writeFileSync(dest, js);
      }
    }
  };
  walk(src);
  fs.writeFileSync(path.join(out, 'package.json'), '{"type":"commonjs"}\n');
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const out = process.argv[2] ?? fs.mkdtempSync(path.join(os.tmpdir(), 'ir-core-js-'));
  transpileTree(path.join(repo, 'packages/ir-core/src'), out);
  process.stdout.write(out + '\n');
}
