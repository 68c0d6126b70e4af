/**
 * Event-register allocation: every READY/FREE role of a host slot needs a register on the
 * core that waits on it. Registers are assigned per core by linear scan over live intervals
 * (positions in that core's stream), so slots whose lifetimes overlap never share a register
 * and a register is reused only after its last wait (as a register allocator reuses a
 * physical register after the last use of its value). The roles never share a register either.
 */

/** One register to allocate. */
export interface EventRegisterRequest {
  /** The core the register lives on (the waiting core). */
  readonly core: number;
  /** READY registers live on readers, FREE registers on writers. */
  readonly role: 'ready' | 'free';
  /** First position (in the core's stream) at which a signal may arrive. */
  readonly start: number;
  /** Position of the wait that consumes the signals (Infinity: until the stream ends). */
  readonly end: number;
  /** A unique key for the result map. */
  readonly key: string;
}

/**
 * Assigns registers `0 .. limit-1` per core; a request that finds no free register is left out
 * of the result (the caller falls back to another transfer or reports it).
 *
 * @example
 * allocateEventRegisters([{ core: 0, role: 'free', start: 0, end: 3, key: 'a' }, { core: 0, role: 'free', start: 4, end: 9, key: 'b' }], 32)
 * // a -> 0, b -> 0 (disjoint lifetimes share)
 */
export function allocateEventRegisters(requests: readonly EventRegisterRequest[], limit: number): Map<string, number> {
  const out = new Map<string, number>();
  const byCore = new Map<number, EventRegisterRequest[]>();
  for (const r of requests) {
    let list = byCore.get(r.core);
    if (!list) byCore.set(r.core, (list = []));
    list.push(r);
  }
  for (const core of [...byCore.keys()].sort((a, b) => a - b)) {
    const list = byCore.get(core)!.slice().sort((a, b) => a.start - b.start || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    // busyUntil[reg] = end of the interval holding it; roleOf[reg] = the role it served last.
    const busyUntil: number[] = [];
    const roleOf: ('ready' | 'free')[] = [];
    for (const r of list) {
      let reg = -1;
      for (let k = 0; k < busyUntil.length; k++) {
        if (busyUntil[k]! < r.start && roleOf[k] === r.role) {
          reg = k;
          break;
        }
      }
      if (reg < 0 && busyUntil.length < limit) {
        reg = busyUntil.length;
        busyUntil.push(0);
        roleOf.push(r.role);
      }
      if (reg < 0) continue;
      busyUntil[reg] = r.end;
      roleOf[reg] = r.role;
      out.set(r.key, reg);
    }
  }
  return out;
}
