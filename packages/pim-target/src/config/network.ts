/**
 * The NoC latency/energy table file (pim-isa.md §11):
 * `{"latency": {"<src>": {"<dst>": ns_per_flit}}, "energy": {"<src>": {"<dst>": pJ_per_flit}}}`.
 * Keys are decimal switch ids (cores by id, the global memory by its switch id, -10 by
 * default). The table is directed; missing pairs cost 0.
 */
import { Messages } from '../diagnostics';
import type { Result, TargetDiagnostic } from '../target-diagnostic';
import { parseJsonText } from '../encoding/json-form';
import type { NetworkTable } from './hardware-config';

/** An empty table (every message costs 0 ns and 0 pJ, as in pimsim-nn's test fixtures). */
export function emptyNetworkTable(): NetworkTable {
  return { latency: new Map(), energy: new Map() };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const SWITCH_ID = /^-?[0-9]+$/;

/** Reads a NoC table from a parsed JSON value. Never throws. */
export function networkTableFromJson(value: unknown, file?: string): Result<NetworkTable> {
  const diagnostics: TargetDiagnostic[] = [];
  const report = (code: string, message: string, path: string): void => {
    const d: TargetDiagnostic = { severity: 'error', code, message, path };
    if (file !== undefined) d.file = file;
    diagnostics.push(d);
  };
  const table = emptyNetworkTable();
  if (!isObject(value)) {
    const msg = Messages.configNotObject('(root)', value);
    report(msg.code, msg.message, '');
    return { value: undefined, diagnostics };
  }
  for (const section of ['latency', 'energy'] as const) {
    const outer = value[section];
    if (outer === undefined) continue;
    if (!isObject(outer)) {
      const msg = Messages.configNotObject(section, outer);
      report(msg.code, msg.message, section);
      continue;
    }
    for (const [src, inner] of Object.entries(outer)) {
      const srcPath = `${section}.${src}`;
      if (!SWITCH_ID.test(src)) {
        const msg = Messages.networkBadKey(section, src);
        report(msg.code, msg.message, srcPath);
        continue;
      }
      if (!isObject(inner)) {
        const msg = Messages.configNotObject(srcPath, inner);
        report(msg.code, msg.message, srcPath);
        continue;
      }
      const row = new Map<number, number>();
      for (const [dst, cost] of Object.entries(inner)) {
        const path = `${srcPath}.${dst}`;
        if (!SWITCH_ID.test(dst)) {
          const msg = Messages.networkBadKey(srcPath, dst);
          report(msg.code, msg.message, path);
        } else if (typeof cost !== 'number' || !Number.isFinite(cost) || cost < 0) {
          const msg = Messages.networkBadValue(path, cost);
          report(msg.code, msg.message, path);
        } else {
          row.set(Number(dst), cost);
        }
      }
      table[section].set(Number(src), row);
    }
  }
  return { value: diagnostics.length > 0 ? undefined : table, diagnostics };
}

/** Reads a NoC table file's text. Never throws. */
export function parseNetworkTable(text: string, file?: string): Result<NetworkTable> {
  const parsed = parseJsonText(text, file);
  if (parsed.value === undefined) return { value: undefined, diagnostics: parsed.diagnostics };
  return networkTableFromJson(parsed.value, file);
}

function formatSection(section: Map<number, Map<number, number>>): string {
  const rows = [...section.keys()].sort((a, b) => a - b).map((src) => {
    const row = section.get(src)!;
    const cells = [...row.keys()].sort((a, b) => a - b).map((dst) => `"${dst}": ${JSON.stringify(row.get(dst))}`);
    return `"${src}": {${cells.join(', ')}}`;
  });
  return rows.length ? `{\n    ${rows.join(',\n    ')}\n  }` : '{}';
}

/**
 * Prints a NoC table in pimsim-nn's format, deterministically (switch ids in numeric order,
 * one source per line, final newline).
 */
export function formatNetworkTable(table: NetworkTable): string {
  return `{\n  "latency": ${formatSection(table.latency)},\n  "energy": ${formatSection(table.energy)}\n}\n`;
}

/** Parameters of {@link meshNetworkTable}. */
export interface MeshNetworkOptions {
  /** Mesh rows and columns; core `id` sits at (floor(id / cols), id % cols). */
  layout: [number, number];
  /** Number of cores (default rows × cols). */
  cores?: number;
  /** ns per flit per hop (XY routing: Manhattan distance hops). */
  hopLatency: number;
  /** pJ per flit per hop. */
  hopEnergy: number;
  /** Fixed ns per flit added to every core-to-core message (default 0). */
  routerLatency?: number;
  /** Switch id of the global memory (default -10). */
  memorySwitchId?: number;
  /** ns per flit between any core and the global memory, both directions. */
  memoryLatency: number;
  /** pJ per flit between any core and the global memory. */
  memoryEnergy: number;
}

/**
 * Builds the NoC table of an XY-routed mesh: core-to-core cost = router latency + hops × hop
 * latency; every core ↔ global memory costs `memoryLatency`.
 *
 * @example `meshNetworkTable({ layout: [8, 8], hopLatency: 1, hopEnergy: 1, memoryLatency: 15, memoryEnergy: 46 })`
 */
export function meshNetworkTable(options: MeshNetworkOptions): NetworkTable {
  const [rows, cols] = options.layout;
  const cores = options.cores ?? rows * cols;
  const memory = options.memorySwitchId ?? -10;
  const router = options.routerLatency ?? 0;
  const table = emptyNetworkTable();
  const memLatency = new Map<number, number>();
  const memEnergy = new Map<number, number>();
  for (let s = 0; s < cores; s++) {
    const latency = new Map<number, number>();
    const energy = new Map<number, number>();
    const sr = Math.floor(s / Math.max(cols, 1));
    const sc = s % Math.max(cols, 1);
    for (let d = 0; d < cores; d++) {
      if (d === s) continue;
      const hops = Math.abs(sr - Math.floor(d / Math.max(cols, 1))) + Math.abs(sc - (d % Math.max(cols, 1)));
      latency.set(d, router + hops * options.hopLatency);
      energy.set(d, hops * options.hopEnergy);
    }
    latency.set(memory, options.memoryLatency);
    energy.set(memory, options.memoryEnergy);
    memLatency.set(s, options.memoryLatency);
    memEnergy.set(s, options.memoryEnergy);
    table.latency.set(s, latency);
    table.energy.set(s, energy);
  }
  table.latency.set(memory, memLatency);
  table.energy.set(memory, memEnergy);
  return table;
}

/** The table's cost of a message of `flits` flits from switch `src` to `dst` (0 when the pair is missing). */
export function networkCost(table: NetworkTable, src: number, dst: number, flits: number): { latency: number; energy: number } {
  return {
    latency: Math.trunc(flits * (table.latency.get(src)?.get(dst) ?? 0)),
    energy: flits * (table.energy.get(src)?.get(dst) ?? 0),
  };
}
