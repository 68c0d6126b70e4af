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

/** Checks send/receive pairing and sync/wait counts of `program`. */
export function checkCommunication(program: StaticProgram, report: Reporter): void {
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
