/**
 * Reports of a simulation: a text report (pimsim-nn's layout plus per-unit statistics), a
 * JSON report, and a Chrome trace-event file (opens in Perfetto or chrome://tracing).
 */
import type { SimulationResult } from './simulate';
import type { TraceEvent } from './timing/types';

/** Per-core entry of the JSON report. */
export interface JsonCoreReport {
  /** Core id. */
  id: number;
  /** Finish time in ns (latency mode). */
  finishNs: number;
  /** Rounds (throughput mode). */
  rounds: number;
  /** Energy of the core without network and global memory, in pJ. */
  energyPj: number;
  /** The core's average power in mW (its energy over the chip latency or the simulated time). */
  averagePowerMw: number;
  /** Instructions in the program. */
  programLength: number;
  /** Instructions issued. */
  issued: number;
  /** Busy time per unit (ns). */
  busyNs: { vector: number; transfer: number; matrix: number };
  /** Front-end stalls by cause (ns). */
  stallNs: { robFull: number; unitBusy: number; hazard: number };
  /** Bytes moved. */
  bytes: { localRead: number; localWrite: number; globalRead: number; globalWrite: number; sent: number; received: number };
  /** Instruction mix. */
  mix: Record<string, number>;
}

/** The JSON report (`raptor sim --json`). */
export interface JsonReport {
  /** True when the run finished without error. */
  ok: boolean;
  /** Mode. */
  mode: 'latency' | 'throughput';
  /** Chip latency in ns (latency mode) or the simulated time (throughput mode). */
  latencyNs: number;
  /** Total energy in pJ. */
  energyPj: number;
  /** Average power in mW (energy / time). */
  averagePowerMw: number;
  /** Throughput mode: completed outputs (minimum rounds over non-empty cores). */
  rounds: number;
  /** Throughput mode: energy per output in pJ. */
  energyPerRoundPj: number;
  /** Energy by component in pJ. */
  energy: Record<string, number>;
  /** Per core. */
  cores: JsonCoreReport[];
  /** Instructions executed by the functional pass. */
  executed: number;
  /** pimsim-nn compatibility. */
  compatibility: { pimsimCompatible: boolean; notes: string[] };
  /** Outputs written (name, shape, file when written). */
  outputs: { name: string; shape: number[]; dtype: string; file?: string }[];
  /** The error, when the run failed. */
  error?: { kind: string; core: number; pc: number; instruction: string; message: string };
}

function round(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}

/**
 * Builds the JSON report. `outputFiles` maps output names to the files they were written to.
 */
export function jsonReport(result: SimulationResult, outputFiles: Readonly<Record<string, string>> = {}): JsonReport {
  const t = result.timing;
  const latency = t?.latencyNs ?? 0;
  const energy = t?.energyPj ?? 0;
  const report: JsonReport = {
    ok: result.ok,
    mode: result.mode,
    latencyNs: round(latency),
    energyPj: round(energy),
    averagePowerMw: latency > 0 ? round(energy / latency) : 0,
    rounds: t?.rounds ?? 0,
    energyPerRoundPj: t && t.rounds > 0 ? round(energy / t.rounds) : 0,
    energy: t ? Object.fromEntries(Object.entries(t.energy).map(([k, v]) => [k, round(v)])) : {},
    cores: (t?.cores ?? []).map((c) => ({
      id: c.id,
      finishNs: round(c.finishNs),
      rounds: c.rounds,
      energyPj: round(c.energyPj),
      averagePowerMw: latency > 0 ? round(c.energyPj / latency) : 0,
      programLength: c.programLength,
      issued: c.issued,
      busyNs: { vector: round(c.busyNs.vector), transfer: round(c.busyNs.transfer), matrix: round(c.busyNs.matrix) },
      stallNs: { robFull: round(c.stallNs.robFull), unitBusy: round(c.stallNs.unitBusy), hazard: round(c.stallNs.hazard) },
      bytes: { ...c.bytes },
      mix: { ...c.mix },
    })),
    executed: result.executed,
    compatibility: { pimsimCompatible: result.compatibility.pimsimCompatible, notes: [...result.compatibility.notes] },
    outputs: result.outputs.map((o) => ({
      name: o.name,
      shape: [...o.array.shape],
      dtype: o.array.dtype,
      ...(outputFiles[o.name] !== undefined ? { file: outputFiles[o.name] } : {}),
    })),
  };
  if (result.error) report.error = { ...result.error };
  return report;
}

function ms(ns: number): string {
  return `${Number((ns / 1e6).toPrecision(10))} ms`;
}

/** Formats the text report: pimsim-nn's "Simulation Report" layout plus per-core statistics. */
export function textReport(result: SimulationResult): string {
  const r = jsonReport(result);
  const lines: string[] = [];
  lines.push('|*************** Simulation Report ***************|');
  lines.push('Basic Information:');
  lines.push(`  - core count:         ${r.cores.length}`);
  lines.push(`  - simulation mode:    ${r.mode === 'latency' ? 1 : 0} (${r.mode})`);
  lines.push(`  - instructions run:   ${r.executed}`);
  lines.push('Chip Simulation Result:');
  if (r.mode === 'latency') {
    lines.push(`  - latency:            ${ms(r.latencyNs)} (${r.latencyNs} ns)`);
    lines.push(`  - average power:      ${r.averagePowerMw} mW`);
    lines.push(`  - average energy:     ${r.energyPj} pJ`);
  } else {
    const seconds = r.latencyNs / 1e9;
    lines.push(`  - simulation time:    ${ms(r.latencyNs)}`);
    lines.push(`  - output count:       ${r.rounds} samples`);
    lines.push(`  - throughput:         ${seconds > 0 ? Number((r.rounds / seconds).toPrecision(6)) : 0} samples/s`);
    lines.push(`  - average power:      ${r.averagePowerMw} mW`);
    lines.push(`  - average energy:     ${r.energyPerRoundPj} pJ/it`);
  }
  lines.push('Energy Breakdown (pJ):');
  for (const [k, v] of Object.entries(r.energy)) lines.push(`  - ${k.replace(/Pj$/, '').padEnd(18)} ${v}`);
  for (const c of r.cores) {
    lines.push(`Core ${c.id} Information`);
    if (r.mode === 'latency') lines.push(`  - finish time:        ${ms(c.finishNs)} (${c.finishNs} ns)`);
    else {
      lines.push(`  - rounds:             ${c.rounds} samples`);
      lines.push(`  - average power:      ${c.averagePowerMw} mW`);
    }
    lines.push(`  - energy:             ${c.energyPj} pJ`);
    lines.push(`  - instructions:       ${c.issued} issued of ${c.programLength}`);
    lines.push(`  - busy (ns):          vector ${c.busyNs.vector}, transfer ${c.busyNs.transfer}, matrix ${c.busyNs.matrix}`);
    lines.push(`  - stalls (ns):        rob-full ${c.stallNs.robFull}, unit-busy ${c.stallNs.unitBusy}, hazard ${c.stallNs.hazard}`);
    lines.push(
      `  - bytes:              local r/w ${c.bytes.localRead}/${c.bytes.localWrite}, global r/w ${c.bytes.globalRead}/${c.bytes.globalWrite}, sent ${c.bytes.sent}, received ${c.bytes.received}`,
    );
    const mix = Object.entries(c.mix)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    if (mix) lines.push(`  - mix:                ${mix}`);
  }
  if (r.compatibility.notes.length > 0) {
    lines.push('pimsim-nn compatibility:');
    for (const n of r.compatibility.notes) lines.push(`  - ${n}`);
  }
  if (r.error) lines.push(`error: ${r.error.message}`);
  return lines.join('\n') + '\n';
}

/** The metadata events of a Chrome trace (process and thread names), one pass over the trace. */
function traceMetadata(result: SimulationResult): TraceEvent[] {
  const events: TraceEvent[] = [];
  const cores = result.timing?.cores ?? [];
  const trace = result.timing?.trace ?? [];
  const meta = (pid: number, tid: number, kind: 'process_name' | 'thread_name', name: string): TraceEvent => ({
    name: kind,
    cat: '__metadata',
    ph: 'M',
    ts: 0,
    pid,
    tid,
    args: { name },
  });
  const groups = new Map<number, Set<number>>();
  for (const e of trace) {
    if (e.tid < 3) continue;
    let g = groups.get(e.pid);
    if (!g) groups.set(e.pid, (g = new Set()));
    g.add(e.tid);
  }
  for (const c of cores) {
    events.push(meta(c.id, 0, 'process_name', `core ${c.id}`));
    events.push(meta(c.id, 1, 'thread_name', 'vector unit'));
    events.push(meta(c.id, 2, 'thread_name', 'transfer unit'));
    for (const g of [...(groups.get(c.id) ?? [])].sort((a, b) => a - b)) events.push(meta(c.id, g, 'thread_name', `array group ${g - 3}`));
  }
  const netPid = cores.length;
  events.push(meta(netPid, 0, 'process_name', 'network'));
  for (let s = 0; s <= cores.length; s++) events.push(meta(netPid, s, 'thread_name', s === cores.length ? 'global memory switch' : `switch ${s}`));
  return events;
}

/** Builds the Chrome trace-event document (one process per core, one thread per unit). */
export function chromeTrace(result: SimulationResult): { traceEvents: TraceEvent[]; displayTimeUnit: 'ns' } {
  const events = traceMetadata(result);
  for (const e of result.timing?.trace ?? []) events.push(e);
  return { traceEvents: events, displayTimeUnit: 'ns' };
}

/**
 * The JSON text of {@link chromeTrace}'s document in pieces (about `chunkEvents` events each),
 * for traces too large for one string (a whole-model program has millions of events): write
 * them one after another.
 */
export function* chromeTraceJsonChunks(result: SimulationResult, chunkEvents = 65536): Generator<string> {
  yield '{"traceEvents":[';
  let first = true;
  let piece: string[] = [];
  const flush = function* (): Generator<string> {
    if (!piece.length) return;
    yield (first ? '' : ',') + piece.join(',');
    first = false;
    piece = [];
  };
  for (const e of traceMetadata(result)) piece.push(JSON.stringify(e));
  for (const e of result.timing?.trace ?? []) {
    piece.push(JSON.stringify(e));
    if (piece.length >= chunkEvents) yield* flush();
  }
  yield* flush();
  yield '],"displayTimeUnit":"ns"}\n';
}
