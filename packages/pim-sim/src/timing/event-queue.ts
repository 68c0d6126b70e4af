/**
 * A binary min-heap of simulation events over typed arrays (no allocation per event). The
 * arrays are kept in heap order, so a comparison reads the keys directly.
 * Order: time, then priority class, then insertion order, so simultaneous events run
 * deterministically.
 */
export class EventQueue {
  private time = new Float64Array(1024);
  private order = new Float64Array(1024);
  private kind = new Int32Array(1024);
  private a = new Int32Array(1024);
  private b = new Int32Array(1024);
  private size = 0;
  private seq = 0;

  /** Number of pending events. */
  get length(): number {
    return this.size;
  }

  private grow(): void {
    const cap = this.time.length * 2;
    const t = new Float64Array(cap);
    t.set(this.time);
    this.time = t;
    const o = new Float64Array(cap);
    o.set(this.order);
    this.order = o;
    const k = new Int32Array(cap);
    k.set(this.kind);
    this.kind = k;
    const a = new Int32Array(cap);
    a.set(this.a);
    this.a = a;
    const b = new Int32Array(cap);
    b.set(this.b);
    this.b = b;
  }

  /** Adds an event at `time` with priority class `prio` (0 first) and payload (kind, a, b). */
  push(time: number, prio: number, kind: number, a: number, b: number): void {
    if (this.size === this.time.length) this.grow();
    const order = prio * 4294967296 + this.seq++;
    const T = this.time;
    const O = this.order;
    const K = this.kind;
    const A = this.a;
    const B = this.b;
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const tp = T[p];
      if (tp < time || (tp === time && O[p] < order)) break;
      T[i] = tp;
      O[i] = O[p];
      K[i] = K[p];
      A[i] = A[p];
      B[i] = B[p];
      i = p;
    }
    T[i] = time;
    O[i] = order;
    K[i] = kind;
    A[i] = a;
    B[i] = b;
  }

  /** Time of the earliest event (Infinity when empty). */
  peekTime(): number {
    return this.size === 0 ? Infinity : this.time[0];
  }

  /** Removes the earliest event; read it with {@link lastTime} etc. Returns false when empty. */
  pop(): boolean {
    if (this.size === 0) return false;
    const T = this.time;
    const O = this.order;
    const K = this.kind;
    const A = this.a;
    const B = this.b;
    this.lastTime = T[0];
    this.lastKind = K[0];
    this.lastA = A[0];
    this.lastB = B[0];
    const n = --this.size;
    if (n === 0) return true;
    const lt = T[n];
    const lo = O[n];
    const lk = K[n];
    const la = A[n];
    const lb = B[n];
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      let c = l;
      if (r < n && (T[r] < T[l] || (T[r] === T[l] && O[r] < O[l]))) c = r;
      const tc = T[c];
      if (lt < tc || (lt === tc && lo < O[c])) break;
      T[i] = tc;
      O[i] = O[c];
      K[i] = K[c];
      A[i] = A[c];
      B[i] = B[c];
      i = c;
    }
    T[i] = lt;
    O[i] = lo;
    K[i] = lk;
    A[i] = la;
    B[i] = lb;
    return true;
  }

  /** Time of the event last popped. */
  lastTime = 0;
  /** Kind of the event last popped. */
  lastKind = 0;
  /** First payload of the event last popped. */
  lastA = 0;
  /** Second payload of the event last popped. */
  lastB = 0;
}
