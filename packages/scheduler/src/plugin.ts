/**
 * Scheduler plug-ins: an ES module (or CommonJS module) whose default export implements
 * {@link Scheduler}. `spat-schedule{plugin=PATH}` loads it synchronously when it can (CommonJS,
 * or ES modules on Node versions with `require(esm)`); on others, preload it once with
 * {@link loadSchedulerPlugin} (async), which the CLI does before running a pipeline.
 */
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Scheduler } from './scheduler';
import { SchedulerMessages as M } from './diagnostics';

const loaded = new Map<string, Scheduler>();

/** True when `x` has the shape of a {@link Scheduler}. */
export function isScheduler(x: unknown): x is Scheduler {
  const s = x as Partial<Scheduler> | null;
  return typeof s === 'object' && s !== null && typeof s.name === 'string' && Array.isArray(s.optionsSchema) && typeof s.schedule === 'function';
}

function resolvePluginPath(file: string, base: string): string {
  return path.resolve(base, file);
}

function fromModule(mod: unknown, file: string): Scheduler | string {
  const m = mod as { default?: unknown } | null;
  const candidate = m && typeof m === 'object' && 'default' in m ? m.default : m;
  const inner = candidate && typeof candidate === 'object' && 'default' in (candidate as object) ? (candidate as { default: unknown }).default : candidate;
  if (isScheduler(candidate)) return candidate;
  if (isScheduler(inner)) return inner;
  return M.pluginNotAScheduler(file);
}

/**
 * Loads the plug-in at `file` (relative to `base`, default the working directory) without
 * waiting: a preloaded plug-in, or a synchronous `require`. Returns the scheduler or the
 * diagnostic message.
 */
export function loadSchedulerPluginSync(file: string, base = process.cwd()): Scheduler | string {
  const resolved = resolvePluginPath(file, base);
  const cached = loaded.get(resolved);
  if (cached) return cached;
  try {
    // The module's own require where there is one (CommonJS builds, test runners that
    // transpile plug-ins), else Node's (which also loads ES modules since Node 20.19).
    const req = typeof require === 'function' ? require : createRequire(path.join(base, 'noop.js'));
    const r = fromModule(req(resolved), file);
    if (typeof r !== 'string') loaded.set(resolved, r);
    return r;
  } catch (e) {
    return M.pluginNotLoaded(file, e instanceof Error ? e.message.split('\n')[0]! : String(e));
  }
}

// A native dynamic import that TypeScript's CommonJS output does not rewrite into require().
const nativeImport = new Function('url', 'return import(url)') as (url: string) => Promise<unknown>;

/**
 * Loads (and caches) the plug-in at `file` with a dynamic `import()`, so later
 * `spat-schedule{plugin=...}` runs find it. Returns the scheduler or the diagnostic message.
 *
 * @example
 * const s = await loadSchedulerPlugin('./my-scheduler.mjs');
 * if (typeof s === 'string') console.error(s);
 */
export async function loadSchedulerPlugin(file: string, base = process.cwd()): Promise<Scheduler | string> {
  const resolved = resolvePluginPath(file, base);
  const cached = loaded.get(resolved);
  if (cached) return cached;
  let mod: unknown;
  try {
    mod = await nativeImport(pathToFileURL(resolved).href);
  } catch (e) {
    const sync = loadSchedulerPluginSync(file, base);
    if (typeof sync !== 'string') return sync;
    return M.pluginNotLoaded(file, e instanceof Error ? e.message.split('\n')[0]! : String(e));
  }
  const r = fromModule(mod, file);
  if (typeof r !== 'string') loaded.set(resolved, r);
  return r;
}
