/**
 * The timing and energy pass: a discrete-event model of pimsim-nn's pipeline (pim-isa.md §6,
 * §12, §13).
 *
 * Per core: fetch → decode → dispatcher → unit, one instruction per cycle, in order; scalars
 * and `setbw` leave at decode; matrix, vector and transfer instructions enter a reorder buffer
 * of `rob_size` entries with RAW/WAR checks on local-memory ranges (WAW is not checked, as in
 * pimsim-nn). While the ROB is full, or the dispatcher holds an instruction that cannot issue,
 * the whole front end (scalars included) stands still. Units: one vector unit, one transfer
 * unit, one executor per array group; one FIFO port per local memory and one for the global
 * memory (`latest_finish` semantics); one FIFO switch per core and one for the global memory
 * with the NoC table's per-flit latencies; the send/recv handshake and sync/wait tokens.
 *
 * Hand-off constants were fitted on the pimsim-nn micro-benchmarks (see the README's fidelity
 * table): dispatch 3 cycles after fetch, an extra register stage before an array group, commit
 * one cycle after a unit finishes (one more for transfer instructions whose last wait was at
 * most one cycle or an event, and for 0-byte vector/matrix writes).
 */
import type { SimParams, DenseNetwork } from '../params';
import type { SimError } from '../diagnostics';
import { SIM_MESSAGES } from '../diagnostics';
import type { CompiledProgram } from '../program';
import {
  STRIDE,
  F_OP,
  F_RD,
  F_RS1,
  F_RS2,
  F_IMM,
  F_LEN,
  F_OSEL,
  F_OVAL,
  F_CORE,
  F_A,
  F_B,
  OP,
  OP_NAMES,
  UNIT_OF_OP,
  UNIT_SCALAR,
  UNIT_SETBW,
  UNIT_MATRIX,
  UNIT_VECTOR,
  UNIT_TRANSFER,
} from '../program';
import { formatInstruction } from '../format';
import type { CoreStats, EnergyBreakdown, TimingResult, TraceEvent } from './types';
import { EventQueue } from './event-queue';
import { CLOCK_ENTRY, TimedWaitHeap } from './timed-wait-heap';

/** Options of {@link runTiming}. */
export interface TimingOptions {
  /** Record Chrome trace events. */
  trace?: boolean;
  /** Stop with an error when simulated time passes this many ns (default: the config's latency timeout). */
  budgetNs?: number;
  /** Called now and then with the simulated time (for progress bars). */
  onProgress?: (simulatedNs: number) => void;
}

// Event kinds.
const K_FE = 0;
const K_VEC_WRITE = 1;
const K_UNIT_DONE = 2;
const K_MX_START = 3;
const K_MX_WRITE = 4;
const K_SW_ARRIVE = 5;
const K_SW_DONE = 6;
const K_XF_STEP = 7;
const K_NET_STEP = 8;

// Phases of a switch's timed waits (TimedWaitHeap entry = switch * 2 + phase).
const W_ARRIVE = 0;
const W_DONE = 1;

// Priority classes for simultaneous events.
const P_FE = 0;
const P_VEC = 1;
const P_XF = 2;
const P_MX = 3;
const P_NET = 4;

// Unit codes in K_UNIT_DONE.
const U_VEC = 0;
const U_XF = 1;
const U_MX0 = 2;

// Message kinds.
const M_LD = 0;
const M_ST = 1;
const M_SREADY = 2;
const M_RREADY = 3;
const M_DATA = 4;
const M_SYNC = 5;

// Front-end block causes.
const B_NONE = 0;
const B_ROB = 1;
const B_UNIT = 2;
const B_HAZARD = 3;

// Transfer unit wait states.
const XW_NONE = 0;
const XW_TRANSPORT = 1;
const XW_RREADY = 2;
const XW_DATA = 3;
const XW_SYNC = 4;

const NOTIFY = -1; // lastWait marker: finished after an event notification

class CoreState {
  readonly regs = new Int32Array(32);
  ibiw = 0;
  obiw = 0;
  ibyw = 0;
  obyw = 0;
  fetchPc = 0;
  dPc = -1;
  xPc = -1;
  // Operands of the instruction in the dispatcher register.
  xOp = 0;
  xUnit = 0;
  xGroup = 0;
  xLen = 0;
  xRdA = 0;
  xRs1A = 0;
  xRs2A = 0;
  xIbyw = 0;
  xObyw = 0;
  xReadBytes = 0;
  xReadBytes2 = 0;
  xWriteBytes = 0;
  xSteps = 0;
  xNR = 0;
  xR1lo = 0;
  xR1hi = 0;
  xR2lo = 0;
  xR2hi = 0;
  xHasW = false;
  xWlo = 0;
  xWhi = 0;
  xIbiw = 0;
  // ROB ring.
  readonly robPc: Int32Array;
  readonly robCommit: Float64Array;
  readonly robRetire: Float64Array;
  readonly robNR: Int8Array;
  readonly robHasW: Uint8Array;
  readonly robR: Float64Array; // 4 per entry
  readonly robW: Float64Array; // 2 per entry
  robHead = 0;
  robCount = 0;
  retirePtr = 0; // entries (from head) already retired
  lastRetire = 0;
  // Units.
  vecFree = 0;
  xfFree = 0;
  readonly agFree: Float64Array;
  lmLf = 0;
  lastMvmIssue = -Infinity;
  // Vector unit op in flight.
  vecSlot = -1;
  vecPc = -1;
  vecStart = 0;
  vecWrA = 0;
  vecWb = 0;
  vecLastWait = 0;
  // Matrix ops in flight (per group).
  readonly mxSlot: Int32Array;
  readonly mxPc: Int32Array;
  readonly mxStart: Float64Array;
  readonly mxRead: Float64Array;
  readonly mxWrite: Float64Array;
  readonly mxIbiw: Int32Array;
  readonly mxLastWait: Float64Array;
  // Transfer op in flight.
  xfSlot = -1;
  xfPc = -1;
  xfOp = 0;
  xfStart = 0;
  xfSize = 0;
  xfPeer = 0;
  xfEv = 0;
  xfVal = 0;
  xfLastWait = 0;
  xfWaitState = XW_NONE;
  recvFrom = -1;
  readonly pendingSender: Int32Array;
  readonly er = new Int32Array(32);
  // Front end bookkeeping.
  feDoneAt = -1;
  fePending = -1;
  blockCause = B_NONE;
  blockSince = 0;
  lastScalarDone = 0;
  done = false;
  finishNs = 0;
  fetchEndNs = -1;
  rounds = 0;
  issued = 0;
  // Energy event counters.
  fetches = 0;
  decodes = 0;
  regReads = 0;
  regWrites = 0;
  scalars = 0;
  prevRdIdx = 0;
  prevRs1Idx = 0;
  prevRs2Idx = 0;
  prevDw = 0;
  prevV0 = 0;
  prevV1 = 0;
  prevV2 = 0;
  prevWrRd = -1;
  prevWrVal = 0;
  hasPrevWr = false;
  // Stats.
  vectorPj = 0;
  localPj = 0;
  matrixPj = 0;
  busyVec = 0;
  busyXf = 0;
  busyMx = 0;
  stallRob = 0;
  stallUnit = 0;
  stallHazard = 0;
  lmReadBytes = 0;
  lmWriteBytes = 0;
  gmReadBytes = 0;
  gmWriteBytes = 0;
  sentBytes = 0;
  recvBytes = 0;
  readonly mix: Float64Array = new Float64Array(33);

  constructor(
    readonly id: number,
    readonly prog: CompiledProgram,
    readonly groups: readonly number[],
    robSize: number,
    cores: number,
  ) {
    this.robPc = new Int32Array(robSize);
    this.robCommit = new Float64Array(robSize);
    this.robRetire = new Float64Array(robSize);
    this.robNR = new Int8Array(robSize);
    this.robHasW = new Uint8Array(robSize);
    this.robR = new Float64Array(robSize * 4);
    this.robW = new Float64Array(robSize * 2);
    const g = Math.max(1, groups.length);
    this.agFree = new Float64Array(g);
    this.mxSlot = new Int32Array(g).fill(-1);
    this.mxPc = new Int32Array(g).fill(-1);
    this.mxStart = new Float64Array(g);
    this.mxRead = new Float64Array(g);
    this.mxWrite = new Float64Array(g);
    this.mxIbiw = new Int32Array(g);
    this.mxLastWait = new Float64Array(g);
    this.pendingSender = new Int32Array(cores).fill(-1);
  }
}

/**
 * Runs the timing and energy model over compiled per-core programs.
 *
 * @param params derived configuration numbers
 * @param net dense NoC table (switch index = core id; the global memory is the last index)
 * @param programs one program per core (directory mode instantiates every core)
 * @param groups crossbars per array group, per core
 */
export function runTiming(
  params: SimParams,
  net: DenseNetwork,
  programs: readonly CompiledProgram[],
  groups: readonly (readonly number[])[],
  options: TimingOptions = {},
): TimingResult {
  return new TimingEngine(params, net, programs, groups, options).run();
}

class TimingEngine {
  private readonly q = new EventQueue();
  private readonly cores: CoreState[];
  private readonly n: number;
  private readonly P: number;
  private gmLf = 0;
  private gmPj = 0;
  private netPj = 0;
  // Switches: index 0..n-1 cores, n the global memory.
  private readonly swQueue: number[][];
  private readonly swHead: Int32Array;
  private readonly swCur: Int32Array;
  private readonly swBusyFrom: Float64Array;
  private readonly swTransport: Int32Array;
  // The switches' timed waits in SystemC's order (see timed-wait-heap.ts).
  private readonly waits = new TimedWaitHeap();
  private netStepAt = Infinity;
  private clockInHeap = false;
  private switchWaits = 0;
  private stepping = false;
  private readonly batch: number[] = [];
  private readonly deferred: number[] = [];
  private readonly pendingWaits: number[] = [];
  // Message pool.
  private mKind: number[] = [];
  private mSrc: number[] = [];
  private mDst: number[] = [];
  private mBytes: number[] = [];
  private mArg: number[] = [];
  private mFree: number[] = [];
  private error: SimError | undefined;
  private readonly trace: TraceEvent[] | undefined;
  private readonly budget: number;
  private liveCores = 0;
  private lastFinish = 0;

  constructor(
    private readonly p: SimParams,
    private readonly net: DenseNetwork,
    programs: readonly CompiledProgram[],
    groups: readonly (readonly number[])[],
    private readonly options: TimingOptions,
  ) {
    this.n = programs.length;
    this.P = p.period;
    this.cores = programs.map((prog, i) => new CoreState(i, prog, groups[i] ?? [], p.robSize, programs.length));
    const s = this.n + 1;
    this.swQueue = Array.from({ length: s }, () => []);
    this.swHead = new Int32Array(s);
    this.swCur = new Int32Array(s).fill(-1);
    this.swBusyFrom = new Float64Array(s);
    this.swTransport = new Int32Array(s).fill(-1);
    this.trace = options.trace ? [] : undefined;
    this.budget = options.budgetNs ?? (p.latencyMode ? p.timeoutNs : Infinity);
  }

  private nextEdge(t: number): number {
    const P = this.P;
    return (Math.floor(t / P + 1e-9) + 1) * P;
  }

  run(): TimingResult {
    const q = this.q;
    for (const c of this.cores) {
      if (c.prog.length === 0) {
        c.done = true;
        c.finishNs = 0;
        continue;
      }
      this.liveCores++;
      q.push(this.P, P_FE, K_FE, c.id, 0);
    }
    const endTime = this.p.latencyMode ? Infinity : this.p.simTimeNs;
    let steps = 0;
    const onProgress = this.options.onProgress;
    while (this.error === undefined) {
      if (q.length === 0) break;
      const t = q.peekTime();
      // Finish times are known ahead of the clock (see unitDone): stop once every core is done
      // and the clock has reached the last finish.
      if (this.p.latencyMode && this.liveCores === 0 && t > this.lastFinish) break;
      if (t > endTime) break;
      if (t > this.budget) {
        this.failBudget();
        break;
      }
      q.pop();
      const a = q.lastA;
      const b = q.lastB;
      switch (q.lastKind) {
        case K_FE:
          this.frontEnd(this.cores[a], t);
          break;
        case K_VEC_WRITE:
          this.vectorWrite(this.cores[a], t);
          break;
        case K_UNIT_DONE:
          this.unitDone(this.cores[a], b, t);
          break;
        case K_MX_START:
          this.matrixStart(this.cores[a], b, t);
          break;
        case K_MX_WRITE:
          this.matrixWrite(this.cores[a], b, t);
          break;
        case K_SW_ARRIVE:
          this.switchArrive(a, t);
          break;
        case K_SW_DONE:
          this.switchDone(a, b, t);
          break;
        case K_XF_STEP:
          this.transferStep(this.cores[a], t);
          break;
        case K_NET_STEP:
          this.netStep(t);
          break;
        default:
          throw new Error(SIM_MESSAGES.internal(SIM_MESSAGES.unknownEvent(q.lastKind)));
      }
      if (onProgress && (++steps & 0xffff) === 0) onProgress(t);
    }
    if (this.error === undefined && this.p.latencyMode && this.liveCores > 0) this.failDeadlock();
    return this.result(endTime);
  }

  // ---------------------------------------------------------------- front end

  private frontEnd(c: CoreState, t: number): void {
    if (t <= c.feDoneAt + 1e-9 || c.done) return;
    c.feDoneAt = t;
    const P = this.P;
    const robSize = this.p.robSize;
    // Free retired entries whose slot is visible again at this edge.
    while (c.robCount > 0 && c.retirePtr > 0 && c.robRetire[c.robHead] <= t - P + 1e-9) {
      c.robHead = (c.robHead + 1) % robSize;
      c.robCount--;
      c.retirePtr--;
    }
    if (c.robCount >= robSize) return this.block(c, B_ROB, t);
    if (c.xPc >= 0) {
      let ready: boolean;
      if (c.xUnit === UNIT_VECTOR) ready = c.vecFree <= t + 1e-9;
      else if (c.xUnit === UNIT_TRANSFER) ready = c.xfFree <= t + 1e-9;
      else ready = c.agFree[c.xGroup] <= t + 1e-9 && t + 1e-9 >= c.lastMvmIssue + this.p.mvmIssueIntervalNs;
      if (!ready) return this.block(c, B_UNIT, t);
      if (this.hasHazard(c)) return this.block(c, B_HAZARD, t);
      this.unblock(c, t);
      this.dispatch(c, t);
    } else this.unblock(c, t);
    const prog = c.prog;
    if (c.dPc >= 0) {
      this.leaveDecode(c, t);
      if (this.error !== undefined) return;
    }
    if (c.fetchPc < prog.length) {
      this.enterDecode(c, c.fetchPc, t);
      c.fetchPc++;
      if (c.fetchPc === prog.length && c.fetchEndNs < 0) c.fetchEndNs = t;
      if (c.fetchPc === prog.length && !this.p.latencyMode) {
        c.rounds++;
        c.fetchPc = 0;
      }
    }
    if (c.xPc >= 0 || c.dPc >= 0 || c.fetchPc < prog.length) this.scheduleFe(c, t + P);
    else this.checkDone(c);
  }

  private block(c: CoreState, cause: number, t: number): void {
    if (c.blockCause === B_NONE) {
      c.blockCause = cause;
      c.blockSince = t;
    }
    // Wake-ups already known (a retirement or a unit release computed earlier) are scheduled
    // now; the others come from commit() and unitDone().
    let next = Infinity;
    if (c.retirePtr > 0) next = c.robRetire[c.robHead] + this.P;
    if (cause === B_UNIT) {
      const free =
        c.xUnit === UNIT_VECTOR
          ? c.vecFree
          : c.xUnit === UNIT_TRANSFER
            ? c.xfFree
            : Math.max(c.agFree[c.xGroup], c.lastMvmIssue + this.p.mvmIssueIntervalNs);
      if (free < next) next = free;
    }
    if (next !== Infinity && next > t + 1e-9) this.scheduleFe(c, next);
  }

  private unblock(c: CoreState, t: number): void {
    if (c.blockCause === B_NONE) return;
    const d = t - c.blockSince;
    if (c.blockCause === B_ROB) c.stallRob += d;
    else if (c.blockCause === B_UNIT) c.stallUnit += d;
    else c.stallHazard += d;
    c.blockCause = B_NONE;
  }

  private wake(c: CoreState, t: number): void {
    if (c.blockCause !== B_NONE && !c.done) this.scheduleFe(c, t);
  }

  /**
   * Schedules a front-end evaluation at `t` unless one is already pending at or before `t`:
   * an earlier evaluation either proceeds edge by edge or, when it blocks, schedules every
   * wake-up already known (see block()), so the later one would be redundant.
   */
  private scheduleFe(c: CoreState, t: number): void {
    const pending = c.fePending;
    if (pending > c.feDoneAt + 1e-9 && pending <= t + 1e-9) return;
    this.q.push(t, P_FE, K_FE, c.id, 0);
    c.fePending = t;
  }

  private enterDecode(c: CoreState, pc: number, _t: number): void {
    const code = c.prog.code;
    const base = pc * STRIDE;
    const op = code[base + F_OP];
    c.dPc = pc;
    c.issued++;
    c.mix[op]++;
    c.fetches++;
    c.decodes++;
    // Register-file read events (pim-isa.md §13: one per read-port or value change).
    const rd = code[base + F_RD] & 31;
    const rs1 = code[base + F_RS1] & 31;
    const rs2 = code[base + F_RS2] & 31;
    const dw = op === OP.ld || op === OP.st || op === OP.sld ? 1 : 0;
    const regs = c.regs;
    const v0 = dw ? 0 : regs[rd];
    const v1 = dw ? 0 : regs[rs1];
    const v2 = regs[rs2];
    const addrChanged = rd !== c.prevRdIdx || rs1 !== c.prevRs1Idx || rs2 !== c.prevRs2Idx || dw !== c.prevDw;
    const valuesChanged = v0 !== c.prevV0 || v1 !== c.prevV1 || v2 !== c.prevV2;
    if (addrChanged || valuesChanged) c.regReads++;
    if (valuesChanged) c.decodes++;
    c.prevRdIdx = rd;
    c.prevRs1Idx = rs1;
    c.prevRs2Idx = rs2;
    c.prevDw = dw;
    c.prevV0 = v0;
    c.prevV1 = v1;
    c.prevV2 = v2;
  }

  private scalarWrite(c: CoreState, rd: number, value: number): void {
    c.regs[rd] = value;
    if (!c.hasPrevWr || c.prevWrRd !== rd || c.prevWrVal !== value) {
      c.regWrites++;
      c.regReads++;
      c.hasPrevWr = true;
      c.prevWrRd = rd;
      c.prevWrVal = value;
    }
  }

  private leaveDecode(c: CoreState, t: number): void {
    const pc = c.dPc;
    c.dPc = -1;
    const code = c.prog.code;
    const base = pc * STRIDE;
    const op = code[base + F_OP];
    const unit = UNIT_OF_OP[op];
    const regs = c.regs;
    if (unit === UNIT_SCALAR) {
      const rd = code[base + F_RD] & 31;
      const a = regs[code[base + F_RS1] & 31];
      const b = regs[code[base + F_RS2] & 31];
      const imm = code[base + F_IMM];
      c.scalars++;
      switch (op) {
        case OP.sldi:
          this.scalarWrite(c, rd, imm | 0);
          break;
        case OP.sadd:
          this.scalarWrite(c, rd, (a + b) | 0);
          break;
        case OP.ssub:
          this.scalarWrite(c, rd, (a - b) | 0);
          break;
        case OP.smul:
          this.scalarWrite(c, rd, Math.imul(a, b));
          break;
        case OP.saddi:
          this.scalarWrite(c, rd, (a + imm) | 0);
          break;
        case OP.smuli:
          this.scalarWrite(c, rd, Math.imul(a, imm));
          break;
        case OP.sld:
          // pimsim-nn loads nothing and writes its default record {rd = 0, value = 0} (fact 7).
          this.scalarWrite(c, 0, 0);
          break;
        default:
          break;
      }
      c.lastScalarDone = t + this.P;
      return;
    }
    if (unit === UNIT_SETBW) {
      c.ibiw = code[base + 9];
      c.obiw = code[base + 10];
      c.ibyw = Math.ceil(c.ibiw / 8);
      c.obyw = Math.ceil(c.obiw / 8);
      c.lastScalarDone = t + this.P;
      return;
    }
    if (op === OP.nop) {
      c.lastScalarDone = t + this.P;
      return;
    }
    this.prepareDispatch(c, pc, op, unit);
  }

  /** Computes pimsim-nn's operand addresses, byte counts and hazard ranges (pim-isa.md §4.2, §5). */
  private prepareDispatch(c: CoreState, pc: number, op: number, unit: number): void {
    const code = c.prog.code;
    const base = pc * STRIDE;
    const regs = c.regs;
    const rd = regs[code[base + F_RD] & 31];
    const rs1 = regs[code[base + F_RS1] & 31];
    const rs2 = regs[code[base + F_RS2] & 31];
    const osel = code[base + F_OSEL];
    const oval = code[base + F_OVAL];
    const selRd = osel & 1 ? oval : 0;
    const selRs1 = oval & 2 ? oval : 0; // pimsim-nn tests the value's bits (fact 5)
    const selRs2 = oval & 4 ? oval : 0;
    const len = code[base + F_LEN];
    const ibyw = c.ibyw;
    const obyw = c.obyw;
    c.xPc = pc;
    c.xOp = op;
    c.xUnit = unit;
    c.xLen = len;
    c.xIbyw = ibyw;
    c.xObyw = obyw;
    c.xIbiw = c.ibiw;
    c.xNR = 0;
    c.xHasW = false;
    if (unit === UNIT_VECTOR) {
      const rs1A = op === OP.vmv ? rs1 : rs1 + ibyw * selRs1;
      const rs2A = op === OP.vavg || op === OP.vmv || op === OP.vrsu || op === OP.vrsl ? rs2 : rs2 + ibyw * selRs2;
      let rdA: number;
      if (op === OP.vvdmul || op === OP.vavg || op === OP.vmv) rdA = rd;
      else if (op === OP.vvadd || op === OP.vvsub || op === OP.vvmax || op === OP.vrelu) rdA = rd + ibyw * selRd;
      else rdA = rd + obyw * selRd;
      const twoOperand = op >= OP.vvadd && op <= OP.vvsra;
      const useOut =
        op === OP.vvmul ||
        op === OP.vvsll ||
        op === OP.vvsra ||
        op === OP.vtanh ||
        op === OP.vsigm ||
        op === OP.vrsu ||
        op === OP.vrsl ||
        op === OP.vsoftmax;
      c.xRdA = rdA;
      c.xReadBytes = len * ibyw;
      c.xReadBytes2 = twoOperand ? len * ibyw : -1;
      c.xWriteBytes = (useOut ? obyw : ibyw) * len;
      c.xSteps = Math.ceil(len / this.p.vectorWidth);
      // Hazard ranges.
      if (op === OP.vrelu || op === OP.vtanh || op === OP.vsigm || op === OP.vsoftmax) {
        this.setR(c, rs1A, rs1A + len * ibyw);
        this.setW(c, rdA, rdA + len * obyw);
      } else if (op === OP.vavg) {
        this.setR(c, rs1A, rs1A + len * ibyw);
        this.setW(c, rdA, rdA + obyw);
      } else if (op === OP.vmv) {
        // no ranges at all
      } else if (op === OP.vvadd || op === OP.vvsub || op === OP.vvmax) {
        this.setR(c, rs1A, rs1A + len * ibyw);
        this.setR(c, rs2A, rs2A + len * ibyw);
        this.setW(c, rdA, rdA + len * ibyw);
      } else {
        this.setR(c, rs1A, rs1A + len * ibyw);
        this.setR(c, rs2A, rs2A + len * ibyw);
        this.setW(c, rdA, rdA + len * obyw);
      }
      return;
    }
    if (unit === UNIT_MATRIX) {
      const group = code[base + F_A];
      const mbiw = code[base + F_B];
      const nx = c.groups[group] ?? 0;
      const outLen = mbiw > 0 ? nx * Math.trunc((this.p.xbarCols * this.p.cellPrecision) / mbiw) : 0;
      c.xGroup = group < c.agFree.length && group >= 0 ? group : 0;
      c.xRdA = rd;
      c.xReadBytes = this.p.xbarRows * ibyw * 8;
      c.xWriteBytes = outLen * obyw;
      c.xLen = nx;
      this.setR(c, rs1, rs1 + this.p.xbarRows * ibyw);
      this.setW(c, rd, rd + outLen * obyw);
      return;
    }
    // Transfer.
    const rdA = rd + selRd;
    const rs1A = rs1 + selRs1;
    c.xRdA = rdA;
    c.xRs1A = rs1A;
    c.xRs2A = 0;
    switch (op) {
      case OP.ld:
        // Double-word register read: the single-word local address is 0 (fact 6).
        c.xRdA = selRd;
        this.setW(c, selRd, selRd + len);
        break;
      case OP.st:
        c.xRs1A = selRs1;
        this.setR(c, selRs1, selRs1 + len);
        break;
      case OP.lldi:
        this.setW(c, rdA, rdA + 1);
        break;
      case OP.lmv:
        // pimsim-nn's hazard ranges use the `size` field, which lmv leaves at 0.
        this.setR(c, rs1A, rs1A);
        this.setW(c, rdA, rdA);
        break;
      case OP.send:
        this.setR(c, rs1A, rs1A + len);
        break;
      case OP.recv:
        this.setW(c, rdA, rdA + len);
        break;
      default:
        break;
    }
  }

  private setR(c: CoreState, lo: number, hi: number): void {
    if (c.xNR === 0) {
      c.xR1lo = lo;
      c.xR1hi = hi;
    } else {
      c.xR2lo = lo;
      c.xR2hi = hi;
    }
    c.xNR++;
  }

  private setW(c: CoreState, lo: number, hi: number): void {
    c.xHasW = true;
    c.xWlo = lo;
    c.xWhi = hi;
  }

  private hasHazard(c: CoreState): boolean {
    const robSize = this.p.robSize;
    const nr = c.xNR;
    const hasW = c.xHasW;
    if (nr === 0 && !hasW) return false;
    for (let k = 0; k < c.robCount; k++) {
      const s = (c.robHead + k) % robSize;
      const enr = c.robNR[s];
      if (hasW) {
        for (let r = 0; r < enr; r++) {
          const lo = c.robR[s * 4 + r * 2];
          const hi = c.robR[s * 4 + r * 2 + 1];
          if (c.xWlo <= hi && lo <= c.xWhi) return true;
        }
      }
      if (c.robHasW[s] && nr > 0) {
        const wlo = c.robW[s * 2];
        const whi = c.robW[s * 2 + 1];
        if (c.xR1lo <= whi && wlo <= c.xR1hi) return true;
        if (nr > 1 && c.xR2lo <= whi && wlo <= c.xR2hi) return true;
      }
    }
    return false;
  }

  private dispatch(c: CoreState, t: number): void {
    const robSize = this.p.robSize;
    const s = (c.robHead + c.robCount) % robSize;
    c.robCount++;
    c.robPc[s] = c.xPc;
    c.robCommit[s] = NaN;
    c.robRetire[s] = NaN;
    c.robNR[s] = c.xNR;
    c.robR[s * 4] = c.xR1lo;
    c.robR[s * 4 + 1] = c.xR1hi;
    c.robR[s * 4 + 2] = c.xR2lo;
    c.robR[s * 4 + 3] = c.xR2hi;
    c.robHasW[s] = c.xHasW ? 1 : 0;
    c.robW[s * 2] = c.xWlo;
    c.robW[s * 2 + 1] = c.xWhi;
    const pc = c.xPc;
    c.xPc = -1;
    if (c.xUnit === UNIT_VECTOR) {
      c.vecFree = Infinity;
      c.vecSlot = s;
      c.vecPc = pc;
      c.vecStart = t;
      c.vecWrA = c.xRdA;
      c.vecWb = c.xWriteBytes;
      let d = this.lm(c, t, c.xReadBytes, false, 0);
      if (c.xReadBytes2 >= 0) d = this.lm(c, t, c.xReadBytes2, false, d);
      d += c.xSteps * this.p.vectorLatency;
      c.vectorPj += c.xSteps * this.p.vectorStepPj;
      this.q.push(t + d, P_VEC, K_VEC_WRITE, c.id, 0);
    } else if (c.xUnit === UNIT_MATRIX) {
      const g = c.xGroup;
      c.agFree[g] = Infinity;
      c.lastMvmIssue = t;
      c.mxSlot[g] = s;
      c.mxPc[g] = pc;
      c.mxRead[g] = c.xReadBytes;
      c.mxWrite[g] = c.xWriteBytes;
      c.mxIbiw[g] = c.xIbiw;
      c.matrixPj += c.xLen * this.p.mvmPjPerXbar(c.xIbiw);
      this.q.push(t + this.P, P_MX, K_MX_START, c.id, g);
    } else {
      c.xfFree = Infinity;
      c.xfSlot = s;
      c.xfPc = pc;
      c.xfStart = t;
      this.startTransfer(c, pc, t);
    }
  }

  // ---------------------------------------------------------------- memories

  /** A local-memory access at `t` (pimsim-nn Memory::transport); returns the requester's new delay. */
  private lm(c: CoreState, t: number, bytes: number, write: boolean, delay: number): number {
    const m = this.p.local;
    const beats = bytes > 0 ? Math.ceil(bytes / m.dataWidth) : 0;
    const lat = beats * (write ? m.writeNs : m.readNs);
    c.localPj += beats * (write ? m.writePj : m.readPj);
    if (write) c.lmWriteBytes += bytes;
    else c.lmReadBytes += bytes;
    if (t > c.lmLf) {
      c.lmLf = t + lat;
      return delay + lat;
    }
    const d = c.lmLf + lat - t;
    c.lmLf += lat;
    return d;
  }

  private gm(t: number, bytes: number, write: boolean): number {
    const m = this.p.global;
    const beats = bytes > 0 ? Math.ceil(bytes / m.dataWidth) : 0;
    const lat = beats * (write ? m.writeNs : m.readNs);
    this.gmPj += beats * (write ? m.writePj : m.readPj);
    if (t > this.gmLf) {
      this.gmLf = t + lat;
      return lat;
    }
    const d = this.gmLf + lat - t;
    this.gmLf += lat;
    return d;
  }

  // ---------------------------------------------------------------- vector and matrix units

  private vectorWrite(c: CoreState, t: number): void {
    const d = this.lm(c, t, c.vecWb, true, 0);
    c.vecLastWait = d;
    // The finish time is known now; completing ahead of time is equivalent (see unitDone).
    this.unitDone(c, U_VEC, t + d);
  }

  private matrixStart(c: CoreState, g: number, t: number): void {
    c.mxStart[g] = t;
    let d = this.lm(c, t, c.mxRead[g], false, 0);
    d += this.p.mvmNs(c.mxIbiw[g]);
    this.q.push(t + d, P_MX, K_MX_WRITE, c.id, g);
  }

  private matrixWrite(c: CoreState, g: number, t: number): void {
    const d = this.lm(c, t, c.mxWrite[g], true, 0);
    c.mxLastWait[g] = d;
    this.unitDone(c, U_MX0 + g, t + d);
  }

  /**
   * A unit finishes at `t`. It is called as soon as `t` is known (possibly before the
   * simulation reaches it): everything it sets is dated (unit free at the next edge, commit
   * and retirement times), the front end compares those dates with its own clock, and a
   * front end that blocks on them schedules its wake-up from them (see block()).
   */
  private unitDone(c: CoreState, unit: number, t: number): void {
    const edge = this.nextEdge(t);
    const P = this.P;
    let slot: number;
    let commit: number;
    if (unit === U_VEC) {
      slot = c.vecSlot;
      c.vecFree = edge;
      commit = edge + (c.vecLastWait === 0 ? P : 0);
      c.busyVec += t - c.vecStart;
      this.traceSlice(c, 1, c.vecPc, c.vecStart, t);
    } else if (unit === U_XF) {
      slot = c.xfSlot;
      c.xfFree = edge;
      commit = edge + (c.xfLastWait <= P + 1e-9 ? P : 0);
      c.busyXf += t - c.xfStart;
      this.traceSlice(c, 2, c.xfPc, c.xfStart, t);
    } else {
      const g = unit - U_MX0;
      slot = c.mxSlot[g];
      c.agFree[g] = edge;
      commit = edge + (c.mxLastWait[g] === 0 ? P : 0);
      c.busyMx += t - c.mxStart[g];
      this.traceSlice(c, 3 + g, c.mxPc[g], c.mxStart[g], t);
    }
    this.commit(c, slot, commit);
    this.wake(c, edge);
  }

  private commit(c: CoreState, slot: number, time: number): void {
    const robSize = this.p.robSize;
    c.robCommit[slot] = time;
    let woke = false;
    while (c.retirePtr < c.robCount) {
      const s = (c.robHead + c.retirePtr) % robSize;
      const ct = c.robCommit[s];
      if (ct !== ct) break; // NaN: not committed yet
      const r = ct > c.lastRetire ? ct : c.lastRetire;
      c.robRetire[s] = r;
      c.lastRetire = r;
      c.retirePtr++;
      woke = true;
    }
    if (woke) {
      this.wake(c, c.lastRetire + this.P);
      this.checkDone(c);
    }
  }

  private checkDone(c: CoreState): void {
    if (c.done || !this.p.latencyMode) return;
    if (c.fetchPc < c.prog.length || c.dPc >= 0 || c.xPc >= 0) return;
    if (c.retirePtr < c.robCount) return;
    c.done = true;
    c.finishNs = Math.max(c.lastRetire, c.lastScalarDone);
    if (c.finishNs > this.lastFinish) this.lastFinish = c.finishNs;
    this.liveCores--;
  }

  // ---------------------------------------------------------------- transfer unit and network

  private startTransfer(c: CoreState, pc: number, t: number): void {
    const code = c.prog.code;
    const base = pc * STRIDE;
    const op = code[base + F_OP];
    c.xfOp = op;
    c.xfSize = c.xLen;
    c.xfWaitState = XW_NONE;
    switch (op) {
      case OP.ld:
        c.xfWaitState = XW_TRANSPORT;
        this.send(c.id, this.n, M_LD, 1, c.xLen, t);
        break;
      case OP.st: {
        const d = this.lm(c, t, c.xLen, false, 0);
        this.q.push(t + d, P_XF, K_XF_STEP, c.id, 0);
        break;
      }
      case OP.lldi: {
        const d = this.lm(c, t, c.xLen, true, 0);
        this.finishTransferAfter(c, t, d);
        break;
      }
      case OP.lmv: {
        let d = this.lm(c, t, c.xLen, false, 0);
        d = this.lm(c, t, c.xLen, true, d);
        this.finishTransferAfter(c, t, d);
        break;
      }
      case OP.send: {
        const peer = code[base + F_CORE];
        c.xfPeer = peer;
        c.xfWaitState = XW_RREADY;
        this.send(c.id, this.switchIndex(peer), M_SREADY, 1, pc, t);
        break;
      }
      case OP.recv: {
        const peer = code[base + F_CORE];
        c.xfPeer = peer;
        c.recvFrom = peer;
        c.xfWaitState = XW_DATA;
        if (peer >= 0 && peer < this.n && c.pendingSender[peer] >= 0) {
          c.pendingSender[peer] = -1;
          this.send(c.id, peer, M_RREADY, 1, 0, t);
        }
        break;
      }
      case OP.sync: {
        const peer = code[base + F_CORE];
        this.send(c.id, this.switchIndex(peer), M_SYNC, 1, code[base + F_A], t);
        this.finishTransferAfter(c, t, this.P);
        break;
      }
      case OP.wait: {
        const ev = code[base + F_A] & 31;
        const v = code[base + F_B];
        c.xfEv = ev;
        c.xfVal = v;
        if (this.waitSatisfied(c, ev, v, pc)) {
          this.consumeWait(c, ev, v);
          this.finishTransferAfter(c, t, 0);
        } else c.xfWaitState = XW_SYNC;
        break;
      }
      default:
        this.finishTransferAfter(c, t, 0);
        break;
    }
  }

  private waitSatisfied(c: CoreState, ev: number, v: number, pc: number): boolean {
    const have = c.er[ev];
    if (this.p.waitSemantics === 'tokens') return have >= v;
    if (have > v) {
      this.fail(
        'wait-overshoot',
        c.id,
        pc,
        SIM_MESSAGES.waitOvershoot(c.id, pc, this.instText(c, pc), have, v),
      );
      return false;
    }
    return have === v;
  }

  private consumeWait(c: CoreState, ev: number, v: number): void {
    if (this.p.waitSemantics === 'tokens') c.er[ev] -= v;
    else c.er[ev] = 0;
  }

  private finishTransferAfter(c: CoreState, t: number, d: number, lastWait: number = d): void {
    c.xfLastWait = lastWait;
    c.xfWaitState = XW_NONE;
    this.unitDone(c, U_XF, t + d);
  }

  private switchIndex(id: number): number {
    if (id === this.p.globalSwitchId) return this.n;
    return id;
  }

  /** Queues a message on the source switch's FIFO. */
  private send(src: number, dst: number, kind: number, bytes: number, arg: number, t: number): void {
    let m: number;
    if (this.mFree.length > 0) m = this.mFree.pop() as number;
    else {
      m = this.mKind.length;
      this.mKind.push(0);
      this.mSrc.push(0);
      this.mDst.push(0);
      this.mBytes.push(0);
      this.mArg.push(0);
    }
    this.mKind[m] = kind;
    this.mSrc[m] = src;
    this.mDst[m] = dst;
    this.mBytes[m] = bytes;
    this.mArg[m] = arg;
    if (src < this.n && (kind === M_DATA || kind === M_ST)) this.cores[src].sentBytes += kind === M_DATA ? bytes : 0;
    if (this.swCur[src] >= 0) this.swQueue[src].push(m);
    else if (this.stepping) {
      // A switch woken by this batch runs after the batch's own threads (SystemC runnable order).
      this.swCur[src] = m;
      this.deferred.push(src);
    } else this.startMessage(src, m, t);
  }

  private flits(bytes: number): number {
    return bytes > 0 ? Math.ceil(bytes / this.p.busWidth) : 0;
  }

  private startMessage(sw: number, m: number, t: number): void {
    this.swCur[sw] = m;
    this.swBusyFrom[sw] = t;
    const dst = this.mDst[m];
    const n1 = this.n + 1;
    const flits = this.flits(this.mBytes[m]);
    const idx = sw * n1 + (dst >= 0 && dst <= this.n ? dst : sw);
    const lat = Math.trunc(flits * this.net.latency[idx]);
    this.netPj += flits * this.net.energy[idx];
    this.netWait(sw, W_ARRIVE, t, t + lat);
  }

  /** A switch thread waits until `until` (SystemC `wait(time)`; a zero wait is a delta cycle). */
  private netWait(sw: number, phase: number, t: number, until: number): void {
    if (until <= t + 1e-9) {
      this.q.push(t, P_NET, phase === W_ARRIVE ? K_SW_ARRIVE : K_SW_DONE, sw, this.swTransport[sw]);
      return;
    }
    if (!this.stepping && Math.abs(this.netStepAt - t) <= 1e-9) {
      // SystemC pops this instant's timed waits before any thread runs: a wait started now
      // enters the heap after that batch (see netStep).
      this.pendingWaits.push(sw * 2 + phase, until);
      return;
    }
    this.insertWait(sw * 2 + phase, until, t);
    this.scheduleNetStep(this.nextSwitchTime());
  }

  private insertWait(code: number, until: number, t: number): void {
    const w = this.waits;
    // The clock's entry is always in SystemC's heap; alone, its place does not matter, so it is
    // (re)placed at the next edge only when a switch starts waiting (unless a batch that popped
    // it is running: it re-inserts the clock at its turn). Otherwise the clock's edges up to now
    // are run first (the clock runs first at an edge, before the threads it wakes).
    if (this.switchWaits === 0) {
      if (this.clockInHeap) w.retimeSingle(this.nextEdge(t));
      else if (!this.stepping) {
        w.insert(this.nextEdge(t), CLOCK_ENTRY);
        this.clockInHeap = true;
      }
    } else if (!this.stepping) this.runClockEdges(t, true);
    w.insert(until, code);
    this.switchWaits++;
  }

  /** Earliest end of a switch wait (Infinity when none waits). */
  private nextSwitchTime(): number {
    const w = this.waits;
    if (this.switchWaits === 0) return Infinity;
    return w.topCode() === CLOCK_ENTRY ? w.secondTime() : w.topTime();
  }

  /**
   * Runs the clock's edges before `t` (and at `t` when `inclusive`) that come before every
   * switch wake-up, in the heap only (TimedWaitHeap.advanceClock).
   */
  private runClockEdges(t: number, inclusive: boolean): void {
    const w = this.waits;
    if (!this.clockInHeap || this.switchWaits === 0 || w.topCode() !== CLOCK_ENTRY) return;
    const clock = w.topTime();
    const P = this.P;
    if (clock > t + 1e-9) return;
    let steps = inclusive ? Math.floor((t - clock) / P + 1e-9) + 1 : Math.ceil((t - clock) / P - 1e-9);
    const cap = Math.ceil((w.secondTime() - clock) / P - 1e-9) - 1;
    if (steps > cap) steps = cap;
    if (steps > 0) w.advanceClock(steps, P);
  }

  private scheduleNetStep(time: number): void {
    if (time < this.netStepAt - 1e-9) {
      this.netStepAt = time;
      this.q.push(time, P_NET, K_NET_STEP, 0, 0);
    }
  }

  /**
   * One time step of SystemC's timed-event heap as far as the switches see it: every entry due
   * now is popped first, then the woken threads run in pop order (the clock re-inserts its
   * next edge at its turn); switches that a delivery wakes start their message after them.
   */
  private netStep(t: number): void {
    if (Math.abs(t - this.netStepAt) > 1e-9) return; // superseded by an earlier step
    this.netStepAt = Infinity;
    const w = this.waits;
    const P = this.P;
    this.runClockEdges(t, false);
    const batch = this.batch;
    batch.length = 0;
    while (w.size > 0 && w.topTime() <= t + 1e-9) {
      const code = w.topCode();
      batch.push(code);
      w.extractTop();
      if (code === CLOCK_ENTRY) this.clockInHeap = false;
      else this.switchWaits--;
    }
    this.stepping = true;
    for (let i = 0; i < batch.length; i++) {
      const code = batch[i];
      if (code === CLOCK_ENTRY) {
        w.insert(t + P, CLOCK_ENTRY);
        this.clockInHeap = true;
        continue;
      }
      const sw = code >> 1;
      if ((code & 1) === W_ARRIVE) this.switchArrive(sw, t);
      else this.switchDone(sw, this.swTransport[sw], t);
    }
    this.stepping = false;
    const deferred = this.deferred;
    for (let i = 0; i < deferred.length; i++) this.startMessage(deferred[i], this.swCur[deferred[i]], t);
    deferred.length = 0;
    const pending = this.pendingWaits;
    for (let i = 0; i < pending.length; i += 2) this.insertWait(pending[i], pending[i + 1], t);
    pending.length = 0;
    if (this.switchWaits > 0) {
      if (!this.clockInHeap) {
        // The batch ran at a time between edges: the clock still waits for its next edge.
        w.insert(this.nextEdge(t), CLOCK_ENTRY);
        this.clockInHeap = true;
      }
      this.scheduleNetStep(this.nextSwitchTime());
    }
  }

  private switchArrive(sw: number, t: number): void {
    const m = this.swCur[sw];
    const kind = this.mKind[m];
    const src = this.mSrc[m];
    const dst = this.mDst[m];
    let extra = 0;
    let transportCore = -1;
    if (kind === M_LD || kind === M_ST) {
      extra = this.gm(t, this.mArg[m], kind === M_ST);
      if (kind === M_ST) this.cores[src].gmWriteBytes += this.mArg[m];
      else this.cores[src].gmReadBytes += this.mArg[m];
      // Response: 0 bytes = 0 flits.
      transportCore = src;
    } else if (dst >= 0 && dst < this.n) {
      const r = this.cores[dst];
      if (kind === M_SREADY) {
        if (r.xfWaitState === XW_DATA && r.recvFrom === src && r.xfOp === OP.recv) {
          this.send(dst, src, M_RREADY, 1, 0, t);
        } else r.pendingSender[src] = this.mArg[m];
        extra = 1;
      } else if (kind === M_RREADY) {
        if (r.xfWaitState === XW_RREADY) {
          // Receiver ready: read the data, queue it, done.
          const d = this.lm(r, t, r.xfSize, false, 0);
          r.xfWaitState = XW_NONE;
          r.xfLastWait = d;
          this.q.push(t + d, P_XF, K_XF_STEP, r.id, 0);
        }
      } else if (kind === M_DATA) {
        if (r.xfWaitState === XW_DATA) {
          r.recvBytes += r.xfSize;
          r.recvFrom = -1;
          const d = this.lm(r, t, r.xfSize, true, 0);
          this.finishTransferAfter(r, t, d);
        }
      } else if (kind === M_SYNC) {
        const ev = this.mArg[m] & 31;
        r.er[ev]++;
        if (r.xfWaitState === XW_SYNC && r.xfEv === ev) {
          if (this.waitSatisfied(r, ev, r.xfVal, r.xfPc)) {
            this.consumeWait(r, ev, r.xfVal);
            this.finishTransferAfter(r, t, 0, NOTIFY);
          }
        }
      }
    }
    this.swTransport[sw] = transportCore;
    this.netWait(sw, W_DONE, t, t + extra);
  }

  private switchDone(sw: number, transportCore: number, t: number): void {
    const m = this.swCur[sw];
    if (transportCore >= 0) {
      const c = this.cores[transportCore];
      if (c.xfOp === OP.ld) {
        const d = this.lm(c, t, c.xfSize, true, 0);
        this.finishTransferAfter(c, t, d);
      } else {
        this.finishTransferAfter(c, t, 0, NOTIFY);
      }
    }
    this.traceNet(sw, m, this.swBusyFrom[sw], t);
    this.mFree.push(m);
    this.swCur[sw] = -1;
    const queue = this.swQueue[sw];
    if (this.swHead[sw] < queue.length) {
      const next = queue[this.swHead[sw]++];
      if (this.swHead[sw] > 64 && this.swHead[sw] * 2 > queue.length) {
        queue.splice(0, this.swHead[sw]);
        this.swHead[sw] = 0;
      }
      this.startMessage(sw, next, t);
    }
  }

  /** Continuations of st (after the local read) and send (after the local read). */
  private transferStep(c: CoreState, t: number): void {
    if (c.xfOp === OP.st) {
      c.xfWaitState = XW_TRANSPORT;
      this.send(c.id, this.n, M_ST, c.xfSize, c.xfSize, t);
    } else if (c.xfOp === OP.send) {
      // The data goes out asynchronously; the send is done after its local read.
      this.send(c.id, this.switchIndex(c.xfPeer), M_DATA, c.xfSize, 0, t);
      this.unitDone(c, U_XF, t);
    }
  }

  // ---------------------------------------------------------------- errors and results

  private instText(c: CoreState, pc: number): string {
    return formatInstruction(c.prog.code, pc);
  }

  private fail(kind: SimError['kind'], core: number, pc: number, message: string): void {
    if (this.error !== undefined) return;
    const c = core >= 0 ? this.cores[core] : undefined;
    this.error = { kind, core, pc, instruction: c && pc >= 0 ? this.instText(c, pc) : '', message };
  }

  private unfinishedLines(): string[] {
    const lines: string[] = [];
    for (const c of this.cores) {
      if (c.done) continue;
      const pc = this.blockedPc(c);
      if (pc < 0) {
        lines.push(SIM_MESSAGES.unfinishedCore(c.id, c.fetchPc, c.prog.length));
        continue;
      }
      const inst = this.instText(c, pc);
      if (c.xfPc === pc && c.xfWaitState === XW_DATA) lines.push(SIM_MESSAGES.blockedOnRecv(c.id, pc, inst, c.xfPeer));
      else if (c.xfPc === pc && c.xfWaitState === XW_RREADY) lines.push(SIM_MESSAGES.blockedOnSend(c.id, pc, inst, c.xfPeer));
      else if (c.xfPc === pc && c.xfWaitState === XW_SYNC)
        lines.push(SIM_MESSAGES.blockedOnWait(c.id, pc, inst, c.xfEv, c.er[c.xfEv], c.xfVal));
      else lines.push(SIM_MESSAGES.blockedOther(c.id, pc, inst));
    }
    return lines;
  }

  private blockedPc(c: CoreState): number {
    if (c.xfWaitState !== XW_NONE && c.xfPc >= 0) return c.xfPc;
    if (c.robCount > c.retirePtr) return c.robPc[(c.robHead + c.retirePtr) % this.p.robSize];
    if (c.xPc >= 0) return c.xPc;
    return -1;
  }

  private failDeadlock(): void {
    const lines = this.unfinishedLines();
    const first = this.cores.find((c) => !c.done);
    const pc = first ? this.blockedPc(first) : -1;
    this.fail('deadlock', first?.id ?? -1, pc, SIM_MESSAGES.deadlock(lines));
  }

  private failBudget(): void {
    const lines = this.unfinishedLines();
    const first = this.cores.find((c) => !c.done);
    const pc = first ? this.blockedPc(first) : -1;
    this.fail('cycle-budget', first?.id ?? -1, pc, SIM_MESSAGES.cycleBudget(this.budget, lines));
  }

  private traceSlice(c: CoreState, tid: number, pc: number, start: number, end: number): void {
    if (!this.trace) return;
    const op = c.prog.code[pc * STRIDE + F_OP];
    this.trace.push({
      name: OP_NAMES[op],
      cat: tid === 1 ? 'vector' : tid === 2 ? 'transfer' : 'matrix',
      ph: 'X',
      ts: start / 1000,
      dur: (end - start) / 1000,
      pid: c.id,
      tid,
      args: { pc, inst: this.instText(c, pc) },
    });
  }

  private traceNet(sw: number, m: number, start: number, end: number): void {
    if (!this.trace) return;
    const names = ['ld-request', 'st-request', 'sender-ready', 'receiver-ready', 'data', 'sync'];
    const dst = this.mDst[m];
    this.trace.push({
      name: names[this.mKind[m]],
      cat: 'network',
      ph: 'X',
      ts: start / 1000,
      dur: (end - start) / 1000,
      pid: this.n,
      tid: sw,
      args: { src: sw === this.n ? 'global' : sw, dst: dst === this.n ? 'global' : dst, bytes: this.mBytes[m] },
    });
  }

  private result(endTime: number): TimingResult {
    const p = this.p;
    const P = this.P;
    let latency = 0;
    if (p.latencyMode) for (const c of this.cores) latency = Math.max(latency, c.finishNs);
    else latency = endTime;
    const e: EnergyBreakdown = {
      staticPj: 0,
      fetchPj: 0,
      decodePj: 0,
      regReadPj: 0,
      regWritePj: 0,
      scalarPj: 0,
      vectorPj: 0,
      localMemoryPj: 0,
      globalMemoryPj: this.gmPj,
      matrixPj: 0,
      networkPj: this.netPj,
    };
    const cores: CoreStats[] = [];
    let minRounds = Infinity;
    for (const c of this.cores) {
      const staticPj = p.coreStaticMw * latency;
      const fetchPj = c.fetches * P * p.fetchMw;
      const decodePj = c.decodes * P * p.decodeMw;
      const regReadPj = c.regReads * P * p.regReadMw;
      const regWritePj = c.regWrites * P * p.regWriteMw;
      const scalarPj = c.scalars * P * p.scalarMw;
      e.staticPj += staticPj;
      e.fetchPj += fetchPj;
      e.decodePj += decodePj;
      e.regReadPj += regReadPj;
      e.regWritePj += regWritePj;
      e.scalarPj += scalarPj;
      e.vectorPj += c.vectorPj;
      e.localMemoryPj += c.localPj;
      e.matrixPj += c.matrixPj;
      const mix: Record<string, number> = {};
      for (let op = 0; op < c.mix.length; op++) if (c.mix[op] > 0) mix[OP_NAMES[op]] = c.mix[op];
      if (c.prog.length > 0) minRounds = Math.min(minRounds, c.rounds);
      cores.push({
        id: c.id,
        finishNs: p.latencyMode ? c.finishNs : 0,
        fetchEndNs: c.fetchEndNs < 0 ? 0 : c.fetchEndNs,
        rounds: c.rounds,
        programLength: c.prog.length,
        issued: c.issued,
        energyPj:
          staticPj +
          fetchPj +
          decodePj +
          regReadPj +
          regWritePj +
          scalarPj +
          c.vectorPj +
          c.localPj +
          c.matrixPj,
        busyNs: { vector: c.busyVec, transfer: c.busyXf, matrix: c.busyMx },
        stallNs: { robFull: c.stallRob, unitBusy: c.stallUnit, hazard: c.stallHazard },
        bytes: {
          localRead: c.lmReadBytes,
          localWrite: c.lmWriteBytes,
          globalRead: c.gmReadBytes,
          globalWrite: c.gmWriteBytes,
          sent: c.sentBytes,
          received: c.recvBytes,
        },
        mix,
      });
    }
    e.staticPj += p.global.staticMw * latency;
    const energyPj =
      e.staticPj +
      e.fetchPj +
      e.decodePj +
      e.regReadPj +
      e.regWritePj +
      e.scalarPj +
      e.vectorPj +
      e.localMemoryPj +
      e.globalMemoryPj +
      e.matrixPj +
      e.networkPj;
    const result: TimingResult = {
      latencyNs: latency,
      energyPj,
      energy: e,
      cores,
      rounds: minRounds === Infinity ? 0 : minRounds,
    };
    if (this.error !== undefined) result.error = this.error;
    if (this.trace) result.trace = this.trace;
    return result;
  }
}
