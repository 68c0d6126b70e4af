/**
 * The functional pass: executes every core's program with real values per the ISA document
 * (pim-isa.md §5), and checks what pimsim-nn does not: bounds and alignment of every memory
 * access, register and event-register indices, send/recv size agreement, mvmul shapes
 * against the array group's weights, and deadlock (every live core blocked).
 *
 * Scheduling is untimed: each core runs until it blocks on `recv` (no matching `send`
 * posted), `send` (rendezvous: the receiver has not reached the matching `recv`) or `wait`
 * (not enough tokens), then the next core runs. Sends and receives match in program order
 * per (sender, receiver) pair. `wait` consumes tokens as the fork does (block until
 * `count >= value`, then subtract); the timing pass applies the configured semantics.
 */
import type { SimError, SimErrorKind } from '../diagnostics';
import { SIM_MESSAGES } from '../diagnostics';
import type { CompiledProgram } from '../program';
import { STRIDE, F_OP, F_RD, F_RS1, F_RS2, F_IMM, F_LEN, F_OSEL, F_OVAL, F_CORE, F_A, F_B, F_C, OP } from '../program';
import { formatInstruction } from '../format';
import { Memory } from './memory';
import { createSimdKernel } from './simd-kernel';
import type { SimdKernel } from './simd-kernel';

/** Element type of 32-bit values: IEEE float (default) or two's-complement integer. */
export type ElementType = 'f32' | 'i32';

/** Weights of one array group: `rows × cols`, row-major (`data[i * cols + j]` = W[i][j]). */
export interface GroupWeights {
  /** Rows (inputs). */
  readonly rows: number;
  /** Columns (outputs). */
  readonly cols: number;
  /** Row-major values. */
  readonly data: Float32Array | Float64Array | Int32Array | Int8Array | Int16Array;
}

/** Machine shape the functional pass needs. */
export interface FunctionalMachine {
  /** Crossbar rows (mvmul input length). */
  readonly xbarRows: number;
  /** Crossbar columns. */
  readonly xbarCols: number;
  /** Bits per cell. */
  readonly cellPrecision: number;
  /** Local memory bytes per core. */
  readonly localSize: number;
  /** Global memory bytes. */
  readonly globalSize: number;
  /** What 32-bit elements hold. */
  readonly elementType: ElementType;
}

/** Inputs of {@link runFunctional}. */
export interface FunctionalInput {
  /** One program per core. */
  readonly programs: readonly CompiledProgram[];
  /** Crossbars per array group, per core. */
  readonly groups: readonly (readonly number[])[];
  /** Weights per core and group (missing = all zero). */
  readonly weights?: readonly (readonly (GroupWeights | undefined)[] | undefined)[];
  /** Initial global memory image (copied; shorter images are zero-extended). */
  readonly globalImage?: Uint8Array;
}

/** Result of the functional pass. */
export interface FunctionalResult {
  /** Final global memory. */
  readonly global: Memory;
  /** Final local memory per core. */
  readonly locals: readonly Memory[];
  /** Final registers per core. */
  readonly registers: readonly Int32Array[];
  /** Instructions executed. */
  readonly executed: number;
  /** The first error, if any (execution stops there). */
  readonly error?: SimError;
}

const BLOCK_NONE = 0;
const BLOCK_SEND = 1;
const BLOCK_RECV = 2;
const BLOCK_WAIT = 3;

class Core {
  readonly regs = new Int32Array(32);
  readonly er = new Int32Array(32);
  pc = 0;
  ibyw = 0;
  obyw = 0;
  block = BLOCK_NONE;
  peer = -1;
  done = false;
  constructor(
    readonly id: number,
    readonly prog: CompiledProgram,
    readonly mem: Memory,
  ) {}
}

class Stop {
  constructor(readonly error: SimError) {}
}

/**
 * Executes the programs with values. Returns the final memories, or the first error.
 *
 * @example
 * ```ts
 * const r = runFunctional(machine, { programs, groups });
 * if (r.error) console.error(r.error.message);
 * ```
 */
export function runFunctional(machine: FunctionalMachine, input: FunctionalInput): FunctionalResult {
  return new FunctionalEngine(machine, input).run();
}

class FunctionalEngine {
  private readonly cores: Core[];
  private readonly global: Memory;
  private executed = 0;
  private readonly n: number;
  private softmaxScratch = new Float64Array(0);

  constructor(
    private readonly m: FunctionalMachine,
    private readonly input: FunctionalInput,
  ) {
    this.n = input.programs.length;
    this.global = new Memory(m.globalSize);
    if (input.globalImage) this.global.bytes.set(input.globalImage.subarray(0, m.globalSize));
    this.cores = input.programs.map((p, i) => new Core(i, p, new Memory(m.localSize)));
  }

  run(): FunctionalResult {
    let error: SimError | undefined;
    try {
      this.schedule();
    } catch (e) {
      if (e instanceof Stop) error = e.error;
      else throw e;
    }
    const result: FunctionalResult = {
      global: this.global,
      locals: this.cores.map((c) => c.mem),
      registers: this.cores.map((c) => c.regs),
      executed: this.executed,
      ...(error ? { error } : {}),
    };
    return result;
  }

  private schedule(): void {
    let live = 0;
    for (const c of this.cores) {
      if (c.prog.length === 0) c.done = true;
      else live++;
    }
    while (live > 0) {
      let progress = false;
      for (const c of this.cores) {
        if (c.done) continue;
        if (this.runCore(c)) progress = true;
        if (c.done) live--;
      }
      if (!progress && live > 0) this.deadlock();
    }
  }

  private fail(kind: SimErrorKind, c: Core, pc: number, message: string): never {
    throw new Stop({ kind, core: c.id, pc, instruction: formatInstruction(c.prog.code, pc), message });
  }

  private text(c: Core, pc: number): string {
    return formatInstruction(c.prog.code, pc);
  }

  private deadlock(): never {
    const lines: string[] = [];
    let first: Core | undefined;
    for (const c of this.cores) {
      if (c.done) continue;
      first ??= c;
      const t = this.text(c, c.pc);
      const base = c.pc * STRIDE;
      if (c.block === BLOCK_RECV) lines.push(SIM_MESSAGES.blockedOnRecv(c.id, c.pc, t, c.peer));
      else if (c.block === BLOCK_SEND) lines.push(SIM_MESSAGES.blockedOnSend(c.id, c.pc, t, c.peer));
      else if (c.block === BLOCK_WAIT) {
        const ev = c.prog.code[base + F_A];
        lines.push(SIM_MESSAGES.blockedOnWait(c.id, c.pc, t, ev, c.er[ev], c.prog.code[base + F_B]));
      } else lines.push(SIM_MESSAGES.blockedOther(c.id, c.pc, t));
    }
    const c = first as Core;
    throw new Stop({
      kind: 'deadlock',
      core: c.id,
      pc: c.pc,
      instruction: this.text(c, c.pc),
      message: SIM_MESSAGES.deadlock(lines),
    });
  }

  private reg(c: Core, pc: number, r: number): number {
    if (r < 0 || r > 31) this.fail('bad-operand', c, pc, SIM_MESSAGES.badOperand(c.id, pc, this.text(c, pc), SIM_MESSAGES.badRegister(r)));
    return c.regs[r];
  }

  private pair(c: Core, pc: number, r: number): number {
    const hi = this.reg(c, pc, r);
    const lo = this.reg(c, pc, r + 1 > 31 ? 32 : r + 1);
    return hi * 4294967296 + (lo >>> 0);
  }

  private checkRange(c: Core, pc: number, mem: Memory, name: string, start: number, bytes: number): void {
    if (bytes < 0 || start < 0 || start + bytes > mem.size || !Number.isSafeInteger(start)) {
      this.fail(
        'out-of-bounds',
        c,
        pc,
        SIM_MESSAGES.outOfBounds(c.id, pc, this.text(c, pc), name, start, bytes, mem.size),
      );
    }
  }

  private checkAligned(c: Core, pc: number, address: number, width: number): void {
    if (width > 1 && address % width !== 0) {
      this.fail('misaligned', c, pc, SIM_MESSAGES.misaligned(c.id, pc, this.text(c, pc), address, width));
    }
  }

  private checkWidth(c: Core, pc: number, bytes: number): void {
    if (bytes !== 0 && bytes !== 1 && bytes !== 2 && bytes !== 4) {
      this.fail('unsupported', c, pc, SIM_MESSAGES.unsupported(c.id, pc, this.text(c, pc), SIM_MESSAGES.elementWidth(bytes * 8)));
    }
  }

  private peerOf(c: Core, pc: number, peer: number): number {
    if (peer < 0 || peer >= this.n) {
      this.fail('bad-operand', c, pc, SIM_MESSAGES.badOperand(c.id, pc, this.text(c, pc), SIM_MESSAGES.badPeer(peer, this.n)));
    }
    return peer;
  }

  private eventReg(c: Core, pc: number, ev: number): number {
    if (ev < 0 || ev > 31) {
      this.fail('bad-operand', c, pc, SIM_MESSAGES.badOperand(c.id, pc, this.text(c, pc), SIM_MESSAGES.badEventRegister(ev)));
    }
    return ev;
  }

  /** Runs core `c` until it blocks or finishes; returns whether anything happened. */
  private runCore(c: Core): boolean {
    const code = c.prog.code;
    const len = c.prog.length;
    let progressed = false;
    while (c.pc < len) {
      const pc = c.pc;
      const base = pc * STRIDE;
      const op = code[base + F_OP];
      if (op === OP.send || op === OP.recv || op === OP.wait) {
        const r = this.communicate(c, pc, op, base);
        if (!r) return progressed;
        progressed = true;
        continue;
      }
      this.execute(c, pc, op, base);
      this.executed++;
      c.pc++;
      progressed = true;
    }
    c.done = true;
    return true;
  }

  /** send/recv/wait; returns false when the core blocks. */
  private communicate(c: Core, pc: number, op: number, base: number): boolean {
    const code = c.prog.code;
    if (op === OP.wait) {
      const ev = this.eventReg(c, pc, code[base + F_A]);
      const v = code[base + F_B];
      if (c.er[ev] < v) {
        c.block = BLOCK_WAIT;
        return false;
      }
      c.er[ev] -= v;
      c.block = BLOCK_NONE;
      c.pc++;
      this.executed++;
      return true;
    }
    const peer = this.peerOf(c, pc, code[base + F_CORE]);
    const other = this.cores[peer];
    // send or recv: rendezvous with the peer's matching recv or send (data flows sender to receiver).
    const isSend = op === OP.send;
    if (other.block === (isSend ? BLOCK_RECV : BLOCK_SEND) && other.peer === c.id) {
      if (isSend) this.transfer(c, pc, other, other.pc);
      else this.transfer(other, other.pc, c, pc);
      other.block = BLOCK_NONE;
      other.pc++;
      c.block = BLOCK_NONE;
      c.pc++;
      this.executed += 2;
      return true;
    }
    c.block = isSend ? BLOCK_SEND : BLOCK_RECV;
    c.peer = peer;
    return false;
  }

  private transfer(s: Core, spc: number, r: Core, rpc: number): void {
    const sb = spc * STRIDE;
    const rb = rpc * STRIDE;
    const sc = s.prog.code;
    const rc = r.prog.code;
    const size = sc[sb + F_LEN];
    if (size !== rc[rb + F_LEN]) {
      this.fail(
        'size-mismatch',
        s,
        spc,
        SIM_MESSAGES.sizeMismatch(s.id, spc, this.text(s, spc), r.id, rpc, this.text(r, rpc)),
      );
    }
    // send/recv add offset_byte unconditionally (ISA §4.4); the source register is rd.
    const src = this.reg(s, spc, sc[sb + F_RD]) + sc[sb + F_OVAL];
    const dst = this.reg(r, rpc, rc[rb + F_RD]) + rc[rb + F_OVAL];
    this.checkRange(s, spc, s.mem, 'local memory', src, size);
    this.checkRange(r, rpc, r.mem, 'local memory', dst, size);
    r.mem.bytes.set(s.mem.bytes.subarray(src, src + size), dst);
  }

  private execute(c: Core, pc: number, op: number, base: number): void {
    const code = c.prog.code;
    switch (op) {
      case OP.nop:
        return;
      case OP.sldi:
        c.regs[this.rdIndex(c, pc, code[base + F_RD])] = code[base + F_IMM];
        return;
      case OP.sld: {
        const addr = this.pair(c, pc, code[base + F_RS1]) + code[base + F_IMM];
        this.checkRange(c, pc, this.global, 'global memory', addr, 4);
        c.regs[this.rdIndex(c, pc, code[base + F_RD])] = this.global.view.getInt32(addr, true);
        return;
      }
      case OP.sadd:
      case OP.ssub:
      case OP.smul: {
        const a = this.reg(c, pc, code[base + F_RS1]);
        const b = this.reg(c, pc, code[base + F_RS2]);
        const v = op === OP.sadd ? (a + b) | 0 : op === OP.ssub ? (a - b) | 0 : Math.imul(a, b);
        c.regs[this.rdIndex(c, pc, code[base + F_RD])] = v;
        return;
      }
      case OP.saddi:
      case OP.smuli: {
        const a = this.reg(c, pc, code[base + F_RS1]);
        const imm = code[base + F_IMM];
        c.regs[this.rdIndex(c, pc, code[base + F_RD])] = op === OP.saddi ? (a + imm) | 0 : Math.imul(a, imm);
        return;
      }
      case OP.setbw:
        c.ibyw = Math.ceil(code[base + F_A] / 8);
        c.obyw = Math.ceil(code[base + F_B] / 8);
        return;
      case OP.mvmul:
        this.mvmul(c, pc, base);
        return;
      case OP.ld:
        this.move(c, pc, base, this.global, 'global memory', c.mem, 'local memory');
        return;
      case OP.st:
        this.move(c, pc, base, c.mem, 'local memory', this.global, 'global memory');
        return;
      case OP.lldi: {
        const n = code[base + F_LEN];
        const dst = this.reg(c, pc, code[base + F_RD]) + code[base + F_OVAL];
        this.checkRange(c, pc, c.mem, 'local memory', dst, n);
        c.mem.bytes.fill(code[base + F_IMM] & 0xff, dst, dst + n);
        return;
      }
      case OP.lmv:
        this.move(c, pc, base, c.mem, 'local memory', c.mem, 'local memory');
        return;
      case OP.sync: {
        const peer = this.peerOf(c, pc, code[base + F_CORE]);
        const ev = this.eventReg(c, pc, code[base + F_A]);
        this.cores[peer].er[ev]++;
        return;
      }
      default:
        this.vector(c, pc, op, base);
    }
  }

  /**
   * `ld`, `st` and `lmv`: copies `len` bytes from the address in rs1 to the address in rd, the
   * offset added to rd when bit 0 of `offset_select` is set and to rs1 when bit 1 is. An address
   * in global memory is a register pair; the source range is checked before the destination.
   */
  private move(c: Core, pc: number, base: number, from: Memory, fromName: string, to: Memory, toName: string): void {
    const code = c.prog.code;
    const size = code[base + F_LEN];
    const osel = code[base + F_OSEL];
    const oval = code[base + F_OVAL];
    const dst = this.address(c, pc, to, code[base + F_RD]) + (osel & 1 ? oval : 0);
    const src = this.address(c, pc, from, code[base + F_RS1]) + (osel & 2 ? oval : 0);
    this.checkRange(c, pc, from, fromName, src, size);
    this.checkRange(c, pc, to, toName, dst, size);
    if (from === to) to.bytes.copyWithin(dst, src, src + size);
    else to.bytes.set(from.bytes.subarray(src, src + size), dst);
  }

  /** The address in register `r` (a register pair for global memory). */
  private address(c: Core, pc: number, mem: Memory, r: number): number {
    return mem === this.global ? this.pair(c, pc, r) : this.reg(c, pc, r);
  }

  private rdIndex(c: Core, pc: number, r: number): number {
    if (r < 0 || r > 31) this.fail('bad-operand', c, pc, SIM_MESSAGES.badOperand(c.id, pc, this.text(c, pc), SIM_MESSAGES.badRegister(r)));
    return r;
  }

  /** Reads element `i` of width `w` bytes at byte address `addr`. */
  private load(mem: Memory, addr: number, w: number, i: number): number {
    switch (w) {
      case 1:
        return mem.i8[addr + i];
      case 2:
        return mem.i16[(addr >> 1) + i];
      case 4:
        return this.m.elementType === 'f32' ? mem.f32[(addr >> 2) + i] : mem.i32[(addr >> 2) + i];
      default:
        return 0;
    }
  }

  private store(mem: Memory, addr: number, w: number, i: number, v: number): void {
    switch (w) {
      case 1:
        mem.i8[addr + i] = this.toInt(v);
        return;
      case 2:
        mem.i16[(addr >> 1) + i] = this.toInt(v);
        return;
      case 4:
        if (this.m.elementType === 'f32') mem.f32[(addr >> 2) + i] = v;
        else mem.i32[(addr >> 2) + i] = this.toInt(v);
        return;
      default:
        return;
    }
  }

  /** The typed view of `mem` for elements of `w` bytes (1, 2 or 4). */
  private view(mem: Memory, w: number): Int8Array | Int16Array | Int32Array | Float32Array {
    if (w === 1) return mem.i8;
    if (w === 2) return mem.i16;
    return this.m.elementType === 'f32' ? mem.f32 : mem.i32;
  }

  private toInt(v: number): number {
    // Integer results round toward zero and wrap to the element width (typed-array store).
    return v !== v ? 0 : Math.trunc(v);
  }

  private vector(c: Core, pc: number, op: number, base: number): void {
    const code = c.prog.code;
    const mem = c.mem;
    const len = code[base + F_LEN];
    const iw = c.ibyw;
    const ow = c.obyw;
    this.checkWidth(c, pc, iw);
    this.checkWidth(c, pc, ow);
    if (iw === 0 || len <= 0) return; // no setbw: 0-byte elements move nothing (as in pimsim-nn)
    const osel = code[base + F_OSEL];
    const oval = code[base + F_OVAL];
    const r1 = this.reg(c, pc, code[base + F_RS1]);
    const r2 = this.reg(c, pc, code[base + F_RS2]);
    const rdv = this.reg(c, pc, code[base + F_RD]);
    const twoOperand = op >= OP.vvadd && op <= OP.vvsra;
    const sameWidthOut = op === OP.vvadd || op === OP.vvsub || op === OP.vvmax || op === OP.vrelu || op === OP.vmv;
    const w = sameWidthOut ? iw : ow;
    if (w === 0) return;
    let a: number;
    let b = 0;
    let d: number;
    if (op === OP.vmv) {
      a = r1;
      d = rdv;
    } else if (op === OP.vavg) {
      a = r1 + iw * oval;
      d = rdv;
    } else {
      a = r1 + (osel & 2 ? iw * oval : 0);
      d = op === OP.vvdmul ? rdv : rdv + (osel & 1 ? w * oval : 0);
    }
    if (twoOperand) b = r2 + (osel & 4 ? iw * oval : 0);
    // Source extent.
    let srcCount = len;
    if (op === OP.vmv || op === OP.vavg) {
      const stride = r2;
      srcCount = len > 0 ? (len - 1) * Math.abs(stride) + 1 : 0;
      if (stride < 0) a -= (len - 1) * -stride * iw;
    }
    this.checkRange(c, pc, mem, 'local memory', a, srcCount * iw);
    this.checkAligned(c, pc, a, iw);
    if (twoOperand) {
      this.checkRange(c, pc, mem, 'local memory', b, len * iw);
      this.checkAligned(c, pc, b, iw);
    }
    const outCount = op === OP.vvdmul || op === OP.vavg ? 1 : len;
    this.checkRange(c, pc, mem, 'local memory', d, outCount * w);
    this.checkAligned(c, pc, d, w);
    // Element-wise kernels index typed views directly (a store into an integer view rounds
    // toward zero and wraps, as the element width requires).
    const src = this.view(mem, iw);
    const dst = this.view(mem, w);
    const ai = a / iw;
    const bi = b / iw;
    const di = d / w;
    switch (op) {
      case OP.vvadd:
        for (let i = 0; i < len; i++) dst[di + i] = src[ai + i] + src[bi + i];
        return;
      case OP.vvsub:
        for (let i = 0; i < len; i++) dst[di + i] = src[ai + i] - src[bi + i];
        return;
      case OP.vvmul:
        for (let i = 0; i < len; i++) dst[di + i] = src[ai + i] * src[bi + i];
        return;
      case OP.vvdmul: {
        let s = 0;
        for (let i = 0; i < len; i++) s += src[ai + i] * src[bi + i];
        this.store(mem, d, w, 0, s);
        return;
      }
      case OP.vvmax:
        for (let i = 0; i < len; i++) {
          const x = src[ai + i];
          const y = src[bi + i];
          dst[di + i] = x > y ? x : y;
        }
        return;
      case OP.vvsll:
        for (let i = 0; i < len; i++)
          this.store(mem, d, w, i, Math.trunc(this.load(mem, a, iw, i)) << (Math.trunc(this.load(mem, b, iw, i)) & 31));
        return;
      case OP.vvsra:
        for (let i = 0; i < len; i++)
          this.store(mem, d, w, i, Math.trunc(this.load(mem, a, iw, i)) >> (Math.trunc(this.load(mem, b, iw, i)) & 31));
        return;
      case OP.vavg: {
        const stride = r2;
        const a0 = stride < 0 ? a + (len - 1) * -stride * iw : a;
        let s = 0;
        for (let i = 0; i < len; i++) s += this.load(mem, a0, iw, i * stride);
        this.store(mem, d, w, 0, s / len);
        return;
      }
      case OP.vrelu:
        for (let i = 0; i < len; i++) {
          const x = src[ai + i];
          dst[di + i] = x > 0 ? x : 0;
        }
        return;
      case OP.vtanh:
        for (let i = 0; i < len; i++) this.store(mem, d, w, i, Math.tanh(this.load(mem, a, iw, i)));
        return;
      case OP.vsigm:
        for (let i = 0; i < len; i++) this.store(mem, d, w, i, 1 / (1 + Math.exp(-this.load(mem, a, iw, i))));
        return;
      case OP.vsoftmax: {
        if (this.softmaxScratch.length < len) this.softmaxScratch = new Float64Array(len);
        const tmp = this.softmaxScratch;
        let max = -Infinity;
        for (let i = 0; i < len; i++) {
          const x = this.load(mem, a, iw, i);
          tmp[i] = x;
          if (x > max) max = x;
        }
        let sum = 0;
        for (let i = 0; i < len; i++) {
          const e = Math.exp(tmp[i] - max);
          tmp[i] = e;
          sum += e;
        }
        for (let i = 0; i < len; i++) this.store(mem, d, w, i, tmp[i] / sum);
        return;
      }
      case OP.vmv: {
        const stride = r2;
        const a0 = stride < 0 ? a + (len - 1) * -stride * iw : a;
        for (let i = 0; i < len; i++) this.store(mem, d, w, i, this.load(mem, a0, iw, i * stride));
        return;
      }
      case OP.vrsu:
        for (let i = 0; i < len; i++) {
          const x = this.load(mem, a, iw, i);
          this.store(mem, d, w, i, x < r2 ? x : r2);
        }
        return;
      case OP.vrsl:
        for (let i = 0; i < len; i++) {
          const x = this.load(mem, a, iw, i);
          this.store(mem, d, w, i, x > r2 ? x : r2);
        }
        return;
      default:
        this.fail('unsupported', c, pc, SIM_MESSAGES.unsupported(c.id, pc, this.text(c, pc), SIM_MESSAGES.noSemantics(op)));
    }
  }

  private mvmul(c: Core, pc: number, base: number): void {
    const code = c.prog.code;
    const group = code[base + F_A];
    const mbiw = code[base + F_B];
    const relu = code[base + F_C] !== 0;
    const groups = this.input.groups[c.id] ?? [];
    if (group < 0 || group >= groups.length) {
      this.fail('bad-operand', c, pc, SIM_MESSAGES.badOperand(c.id, pc, this.text(c, pc), SIM_MESSAGES.badGroup(group, groups.length)));
    }
    if (mbiw <= 0) this.fail('bad-operand', c, pc, SIM_MESSAGES.badOperand(c.id, pc, this.text(c, pc), SIM_MESSAGES.mbiwZero()));
    const iw = c.ibyw;
    const ow = c.obyw;
    this.checkWidth(c, pc, iw);
    this.checkWidth(c, pc, ow);
    // The weight block is the group's logical matrix: the mvmul reads `rows` inputs and writes
    // `cols` outputs. It must fit what pimsim-nn times for this mvmul: xbar_size[0] inputs and
    // n_xbar * floor(cols * cell_precision / mbiw) outputs.
    const inLen = this.m.xbarRows;
    const outLen = groups[group] * Math.trunc((this.m.xbarCols * this.m.cellPrecision) / mbiw);
    const weights = this.input.weights?.[c.id]?.[group];
    if (weights && (weights.rows > inLen || weights.cols > outLen)) {
      this.fail(
        'mvmul-shape',
        c,
        pc,
        SIM_MESSAGES.mvmulShape(c.id, pc, this.text(c, pc), SIM_MESSAGES.groupSizeMismatch(group, weights.rows, weights.cols, inLen, outLen)),
      );
    }
    const rows = weights ? weights.rows : inLen;
    const cols = weights ? weights.cols : outLen;
    if (iw === 0 || ow === 0) return;
    const mem = c.mem;
    const a = this.reg(c, pc, code[base + F_RS1]);
    const d = this.reg(c, pc, code[base + F_RD]);
    this.checkRange(c, pc, mem, 'local memory', a, rows * iw);
    this.checkAligned(c, pc, a, iw);
    this.checkRange(c, pc, mem, 'local memory', d, cols * ow);
    this.checkAligned(c, pc, d, ow);
    if (!weights) {
      for (let j = 0; j < cols; j++) this.store(mem, d, ow, j, 0);
      return;
    }
    // f32 elements and weights: the WebAssembly SIMD kernel (f32 arithmetic, see simd-kernel.ts).
    if (iw === 4 && ow === 4 && this.m.elementType === 'f32' && weights.data instanceof Float32Array && cols % 4 === 0 && rows > 0) {
      const kernel = this.simdKernel();
      if (kernel) {
        const y = mem.f32;
        const yi = d >> 2;
        kernel.mvm(weights.data, rows, cols, y, a >> 2, y, yi);
        if (relu) for (let j = yi; j < yi + cols; j++) if (y[j] < 0) y[j] = 0;
        return;
      }
    }
    // Dot products over the transposed matrix (cached per weight block): both operands are
    // read sequentially and the sum stays in a register.
    const wt = this.transposed(weights);
    const x = this.accumulator(rows);
    for (let i = 0; i < rows; i++) x[i] = this.load(mem, a, iw, i);
    const dst = this.view(mem, ow);
    const di = d / ow;
    for (let j = 0; j < cols; j++) {
      const base = j * rows;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      let i = 0;
      for (; i + 3 < rows; i += 4) {
        s0 += x[i] * wt[base + i];
        s1 += x[i + 1] * wt[base + i + 1];
        s2 += x[i + 2] * wt[base + i + 2];
        s3 += x[i + 3] * wt[base + i + 3];
      }
      for (; i < rows; i++) s0 += x[i] * wt[base + i];
      const v = s0 + s1 + s2 + s3;
      dst[di + j] = relu && v < 0 ? 0 : v;
    }
  }

  private kernel: SimdKernel | null | undefined;
  private simdKernel(): SimdKernel | undefined {
    if (this.kernel === undefined) this.kernel = createSimdKernel() ?? null;
    return this.kernel ?? undefined;
  }

  private readonly transposes = new WeakMap<GroupWeights, Float64Array>();
  private transposed(w: GroupWeights): Float64Array {
    let t = this.transposes.get(w);
    if (!t) {
      const { rows, cols, data } = w;
      t = new Float64Array(rows * cols);
      for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) t[j * rows + i] = data[i * cols + j];
      this.transposes.set(w, t);
    }
    return t;
  }

  private acc = new Float64Array(0);
  private accumulator(n: number): Float64Array {
    if (this.acc.length < n) this.acc = new Float64Array(n);
    return this.acc;
  }
}
