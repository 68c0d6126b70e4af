/**
 * The communication contract, checked exactly on the static streams (programs have no
 * branches): per ordered core pair, the sends of one and the receives of the other pair up in
 * program order with equal byte counts; per core and event register, the waits consume no
 * more signals than the syncs to it produce (fewer is a warning: the fork's `>=`/subtract
 * `wait` and the ISA's `==`/reset `wait` then disagree).
 */
import { CodegenMessages as M } from '../diagnostics';
import type { Reporter } from './reporter';
import type { StaticOp, StaticProgram } from './static-program';

type Transfer = Extract<StaticOp, { kind: 'send' | 'recv' }>;

/** Checks send/receive pairing, sync/wait counts and deadlock freedom of `program`. */
export function checkCommunication(program: StaticProgram, report: Reporter): void {
  const before = report.errors;
  checkPairing(program, report);
  if (report.errors === before) checkDeadlock(program, report);
}

/**
 * Executes the streams' communication abstractly (programs have no branches, so this is
 * exact): a `send` and its `recv` complete together (pimsim-nn's handshake needs the receiver
 * inside the matching `recv`), a `sync` adds a token to its target's register, a `wait` takes
 * its count once that many tokens arrived. Cores that can never finish are reported at the op
 * each one blocks on.
 */
function checkDeadlock(program: StaticProgram, report: Reporter): void {
  const streams = program.streams.map((s) => ({ core: s.coreId, ops: s.ops.filter((o) => o.kind === 'send' || o.kind === 'recv' || o.kind === 'sync' || o.kind === 'wait'), pc: 0 }));
  const byCore = new Map(streams.map((s) => [s.core, s]));
  const tokens = new Map<string, number>();
  const current = (core: number): StaticOp | undefined => {
    const s = byCore.get(core);
    return s ? s.ops[s.pc] : undefined;
  };
  let progress = true;
  while (progress) {
    progress = false;
    for (const s of streams) {
      for (;;) {
        const op = s.ops[s.pc];
        if (!op) break;
        if (op.kind === 'sync') {
          const key = `${op.peer}:${op.event}`;
          tokens.set(key, (tokens.get(key) ?? 0) + 1);
        } else if (op.kind === 'wait') {
          const key = `${s.core}:${op.event}`;
          const have = tokens.get(key) ?? 0;
          if (have < op.count) break;
          tokens.set(key, have - op.count);
        } else {
          const other = current(op.peer);
          const matches = op.kind === 'send' ? other?.kind === 'recv' && other.peer === s.core : other?.kind === 'send' && other.peer === s.core;
          if (!matches) break;
          byCore.get(op.peer)!.pc++;
        }
        s.pc++;
        progress = true;
      }
    }
  }
  const blocked = streams.filter((s) => s.pc < s.ops.length);
  if (blocked.length === 0) return;
  const list = blocked.map((s) => `core ${s.core}`).join(', ');
  for (const s of blocked) {
    const op = s.ops[s.pc]!;
    const what =
      op.kind === 'wait'
        ? `waits for ${op.count} signal(s) on event register ${op.event} that never arrive`
        : op.kind === 'send'
          ? `sends to core ${op.peer}, which never reaches the matching receive`
          : `receives from core ${op.peer}, which never reaches the matching send`;
    report.error(op.op, M.deadlock(s.core, what, list));
  }
}

/** Send/receive pairing per core pair and sync/wait counts per register. */
function checkPairing(program: StaticProgram, report: Reporter): void {
  const sends = new Map<string, Transfer[]>();
  const recvs = new Map<string, Transfer[]>();
  const signals = new Map<string, number>();
  const waits = new Map<string, { count: number; first: StaticOp }>();
  const push = (m: Map<string, Transfer[]>, key: string, t: Transfer): void => {
    let l = m.get(key);
    if (!l) m.set(key, (l = []));
    l.push(t);
  };
  for (const s of program.streams) {
    for (const op of s.ops) {
      if (op.kind === 'send') push(sends, `${s.coreId}->${op.peer}`, op);
      else if (op.kind === 'recv') push(recvs, `${op.peer}->${s.coreId}`, op);
      else if (op.kind === 'sync') signals.set(`${op.peer}:${op.event}`, (signals.get(`${op.peer}:${op.event}`) ?? 0) + 1);
      else if (op.kind === 'wait') {
        const key = `${s.coreId}:${op.event}`;
        const w = waits.get(key);
        if (w) w.count += op.count;
        else waits.set(key, { count: op.count, first: op });
      }
    }
  }
  const pairs = [...new Set([...sends.keys(), ...recvs.keys()])].sort();
  for (const key of pairs) {
    const [from, to] = key.split('->').map(Number) as [number, number];
    const s = sends.get(key) ?? [];
    const r = recvs.get(key) ?? [];
    const n = Math.max(s.length, r.length);
    for (let i = 0; i < n; i++) {
      const a = s[i];
      const b = r[i];
      if (a && b && a.size === b.size) continue;
      if (a && b) report.error(b.op, M.transferSizeMismatch(from, to, i, a.size, b.size));
      else if (a) report.error(a.op, M.unmatchedSend(from, to, i));
      else if (b) report.error(b.op, M.unmatchedReceive(from, to, i));
      break;
    }
  }
  for (const [key, w] of [...waits.entries()].sort()) {
    const produced = signals.get(key) ?? 0;
    const [core, event] = key.split(':').map(Number) as [number, number];
    if (w.count > produced) report.error(w.first.op, M.waitsExceedSyncs(core, event, w.count, produced));
  }
  for (const [key, produced] of [...signals.entries()].sort()) {
    const consumed = waits.get(key)?.count ?? 0;
    if (produced > consumed) {
      const [core, event] = key.split(':').map(Number) as [number, number];
      const at = program.streams.flatMap((s) => s.ops).find((o) => o.kind === 'sync' && o.peer === core && o.event === event)!;
      report.warning(at.op, M.syncsExceedWaits(core, event, produced, consumed));
    }
  }
}
