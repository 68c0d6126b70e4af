/**
 * The launcher's compile cache (bin/compile-cache.cjs), in child processes on a packages folder
 * of its own: a bundle compiled once is loaded from the cache on the next run with the same
 * result, a rebuilt bundle is compiled again, modules outside `<package>/dist/` and bundles
 * with a dynamic import are left to Node, and RAPTOR_COMPILE_CACHE=0 writes nothing.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { temporaryDirectories } from './support/temp-dirs';

const CACHE_MODULE = path.resolve(__dirname, '../bin/compile-cache.cjs');
const nodeHasOwnCache = typeof (require('node:module') as { enableCompileCache?: unknown }).enableCompileCache === 'function';

interface RunResult {
  readonly status: { mode: string; hits?: string[]; misses?: string[] };
  readonly output: unknown;
}

const tmp = temporaryDirectories('raptor-compile-cache-test-');

function setup(): { packages: string; cache: string } {
  const root = tmp();
  const packages = path.join(root, 'packages');
  fs.mkdirSync(path.join(packages, 'lib', 'dist'), { recursive: true });
  fs.mkdirSync(path.join(packages, 'lib', 'src'), { recursive: true });
  fs.writeFileSync(path.join(packages, 'lib', 'dist', 'index.cjs'), "'use strict';\nexports.answer = (x) => x * 6 + require('./helper.cjs').offset;\n");
  fs.writeFileSync(path.join(packages, 'lib', 'dist', 'helper.cjs'), "exports.offset = 0; exports.where = __filename;\n");
  fs.writeFileSync(path.join(packages, 'lib', 'dist', 'dynamic.cjs'), "exports.load = () => import('node:path');\n");
  fs.writeFileSync(path.join(packages, 'lib', 'src', 'plain.cjs'), 'exports.plain = 1;\n');
  return { packages, cache: path.join(root, 'cache') };
}

/** Runs a child node that enables the cache for `packages`, requires the modules and reports. */
function run(packages: string, cache: string, profile?: string): RunResult {
  const script = `
    const status = require(${JSON.stringify(CACHE_MODULE)}).enableCompileCache(${JSON.stringify(packages)}, ${JSON.stringify(profile)});
    const lib = require(${JSON.stringify(path.join(packages, 'lib', 'dist', 'index.cjs'))});
    const helper = require(${JSON.stringify(path.join(packages, 'lib', 'dist', 'helper.cjs'))});
    require(${JSON.stringify(path.join(packages, 'lib', 'dist', 'dynamic.cjs'))});
    require(${JSON.stringify(path.join(packages, 'lib', 'src', 'plain.cjs'))});
    const strip = (xs) => xs && xs.map((f) => require('node:path').relative(${JSON.stringify(packages)}, f)).sort();
    process.stdout.write(JSON.stringify({ status: { ...status, hits: strip(status.hits), misses: strip(status.misses) }, output: [lib.answer(7), helper.where.endsWith('helper.cjs')] }));
  `;
  const out = execFileSync(process.execPath, ['-e', script], { env: { ...process.env, RAPTOR_COMPILE_CACHE: cache }, encoding: 'utf8' });
  return JSON.parse(out) as RunResult;
}

(nodeHasOwnCache ? describe.skip : describe)('the launcher compile cache (Node without module.enableCompileCache)', () => {
  it('compiles once, then loads the same bundles from the cache with the same results', () => {
    const { packages, cache } = setup();
    const first = run(packages, cache);
    expect(first.status).toEqual({ mode: 'v8', hits: [], misses: ['lib/dist/helper.cjs', 'lib/dist/index.cjs'] });
    expect(first.output).toEqual([42, true]);
    expect(fs.readdirSync(cache).filter((f) => f.endsWith('.v8cache'))).toHaveLength(2);
    const second = run(packages, cache);
    expect(second.status).toEqual({ mode: 'v8', hits: ['lib/dist/helper.cjs', 'lib/dist/index.cjs'], misses: [] });
    expect(second.output).toEqual(first.output);
  });

  it('a rebuilt bundle is compiled again and its new code runs', () => {
    const { packages, cache } = setup();
    run(packages, cache);
    const helper = path.join(packages, 'lib', 'dist', 'helper.cjs');
    fs.writeFileSync(helper, "exports.offset = 100; exports.where = __filename;\n");
    const future = new Date(Date.now() + 5000);
    fs.utimesSync(helper, future, future);
    const again = run(packages, cache);
    expect(again.status).toEqual({ mode: 'v8', hits: ['lib/dist/index.cjs'], misses: ['lib/dist/helper.cjs'] });
    expect(again.output).toEqual([142, true]);
  });

  it('keeps one cache per profile (the subcommand), and odd profile names share one', () => {
    const { packages, cache } = setup();
    const all = ['lib/dist/helper.cjs', 'lib/dist/index.cjs'];
    expect(run(packages, cache, 'import').status).toEqual({ mode: 'v8', hits: [], misses: all });
    expect(run(packages, cache, 'opt').status).toEqual({ mode: 'v8', hits: [], misses: all });
    expect(run(packages, cache, 'import').status).toEqual({ mode: 'v8', hits: all, misses: [] });
    expect(run(packages, cache, '../x').status).toEqual({ mode: 'v8', hits: [], misses: all });
    const again = run(packages, cache, 'a b');
    expect(again.status).toEqual({ mode: 'v8', hits: all, misses: [] });
    expect(again.output).toEqual([42, true]);
    expect(fs.readdirSync(cache).filter((f) => f.endsWith('.v8cache'))).toHaveLength(6);
  });

  it('RAPTOR_COMPILE_CACHE=0 turns it off and writes nothing', () => {
    const { packages, cache } = setup();
    const off = run(packages, '0');
    expect(off.status).toEqual({ mode: 'off' });
    expect(off.output).toEqual([42, true]);
    expect(fs.existsSync(cache)).toBe(false);
  });
});
