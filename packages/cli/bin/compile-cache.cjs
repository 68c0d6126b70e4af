// V8 code caches of the Raptor bundles, so that `raptor` does not compile the same JavaScript on
// every run (what Node 22's `module.enableCompileCache` does, for Node versions without it).
//
// Only CommonJS bundles under `<packagesDir>/<package>/dist/` are cached (the packages of the
// `@raptor-pim` scope), and only those without a dynamic `import(` (which needs Node's own
// loader); every other module loads as usual. A cache file is named by the bundle's path and
// holds, after a header naming the bundle's size, modification time and length and the Node
// version, V8's code cache for it (V8 also rejects a cache made for another source length or
// V8 build); it is written when the process exits, after the run compiled the functions it
// used. Caches are kept per profile (the launcher passes the subcommand): a cache holds the
// functions the first run compiled, and `raptor import` and `raptor opt` use different ones.
// Any failure to read, use or write a cache falls back to Node's own loading: the cache can
// only change how fast a run starts.
//
// The same folder keeps, per profile, where the bundles' `require`s resolved (see
// `enableResolutionCache`): Node resolves each package name again from every package that
// requires it (node_modules lookups, package.json `exports`, symlinks), about 10 ms of a
// `raptor import`'s start-up.
'use strict';
const Module = require('node:module');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const vm = require('node:vm');

const HEADER_BYTES = 128;

/** A short, stable file name for a bundle's path (FNV-1a and the length) and a profile. */
function cacheName(filename, profile) {
  let h = 0x811c9dc5;
  for (let i = 0; i < filename.length; i++) h = Math.imul(h ^ filename.charCodeAt(i), 0x01000193);
  return `${(h >>> 0).toString(16).padStart(8, '0')}-${filename.length.toString(16)}${profile ? '-' + profile : ''}.v8cache`;
}

/** `profile` when it is a plain name (letters, digits, '-', at most 32), else 'other'. */
function profileName(profile) {
  if (profile === undefined || profile === '') return '';
  return /^[A-Za-z0-9-]{1,32}$/.test(profile) ? profile : 'other';
}

/** The cache folder, or undefined when RAPTOR_COMPILE_CACHE=0 turns caching off. */
function cacheDir() {
  const setting = process.env.RAPTOR_COMPILE_CACHE;
  if (setting === '0') return undefined;
  if (setting) return path.resolve(setting);
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  return path.join(os.tmpdir(), `raptor-compile-cache-${uid}`);
}

/** A `require` for module `mod`, as Node builds it for a CommonJS module. */
function makeRequire(mod) {
  const require = (id) => mod.require(id);
  require.resolve = (request, options) => Module._resolveFilename(request, mod, false, options);
  require.resolve.paths = (request) => Module._resolveLookupPaths(request, mod);
  require.main = process.mainModule;
  require.extensions = Module._extensions;
  require.cache = Module._cache;
  return require;
}

/** The folder holding the nearest package.json of `file` (walking up), or undefined. */
function packageJsonOf(file) {
  for (let dir = path.dirname(file); ; ) {
    const candidate = path.join(dir, 'package.json');
    if (fs.existsSync(candidate)) return candidate;
    const up = path.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/** Modification time of `file` in ms, or -1 when it is not a regular file. */
function fileTime(file) {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  return stat !== undefined && stat.isFile() ? stat.mtimeMs : -1;
}

/**
 * Remembers, in `<dir>/resolve[-<suffix>].json`, where the `require`s of modules under `root`
 * resolved (relative paths and package names; not absolute paths, not builtins), and answers them
 * from there on the next run. An entry holds the resolved file and, for a package name, the
 * package.json that chose it with its modification time; it is used only while that file still
 * exists and that package.json is unchanged, else resolved again by Node. The table is rewritten
 * (only with the entries this run used) when anything had to be resolved again.
 */
function enableResolutionCache(dir, root, suffix) {
  const file = path.join(dir, `resolve${suffix ? '-' + suffix : ''}.json`);
  const tag = `${process.version} ${root}`;
  let known = {};
  try {
    const saved = JSON.parse(fs.readFileSync(file, 'latin1'));
    if (saved.tag === tag && saved.entries && typeof saved.entries === 'object') known = saved.entries;
  } catch {
    // No table yet, or an unreadable one: resolve as usual.
  }
  const used = {};
  let changed = false;
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function resolveWithCache(request, parent, isMain, options) {
    const from = parent && parent.filename;
    if (isMain || options !== undefined || typeof from !== 'string' || !from.startsWith(root) || path.isAbsolute(request) || request.startsWith('node:')) {
      return resolve.call(this, request, parent, isMain, options);
    }
    const key = `${path.dirname(from)}\0${request}`;
    const hit = known[key];
    try {
      if (hit && fileTime(hit.file) >= 0 && (hit.pkg === undefined || fileTime(hit.pkg) === hit.time)) {
        used[key] = hit;
        return hit.file;
      }
    } catch {
      // Fall through to Node's resolution.
    }
    const resolved = resolve.call(this, request, parent, isMain, options);
    if (path.isAbsolute(resolved)) {
      const entry = { file: resolved };
      if (!request.startsWith('.')) {
        const pkg = packageJsonOf(resolved);
        if (pkg === undefined) return resolved;
        entry.pkg = pkg;
        entry.time = fileTime(pkg);
      }
      used[key] = entry;
      changed = true;
    }
    return resolved;
  };
  process.once('exit', () => {
    if (!changed) return;
    try {
      fs.mkdirSync(dir, { recursive: true });
      const temp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(temp, JSON.stringify({ tag, entries: used }));
      fs.renameSync(temp, file);
    } catch {
      // Not written: the next run resolves again.
    }
  });
}

/**
 * Turns the compile cache on for the bundles under `packagesDir` (the folder holding the
 * `@raptor-pim` packages: the workspace's `packages/`, or `node_modules/@raptor-pim`).
 * `profile` (optional, e.g. the subcommand) keeps separate caches for runs that use different
 * functions of the same bundles; names other than letters, digits and '-' share 'other'.
 * `options.resolutions: false` leaves out the resolution table (see `enableResolutionCache`),
 * for a run whose bundles require no package (the standalone `raptor import`): reading it would
 * be all it did. Returns what it does: `{ mode: 'off' }`, `{ mode: 'node' }` (Node's own cache),
 * or `{ mode: 'v8', hits, misses }` with the bundles loaded from a cache and those compiled.
 */
function enableCompileCache(packagesDir, profile, options = {}) {
  const dir = cacheDir();
  if (!dir) return { mode: 'off' };
  const suffix = profileName(profile);
  const root = fs.realpathSync(packagesDir) + path.sep;
  if (options.resolutions !== false) enableResolutionCache(dir, root, suffix);
  if (typeof Module.enableCompileCache === 'function') {
    Module.enableCompileCache(path.join(dir, 'node'));
    return { mode: 'node' };
  }
  const status = { mode: 'v8', hits: [], misses: [] };
  const bundle = /^[^\\/]+[\\/]dist[\\/].+\.cjs$/;
  const tag = `${process.version}-${process.arch}-${process.versions.v8}`;
  const pending = [];
  const compile = Module.prototype._compile;

  Module.prototype._compile = function compileWithCache(content, filename) {
    if (!filename.startsWith(root) || !bundle.test(filename.slice(root.length))) return compile.call(this, content, filename);
    let script;
    let file;
    let digest;
    try {
      const stat = fs.statSync(filename);
      digest = `${tag} ${stat.size} ${stat.mtimeMs} ${content.length}`;
      file = path.join(dir, cacheName(filename, suffix));
      let cachedData;
      try {
        const bytes = fs.readFileSync(file);
        if (bytes.length > HEADER_BYTES && bytes.toString('latin1', 0, HEADER_BYTES).trimEnd() === digest) cachedData = bytes.subarray(HEADER_BYTES);
      } catch {
        // No cache yet.
      }
      // A cache exists only for a bundle without a dynamic import (the same size, time and
      // length): the scan of its text is needed only when there is none.
      if (cachedData === undefined && content.includes('import(')) return compile.call(this, content, filename);
      script = new vm.Script(Module.wrap(content), { filename, cachedData });
      if (cachedData === undefined || script.cachedDataRejected) {
        pending.push({ script, file, digest });
        status.misses.push(filename);
      } else status.hits.push(filename);
    } catch {
      return compile.call(this, content, filename);
    }
    const fn = script.runInThisContext({ displayErrors: true });
    return fn.call(this.exports, this.exports, makeRequire(this), this, filename, path.dirname(filename));
  };

  process.once('exit', () => {
    if (pending.length === 0) return;
    try {
      fs.mkdirSync(dir, { recursive: true });
      for (const { script, file, digest } of pending) {
        const header = Buffer.alloc(HEADER_BYTES, 0x20);
        header.write(digest, 0, 'latin1');
        const temp = `${file}.${process.pid}.tmp`;
        fs.writeFileSync(temp, Buffer.concat([header, script.createCachedData()]));
        fs.renameSync(temp, file);
      }
    } catch {
      // A cache that cannot be written only means the next run compiles again.
    }
  });
  return status;
}

module.exports = { enableCompileCache };
