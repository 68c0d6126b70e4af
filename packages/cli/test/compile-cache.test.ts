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

/**
 * The resolution table kept next to the code caches: a package name or relative path required
 * from a bundle is answered from the table on the next run, and resolved by Node again when the
 * file it named is gone or the package.json that chose it changed.
 */
describe('the launcher resolution cache', () => {
  /** `packages/app/dist/index.cjs` requires `dep` (through packages/node_modules) and `./util` (util.js). */
  function setupPackages(): { packages: string; cache: string } {
    const root = tmp();
    const packages = path.join(root, 'packages');
    const write = (file: string, text: string): void => {
      fs.mkdirSync(path.dirname(path.join(packages, file)), { recursive: true });
      fs.writeFileSync(path.join(packages, file), text);
    };
    write('app/dist/index.cjs', "exports.parts = () => [require('dep').name, require('./util').name];\n");
    write('app/dist/util.js', "exports.name = 'util';\n");
    write('dep/package.json', JSON.stringify({ name: 'dep', exports: { require: './dist/one.cjs' } }));
    write('dep/dist/one.cjs', "exports.name = 'one';\n");
    write('dep/dist/two.cjs', "exports.name = 'two';\n");
    fs.mkdirSync(path.join(packages, 'node_modules'));
    fs.symlinkSync(path.join(packages, 'dep'), path.join(packages, 'node_modules', 'dep'), 'dir');
    return { packages, cache: path.join(root, 'cache') };
  }

  /** Runs the app in a child node with the caches on; returns its parts and the table's entries. */
  function runApp(packages: string, cache: string, options: { resolutions?: boolean } = {}): { parts: string[]; table: Record<string, { file: string }> | undefined } {
    const script = `
      require(${JSON.stringify(CACHE_MODULE)}).enableCompileCache(${JSON.stringify(packages)}, 'app', ${JSON.stringify(options)});
      process.stdout.write(JSON.stringify(require(${JSON.stringify(path.join(packages, 'app', 'dist', 'index.cjs'))}).parts()));
    `;
    const out = execFileSync(process.execPath, ['-e', script], { env: { ...process.env, RAPTOR_COMPILE_CACHE: cache }, encoding: 'utf8' });
    const file = path.join(cache, 'resolve-app.json');
    const table = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { entries: Record<string, { file: string }> }).entries : undefined;
    return { parts: JSON.parse(out) as string[], table };
  }

  const files = (table: Record<string, { file: string }> | undefined): string[] => Object.values(table ?? {}).map((e) => path.basename(e.file)).sort();

  it('is left out on request (resolutions: false): the requires resolve as usual, no table is written', () => {
    const { packages, cache } = setupPackages();
    for (let run = 0; run < 2; run++) {
      const r = runApp(packages, cache, { resolutions: false });
      expect(r.parts).toEqual(['one', 'util']);
      expect(r.table).toBeUndefined();
    }
  });

  it('records where the requires resolved and answers them the same on the next run', () => {
    const { packages, cache } = setupPackages();
    const first = runApp(packages, cache);
    expect(first.parts).toEqual(['one', 'util']);
    expect(files(first.table)).toEqual(['one.cjs', 'util.js']);
    const written = fs.statSync(path.join(cache, 'resolve-app.json')).mtimeMs;
    const second = runApp(packages, cache);
    expect(second.parts).toEqual(['one', 'util']);
    // every answer came from the table: nothing to rewrite
    expect(fs.statSync(path.join(cache, 'resolve-app.json')).mtimeMs).toBe(written);
  });

  it('resolves again when the package.json that chose a file changed', () => {
    const { packages, cache } = setupPackages();
    runApp(packages, cache);
    const pkg = path.join(packages, 'dep', 'package.json');
    fs.writeFileSync(pkg, JSON.stringify({ name: 'dep', exports: { require: './dist/two.cjs' } }));
    const future = new Date(Date.now() + 5000);
    fs.utimesSync(pkg, future, future);
    const again = runApp(packages, cache);
    expect(again.parts).toEqual(['two', 'util']);
    expect(files(again.table)).toEqual(['two.cjs', 'util.js']);
  });

  it('resolves again when the file it named is gone', () => {
    const { packages, cache } = setupPackages();
    runApp(packages, cache);
    fs.rmSync(path.join(packages, 'app', 'dist', 'util.js'));
    fs.mkdirSync(path.join(packages, 'app', 'dist', 'util'));
    fs.writeFileSync(path.join(packages, 'app', 'dist', 'util', 'index.js'), "exports.name = 'util/index';\n");
    const again = runApp(packages, cache);
    expect(again.parts).toEqual(['one', 'util/index']);
    expect(files(again.table)).toEqual(['index.js', 'one.cjs']);
  });

  it('RAPTOR_COMPILE_CACHE=0 keeps no table', () => {
    const { packages } = setupPackages();
    expect(runApp(packages, '0').parts).toEqual(['one', 'util']);
  });
});
