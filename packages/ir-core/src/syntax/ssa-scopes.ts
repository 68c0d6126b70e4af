/** SSA value and block name scopes of the parser (one per isolated region), numeric names kept in arrays. */
import { Block } from '../ir/block';
import { type Value } from '../ir/value';

interface ValueEntry {
  value: Value;
  offset: number;
}

/**
 * SSA names visible in one isolated-from-above scope. Result #0 of a name (the common case) is
 * kept in flat maps (no allocation per value); only `%x#N` groups (N >= 1) use entry arrays.
 */
export class IsolatedScope {
  /** Name -> slot in `vals`/`offs` (one hash insertion per value). */
  private readonly index = new Map<string, number>();
  private readonly vals: Value[] = [];
  private readonly offs: number[] = [];
  /**
   * Canonical numeric names (`%0`, `%17`: what printers emit) index these arrays directly,
   * without hashing a fresh substring per use.
   */
  private numVals: (Value | undefined)[] = [];
  private numOffs: number[] = [];
  private numCount = 0;
  readonly groups = new Map<string, (ValueEntry | undefined)[]>();
  /** Per nested (non-isolated) region: the names defined there, removed when it closes. */
  readonly definitions: string[][] = [[]];

  /** Number of names with a result #0. */
  get size(): number {
    return this.index.size + this.numCount;
  }

  get(name: string, number: number): Value | undefined {
    if (number !== 0) return this.groups.get(name)?.[number]?.value;
    const n = numericName(name);
    if (n >= 0) return this.numVals[n];
    const i = this.index.get(name);
    return i === undefined ? undefined : this.vals[i];
  }

  offsetOf(name: string, number: number): number {
    if (number !== 0) return this.groups.get(name)?.[number]?.offset ?? 0;
    const n = numericName(name);
    if (n >= 0) return this.numOffs[n] ?? 0;
    const i = this.index.get(name);
    return i === undefined ? 0 : this.offs[i];
  }

  set(name: string, number: number, value: Value, offset: number): void {
    if (number === 0) {
      const n = numericName(name);
      if (n >= 0) {
        if (this.numVals[n] === undefined) this.numCount++;
        this.numVals[n] = value;
        this.numOffs[n] = offset;
        return;
      }
      const i = this.index.get(name);
      if (i !== undefined) {
        this.vals[i] = value;
        this.offs[i] = offset;
      } else {
        this.index.set(name, this.vals.length);
        this.vals.push(value);
        this.offs.push(offset);
      }
      return;
    }
    let entries = this.groups.get(name);
    if (!entries) this.groups.set(name, (entries = []));
    entries[number] = { value, offset };
  }

  clear(): void {
    this.index.clear();
    this.vals.length = 0;
    this.offs.length = 0;
    this.numVals = [];
    this.numOffs = [];
    this.numCount = 0;
  }

  /** Forgets `name` (its slot stays unused until the scope is cleared). */
  delete(name: string): void {
    const n = numericName(name);
    if (n >= 0) {
      if (this.numVals[n] !== undefined) {
        this.numVals[n] = undefined;
        this.numCount--;
      }
    } else this.index.delete(name);
    this.groups.delete(name);
  }
}

/** Largest numeric name kept in the arrays (larger ones use the map, bounding array size). */
const MAX_NUMERIC_NAME = 1 << 24;

/**
 * The value of a canonical decimal name (`0`, `17`; no sign, no leading zero) up to
 * {@link MAX_NUMERIC_NAME}, or -1 for any other name (`x`, `arg0`, `007`, `c42_i32`).
 */
function numericName(name: string): number {
  const len = name.length;
  if (len === 0 || len > 8) return -1;
  let v = 0;
  for (let i = 0; i < len; i++) {
    const c = name.charCodeAt(i) - 48;
    if (c < 0 || c > 9 || (c === 0 && i === 0 && len > 1)) return -1;
    v = v * 10 + c;
  }
  return v < MAX_NUMERIC_NAME ? v : -1;
}

export interface BlockEntry {
  block: Block;
  defined: boolean;
  offset: number;
}
