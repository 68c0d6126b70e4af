/**
 * Scalar and address register allocation for one core program.
 *
 * Registers hold constants only (programs have no branches, every address is static), so
 * allocation is a cache: a register that already holds the value is reused, otherwise the
 * least recently used register not needed by the current instruction is loaded with `sldi`.
 * Global addresses use register pairs as pim-isa.md §2 defines them: an even register holds
 * the high word, the next odd one the low word. Addressing is offset-free (pim-isa.md §4.2):
 * every address an instruction uses is the plain value of its register.
 */
import { REGISTER_COUNT, makeInstruction, type Instruction, type Register } from '@raptor-pim/pim-target';

const WORD = 2 ** 32;

/** Register allocation state of one program; loads are appended to `out`. */
export class RegisterAllocator {
  private readonly value: (number | undefined)[] = new Array<number | undefined>(REGISTER_COUNT).fill(undefined);
  private readonly lastUse: number[] = new Array<number>(REGISTER_COUNT).fill(-1);
  private readonly pinned = new Set<number>();
  private clock = 0;
  /** `sldi` instructions emitted. */
  loads = 0;
  /** Register reads served by a register that already held the value. */
  hits = 0;

  constructor(private readonly out: Instruction[]) {}

  /**
   * Starts the operands of a new instruction (earlier pins are released). The registers that
   * already hold one of its `scalars` or global addresses (`pairs`) are pinned first, so that
   * loading another operand never evicts them.
   */
  begin(scalars: readonly number[] = [], pairs: readonly number[] = []): void {
    this.pinned.clear();
    this.clock++;
    for (const n of scalars) {
      const r = this.value.indexOf(n | 0);
      if (r >= 0) this.pinned.add(r);
    }
    for (const address of pairs) {
      const high = Math.floor(address / WORD) | 0;
      const low = (address % WORD) | 0;
      for (let r = 0; r + 1 < REGISTER_COUNT; r += 2) {
        if (this.value[r] === high && this.value[r + 1] === low) {
          this.pinned.add(r);
          this.pinned.add(r + 1);
          break;
        }
      }
    }
  }

  private use(r: number): Register {
    this.pinned.add(r);
    this.lastUse[r] = this.clock;
    return r;
  }

  private load(r: number, v: number): void {
    this.out.push(makeInstruction('sldi', { rd: r, imm: v }));
    this.value[r] = v;
    this.loads++;
  }

  /** A register holding the 32-bit value `n` (signed or unsigned 32-bit input). */
  scalar(n: number): Register {
    const v = n | 0;
    for (let r = 0; r < REGISTER_COUNT; r++) {
      if (this.value[r] === v) {
        this.hits++;
        return this.use(r);
      }
    }
    let victim = -1;
    for (let r = 0; r < REGISTER_COUNT; r++) {
      if (this.pinned.has(r)) continue;
      if (victim < 0 || this.lastUse[r]! < this.lastUse[victim]!) victim = r;
    }
    if (victim < 0) throw new Error('internal error: no free scalar register');
    this.load(victim, v);
    return this.use(victim);
  }

  /** The even register of a pair holding the 64-bit global address `address`. */
  pair(address: number): Register {
    const high = Math.floor(address / WORD) | 0;
    const low = (address % WORD) | 0;
    for (let r = 0; r + 1 < REGISTER_COUNT; r += 2) {
      if (this.value[r] === high && this.value[r + 1] === low) {
        this.hits++;
        this.use(r + 1);
        return this.use(r);
      }
    }
    let victim = -1;
    let best = Infinity;
    for (let r = 0; r + 1 < REGISTER_COUNT; r += 2) {
      // A register another operand needs may be shared when it already holds the right word.
      const highOk = this.value[r] === high || !this.pinned.has(r);
      const lowOk = this.value[r + 1] === low || !this.pinned.has(r + 1);
      if (!highOk || !lowOk) continue;
      // Fewest loads first, then the least recently used pair.
      const loads = (this.value[r] === high ? 0 : 1) + (this.value[r + 1] === low ? 0 : 1);
      const cost = loads * (this.clock + 1) + Math.max(this.lastUse[r]!, this.lastUse[r + 1]!);
      if (cost < best) {
        best = cost;
        victim = r;
      }
    }
    if (victim < 0) throw new Error('internal error: no free register pair');
    if (this.value[victim] !== high) this.load(victim, high);
    if (this.value[victim + 1] !== low) this.load(victim + 1, low);
    this.use(victim + 1);
    return this.use(victim);
  }
}
