/**
 * Event-register allocation: every READY/FREE role of a host slot needs a register on the
 * core that waits on it. Registers are assigned per core by linear scan over live intervals,
 * so slots whose lifetimes overlap never share a register and a register is reused only after
 * its last wait (as a register allocator reuses a physical register after the last use of its
 * value). The roles never share a register either.
 *
 * Positions are points of one global order of the schedule that every happens-before edge
 * respects (materialization uses the node order: a slot's READY register lives from its
 * writer's store to its reader's load). A request that takes over a register from an earlier
 * one is told which ({@link EventRegisterAssignment.after}): the caller must make the new
 * occupant's first signal wait for the previous occupant's wait (materialization sends the
 * reader's FREE for the new slot right after it loaded the previous one), so the counts of the
 * two never mix and the register never exceeds its awaited count.
 */

/** One register to allocate. */
export interface EventRegisterRequest {
  /** The core the register lives on (the waiting core). */
  readonly core: number;
  /** READY registers live on readers, FREE registers on writers. */
  readonly role: 'ready' | 'free';
  /** First position (in the schedule's global order) at which a signal may arrive. */
  readonly start: number;
  /** Position of the wait that consumes the signals (Infinity: until the stream ends). */
  readonly end: number;
  /** A unique key for the result map. */
  readonly key: string;
}

/** Where a request landed. */
export interface EventRegisterAssignment {
  /** The register index on the request's core. */
  readonly register: number;
  /** The key of the request that held the register before (its wait ends before this start). */
  readonly after?: string;
}

/**
 * Assigns registers `0 .. limit-1` per core (see the file comment); a request that finds no
 * free register is left out of the result (the caller falls back to another transfer or
 * reports it). Deterministic: requests are scanned by start, then key.
 *
 * @example
 * assignEventRegisters([{ core: 0, role: 'ready', start: 0, end: 3, key: 'a' }, { core: 0, role: 'ready', start: 4, end: 9, key: 'b' }], 32)
 * // a -> { register: 0 }, b -> { register: 0, after: 'a' } (disjoint lifetimes share)
 */
export function assignEventRegisters(requests: readonly EventRegisterRequest[], limit: number): Map<string, EventRegisterAssignment> {
  const out = new Map<string, EventRegisterAssignment>();
  const byCore = new Map<number, EventRegisterRequest[]>();
  for (const r of requests) {
    let list = byCore.get(r.core);
    if (!list) byCore.set(r.core, (list = []));
    list.push(r);
  }
  for (const core of [...byCore.keys()].sort((a, b) => a - b)) {
    const list = byCore.get(core)!.slice().sort((a, b) => a.start - b.start || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    // Per register: the end of the interval holding it, the role it serves, its last holder.
    const busyUntil: number[] = [];
    const roleOf: ('ready' | 'free')[] = [];
    const holder: string[] = [];
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
        busyUntil.push(-Infinity);
        roleOf.push(r.role);
        holder.push('');
      }
      if (reg < 0) continue;
      const after = holder[reg] || undefined;
      busyUntil[reg] = r.end;
      roleOf[reg] = r.role;
      holder[reg] = r.key;
      out.set(r.key, after === undefined ? { register: reg } : { register: reg, after });
    }
  }
  return out;
}

/**
 * The register of every request ({@link assignEventRegisters} without the hand-over keys).
 *
 * @example
 * allocateEventRegisters([{ core: 0, role: 'free', start: 0, end: 3, key: 'a' }, { core: 0, role: 'free', start: 4, end: 9, key: 'b' }], 32)
 * // a -> 0, b -> 0 (disjoint lifetimes share)
 */
export function allocateEventRegisters(requests: readonly EventRegisterRequest[], limit: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const [k, a] of assignEventRegisters(requests, limit)) out.set(k, a.register);
  return out;
}
