/**
 * The order in which pimsim-nn's SystemC kernel wakes the network switches that wait until the
 * same instant.
 *
 * Every switch thread of pimsim-nn waits with `wait(latency)` for each message it sends (and
 * once more for the receiver's hold or the memory's reply). SystemC keeps those timed waits,
 * together with the chip clock's per-cycle wait, in one binary heap (`sc_ppq`): insertion
 * appends and sifts up while the parent is strictly later, extraction moves the last element
 * to the root and sifts it down towards the strictly earlier child (the left one on a tie).
 * Equal times are therefore not served first-in first-out: switches whose messages reach the
 * same destination at the same nanosecond run in an order that depends on the heap's history,
 * and the clock's pop and re-insertion at every edge shuffles waiting entries. At a shared
 * port (the global memory serves one request after another) that order decides who waits for
 * whom: 64 cores that issue their first `ld` in the same cycle are served in the order
 * 30, 62, 61, ..., 31, 14, 29, ..., 15, 6, 13, ..., 7, 2, 5, 4, 3, 0, 1, 63 (pimsim-nn,
 * measured), not 0, 1, ..., 63.
 *
 * This heap reproduces that order for the switches' waits: the same insertion and extraction
 * rules, the clock's entry re-inserted when it is popped, and batches of equal-time entries
 * popped before any of them runs. Waits of other units (vector, matrix, transfer) are not in
 * it, so ties among switches that coincide with such waits may still be ordered differently.
 */

/** Entry code of the chip clock. */
export const CLOCK_ENTRY = -1;

const EPS = 1e-9;

/** A SystemC-ordered heap of timed waits (time, entry code). */
export class TimedWaitHeap {
  // 1-based heap arrays, as SystemC's sc_ppq.
  private time = new Float64Array(129);
  private code = new Int32Array(129);
  private n = 0;
  private scratch = new Int32Array(0);

  /** Entries in the heap, the clock's included. */
  get size(): number {
    return this.n;
  }

  /** Time of the earliest entry (Infinity when empty). */
  topTime(): number {
    return this.n === 0 ? Infinity : this.time[1];
  }

  /** Code of the earliest entry. */
  topCode(): number {
    return this.code[1];
  }

  /** Earliest time among the entries below the root (Infinity with fewer than two entries). */
  secondTime(): number {
    const n = this.n;
    if (n < 2) return Infinity;
    const l = this.time[2];
    return n >= 3 && this.time[3] < l ? this.time[3] : l;
  }

  /**
   * Runs `steps` clock edges inside the heap (each pops the clock's entry from the root and
   * re-inserts it `period` later) without the caller stepping through them. An edge only
   * rearranges the other entries, and the arrangement soon stops changing: once an edge
   * leaves it as it was, the remaining edges just move the clock's time. The caller
   * guarantees that the clock is the root and that `topTime() + steps * period` stays before
   * {@link secondTime}.
   */
  advanceClock(steps: number, period: number): void {
    const n = this.n;
    const T = this.time;
    const C = this.code;
    const start = T[1];
    if (this.scratch.length < n + 1) this.scratch = new Int32Array(2 * (n + 1));
    const before = this.scratch;
    for (let i = 0; i < steps; i++) {
      if (n <= 2) break; // the clock and one entry: an edge changes nothing
      for (let p = 2; p <= n; p++) before[p] = C[p];
      const t = T[1];
      this.extractTop();
      this.insert(t + period, CLOCK_ENTRY);
      let same = true;
      for (let p = 2; p <= n && same; p++) same = before[p] === C[p];
      if (same) break; // a fixed point: further edges only move the clock's time
    }
    // The clock's entry is at the root; the edges left over only move its time.
    T[1] = start + steps * period;
  }

  /** Sets the time of the only entry (the clock while no switch waits). */
  retimeSingle(time: number): void {
    if (this.n === 1) this.time[1] = time;
  }

  /** SystemC's `sc_ppq_base::insert`: append, then sift up while the parent is strictly later. */
  insert(time: number, code: number): void {
    if (this.n + 1 >= this.time.length) {
      const t = new Float64Array(this.time.length * 2);
      t.set(this.time);
      this.time = t;
      const c = new Int32Array(this.code.length * 2);
      c.set(this.code);
      this.code = c;
    }
    const T = this.time;
    const C = this.code;
    let i = ++this.n;
    while (i > 1) {
      const p = i >> 1;
      if (!(T[p] > time + EPS)) break;
      T[i] = T[p];
      C[i] = C[p];
      i = p;
    }
    T[i] = time;
    C[i] = code;
  }

  /**
   * SystemC's `sc_ppq_base::extract_top`: removes the root (read it first with
   * {@link topTime}/{@link topCode}), moves the last entry to the root and sifts it down.
   */
  extractTop(): void {
    const T = this.time;
    const C = this.code;
    T[1] = T[this.n];
    C[1] = C[this.n];
    this.n--;
    const n = this.n;
    let i = 1;
    for (;;) {
      const l = i << 1;
      if (l > n) break;
      let largest = T[l] < T[i] - EPS ? l : i;
      const r = l + 1;
      if (r <= n && T[r] < T[largest] - EPS) largest = r;
      if (largest === i) break;
      const tt = T[i];
      const tc = C[i];
      T[i] = T[largest];
      C[i] = C[largest];
      T[largest] = tt;
      C[largest] = tc;
      i = largest;
    }
  }
}
