/**
 * A binary min-heap of simulation events over typed arrays (no allocation per event).
 * Order: time, then priority class, then insertion order, so simultaneous events run
 * deterministically.
 */
export class EventQueue {
  private time = new Float64Array(1024);
  private order = new Float64Array(1024);
  private kind = new Int32Array(1024);
  private a = new Int32Array(1024);
  private b = new Int32Array(1024);
  private heap = new Int32Array(1024);
  private free: number[] = [];
  private used = 0;
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
    const h = new Int32Array(cap);
    h.set(this.heap);
    this.heap = h;
  }

  private less(x: number, y: number): boolean {
    const tx = this.time[x];
    const ty = this.time[y];
    if (tx !== ty) return tx < ty;
    return this.order[x] < this.order[y];
  }

  /** Adds an event at `time` with priority class `prio` (0 first) and payload (kind, a, b). */
  push(time: number, prio: number, kind: number, a: number, b: number): void {
    let slot: number;
    if (this.free.length > 0) slot = this.free.pop() as number;
    else {
      if (this.used === this.time.length) this.grow();
      slot = this.used++;
    }
    this.time[slot] = time;
    this.order[slot] = prio * 4294967296 + this.seq++;
    this.kind[slot] = kind;
    this.a[slot] = a;
    this.b[slot] = b;
    let i = this.size++;
    const heap = this.heap;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(slot, heap[p])) break;
      heap[i] = heap[p];
      i = p;
    }
    heap[i] = slot;
  }

  /** Time of the earliest event (Infinity when empty). */
  peekTime(): number {
    return this.size === 0 ? Infinity : this.time[this.heap[0]];
  }

  /** Removes the earliest event; read it with {@link lastTime} etc. Returns false when empty. */
  pop(): boolean {
    if (this.size === 0) return false;
    const heap = this.heap;
    const top = heap[0];
    this.lastTime = this.time[top];
    this.lastKind = this.kind[top];
    this.lastA = this.a[top];
    this.lastB = this.b[top];
    this.free.push(top);
    const last = heap[--this.size];
    let i = 0;
    const n = this.size;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && this.less(heap[r], heap[l]) ? r : l;
      if (!this.less(heap[c], last)) break;
      heap[i] = heap[c];
      i = c;
    }
    heap[i] = last;
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
