/**
 * Instruction selection: the resolved ops of one core stream to pim-target's typed
 * instructions, following every rule of pim-isa.md §16 so the program runs alike on pimsim-nn
 * and on our simulator:
 *
 * - the program begins with `setbw` (32/32: values are f32) and ends with the last non-scalar
 *   instruction (scalars are only emitted right before the instruction that reads them);
 * - addresses are offset-free (`offset_select = offset_value = 0`), computed into registers
 *   with `sldi`; global addresses in even/odd register pairs;
 * - `send` names its source register in both `rd` and `rs1`; byte counts go to `size`
 *   (ld/st/send/recv) or `len` (lmv); `mvmul` gets `mbiw > 0`;
 * - no `nop`, no `sld`, no `sadd`/`ssub`/`smul` (rs2 would be lost in PIMB); zero-count
 *   waits are omitted;
 * - a load of a host constant whose bytes are all equal (zero padding) is `lldi`, a local
 *   memset, instead of `ld`, which queues on the global memory all cores share.
 *
 * A stream with nothing to execute gets the empty program (pimsim-nn finishes it at t = 0).
 */
import { PROGRAM_ELEMENT_BITS, makeInstruction, type Instruction, type Target } from '@raptor-pim/pim-target';
import { mvmulWeightBits, type ArrayGroupPlan } from '../analysis/array-groups';
import type { StaticOp, StaticStream } from '../analysis/static-program';
import { RegisterAllocator } from './registers';

/** Element width in bits of every emitted program (f32 values): the width pim-target's cost model times programs at. */
export const ELEMENT_BITS = PROGRAM_ELEMENT_BITS;

/** What instruction selection reports besides the program. */
export interface SelectionStatistics {
  /** Instructions (including `setbw` and register loads). */
  instructions: number;
  /** `sldi` register loads. */
  registerLoads: number;
  /** Operand registers reused without a load. */
  registerHits: number;
}

/** The program of `stream`. */
export function selectInstructions(stream: StaticStream, plan: ArrayGroupPlan, target: Target, stats?: SelectionStatistics): Instruction[] {
  const out: Instruction[] = [makeInstruction('setbw', { ibiw: ELEMENT_BITS, obiw: ELEMENT_BITS })];
  const regs = new RegisterAllocator(out);
  const mbiw = mvmulWeightBits(target.config.chip_config.core_config.matrix_config);
  for (const op of stream.ops) {
    const [scalars, pairs] = operandValues(op);
    regs.begin(scalars, pairs);
    out.push(select(op, regs, stream, plan, mbiw));
  }
  const program = out.length === 1 ? [] : out;
  if (stats) {
    stats.instructions += program.length;
    stats.registerLoads += regs.loads;
    stats.registerHits += regs.hits;
  }
  return program;
}

const NO_OFFSET = { offsetSelect: 0, offsetValue: 0 } as const;

/** The register values (scalars) and global addresses (pairs) `op` needs. */
function operandValues(op: StaticOp): [number[], number[]] {
  switch (op.kind) {
    case 'lmv':
    case 'mvmul':
      return [[op.src, op.dst], []];
    case 'ld':
      return [[op.dst], [op.src]];
    case 'fill':
      return [[op.dst], []];
    case 'st':
      return [[op.src], [op.dst]];
    case 'vmv':
      return [[op.src, op.stride, op.dst], []];
    case 'vector':
      return [op.mnemonic === 'vavg' ? [op.lhs, 1, op.dst] : op.rhs !== undefined ? [op.lhs, op.rhs, op.dst] : [op.lhs, op.dst], []];
    case 'send':
      return [[op.src], []];
    case 'recv':
      return [[op.dst], []];
    case 'sync':
    case 'wait':
      return [[], []];
  }
}

function select(op: StaticOp, regs: RegisterAllocator, stream: StaticStream, plan: ArrayGroupPlan, mbiw: number): Instruction {
  switch (op.kind) {
    case 'lmv': {
      const rs1 = regs.scalar(op.src);
      const rd = regs.scalar(op.dst);
      return makeInstruction('lmv', { rd, rs1, len: op.size, ...NO_OFFSET });
    }
    case 'ld': {
      const rs1 = regs.pair(op.src);
      const rd = regs.scalar(op.dst);
      return makeInstruction('ld', { rd, rs1, size: op.size, ...NO_OFFSET });
    }
    case 'fill': {
      const rd = regs.scalar(op.dst);
      return makeInstruction('lldi', { rd, imm: op.value, len: op.size, ...NO_OFFSET });
    }
    case 'st': {
      const rd = regs.pair(op.dst);
      const rs1 = regs.scalar(op.src);
      return makeInstruction('st', { rd, rs1, size: op.size, ...NO_OFFSET });
    }
    case 'vmv': {
      const rs1 = regs.scalar(op.src);
      const rs2 = regs.scalar(op.stride);
      const rd = regs.scalar(op.dst);
      return makeInstruction('vmv', { rd, rs1, rs2, len: op.length, ...NO_OFFSET });
    }
    case 'vector': {
      const rs1 = regs.scalar(op.lhs);
      if (op.mnemonic === 'vavg') {
        const rs2 = regs.scalar(1); // stride of one element
        const rd = regs.scalar(op.dst);
        return makeInstruction('vavg', { rd, rs1, rs2, len: op.len, ...NO_OFFSET });
      }
      if (op.rhs !== undefined) {
        const rs2 = regs.scalar(op.rhs);
        const rd = regs.scalar(op.dst);
        const m = op.mnemonic as 'vvadd' | 'vvsub' | 'vvmul' | 'vvmax' | 'vvdmul';
        return makeInstruction(m, { rd, rs1, rs2, len: op.len, ...NO_OFFSET });
      }
      const rd = regs.scalar(op.dst);
      const m = op.mnemonic as 'vrelu' | 'vtanh' | 'vsigm' | 'vsoftmax';
      return makeInstruction(m, { rd, rs1, len: op.len, ...NO_OFFSET });
    }
    case 'mvmul': {
      const rs1 = regs.scalar(op.src);
      const rd = regs.scalar(op.dst);
      return makeInstruction('mvmul', { rd, rs1, mbiw, relu: false, group: plan.groupOf(stream.coreId, op.op) });
    }
    case 'send': {
      const r = regs.scalar(op.src);
      return makeInstruction('send', { rd: r, rs1: r, core: op.peer, size: op.size, ...NO_OFFSET });
    }
    case 'recv': {
      const rd = regs.scalar(op.dst);
      return makeInstruction('recv', { rd, core: op.peer, size: op.size, ...NO_OFFSET });
    }
    case 'sync':
      return makeInstruction('sync', { eventRegister: op.event, core: op.peer });
    case 'wait':
      return makeInstruction('wait', { eventRegister: op.event, waitValue: op.count });
  }
}
