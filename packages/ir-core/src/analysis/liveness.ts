import type { Block } from '../ir/block';
import type { Operation } from '../ir/operation';
import type { Region } from '../ir/region';
import { BlockArgument, type OpOperand, type Value } from '../ir/value';

/**
 * The liveness of one block (MLIR's `LivenessBlockInfo`): the values live on entry and on exit,
 * and where in the block a value's live range starts and ends.
 */
export class LivenessBlockInfo {
  /** @internal Built by {@link Liveness}. */
  constructor(
    /** The block. */
    readonly block: Block,
    /** Values live on entry (used in the block or after it, defined before it). */
    readonly liveIn: ReadonlySet<Value>,
    /** Values live on exit (used by a successor or later). */
    readonly liveOut: ReadonlySet<Value>,
  ) {}

  /** True when `value` is live on entry. */
  isLiveIn(value: Value): boolean {
    return this.liveIn.has(value);
  }

  /** True when `value` is live on exit. */
  isLiveOut(value: Value): boolean {
    return this.liveOut.has(value);
  }

  /**
   * The op of this block where `value`'s live range starts: the first op when it is live-in or
   * an argument of this block, else its defining op (or the op of this block containing it);
   * `null` when the value is not defined in or live into this block.
   */
  getStartOperation(value: Value): Operation | null {
    if (this.liveIn.has(value) || (value instanceof BlockArgument && value.parentBlock === this.block)) return this.block.firstOp;
    const def = value.definingOp;
    const a = def ? this.block.parent!.findAncestorOpInRegion(def) : null;
    return a && a.parent === this.block ? a : null;
  }

  /**
   * The op of this block where `value`'s live range ends: the last op when it is live-out,
   * else the last op (at or after `start`) that uses it directly or in its regions.
   */
  getEndOperation(value: Value, start: Operation): Operation {
    if (this.liveOut.has(value)) return this.block.lastOp!;
    let end = start;
    for (let u = value.firstUse; u; u = u.nextUse) {
      const a = this.block.parent!.findAncestorOpInRegion(u.owner);
      if (a && a.parent === this.block && end.isBeforeInBlock(a)) end = a;
    }
    return end;
  }

  /** The values live right after `op` (an op of this block) executes, plus those it defines and that are used later. */
  currentlyLiveValues(op: Operation): Set<Value> {
    const live = new Set<Value>();
    const consider = (v: Value) => {
      const s = this.getStartOperation(v);
      if (!s) return;
      if (s !== op && !s.isBeforeInBlock(op)) return;
      const e = this.getEndOperation(v, s);
      if (e === op || op.isBeforeInBlock(e)) live.add(v);
    };
    for (const v of this.liveIn) consider(v);
    for (const a of this.block.arguments) consider(a);
    for (let o = this.block.firstOp; o; o = o.next) {
      for (const r of o.results) consider(r);
      if (o === op) break;
    }
    return live;
  }
}

/** One value's live range in a linear order of ops: op indices, both inclusive. */
export interface LiveInterval {
  /** The value. */
  readonly value: Value;
  /** Index of the first op at which the value is live (its definition). */
  readonly start: number;
  /** Index of the last op at which the value is live (its last use, widened over loops). */
  readonly end: number;
}

/** Options of {@link Liveness.getLiveIntervals}. */
export interface LiveIntervalOptions {
  /**
   * The values that alias the used value through `use` (e.g. the result of a view or cast op
   * of a buffer): their uses keep the used value live too (followed transitively). Default:
   * none, so each SSA value is on its own.
   */
  readonly aliasesOf?: (use: OpOperand) => readonly Value[];
  /**
   * The values to compute intervals for (e.g. a memory planner's allocations; the others are
   * skipped, which saves most of the work on large regions). Default: every value.
   */
  readonly values?: (value: Value) => boolean;
}

/**
 * Live intervals over a linear order of the ops nested in a region: the ops are numbered in
 * pre-order (an op before the ops of its regions, blocks in order). A value is live from its
 * definition (a block argument: from its block's first op) to its last use; a use inside a
 * region of an op defined after the value (a loop body) extends the interval to the end of
 * that op (the region may run again), and a value live across blocks covers every block it is
 * live in (the interval is the hull). Two values whose intervals do not overlap never need
 * their storage at the same time: the basis of the bufferization memory plan.
 *
 * @example
 * ```ts
 * const intervals = this.getAnalysis(Liveness).getLiveIntervals(coreBody);
 * for (const { value, start, end } of intervals.intervals) plan.add(value, start, end);
 * intervals.overlaps(a, b); // boolean
 * ```
 */
export class LiveIntervals {
  /** The ops in linear order (`operations[i]` has index `i`). */
  readonly operations: readonly Operation[];
  /** Every value defined in the region (block arguments first per block, then results), in order. */
  readonly intervals: readonly LiveInterval[];
  private readonly index = new Map<Operation, number>();
  private readonly subtreeEnd = new Map<Operation, number>();
  private readonly byValue = new Map<Value, LiveInterval>();

  /** @internal Use {@link Liveness.getLiveIntervals}. */
  constructor(
    /** The region numbered. */
    readonly region: Region,
    liveness: Liveness,
    private readonly options: LiveIntervalOptions = {},
  ) {
    const ops: Operation[] = [];
    // Pre-order numbering with subtree ends (recursion over regions only: a region's ops are
    // walked in place, and only ops with regions record a subtree end; a leaf's is its own index).
    const numberRegion = (r: Region): void => {
      for (let blk = r.firstBlock; blk; blk = blk.next) {
        for (let o = blk.firstOp; o; o = o.next) {
          this.index.set(o, ops.length);
          ops.push(o);
          if (o.numRegions === 0) continue;
          for (let i = 0; i < o.numRegions; i++) numberRegion(o.regions[i]!);
          this.subtreeEnd.set(o, ops.length - 1);
        }
      }
    };
    numberRegion(region);
    this.operations = ops;

    const intervals: LiveInterval[] = [];
    const wanted = options.values;
    const visitBlock = (b: Block) => {
      for (const a of b.arguments) if (!wanted || wanted(a)) intervals.push(this.compute(a, liveness));
      for (let o = b.firstOp; o; o = o.next) {
        for (const r of o.results) if (!wanted || wanted(r)) intervals.push(this.compute(r, liveness));
        for (const sub of o.regions) for (let sb = sub.firstBlock; sb; sb = sb.next) visitBlock(sb);
      }
    };
    // Visit in linear order: block arguments of a block, then each op's results, then its regions.
    for (let b = region.firstBlock; b; b = b.next) visitBlock(b);
    intervals.sort((x, y) => x.start - y.start);
    this.intervals = intervals;
    for (const iv of intervals) this.byValue.set(iv.value, iv);
  }

  /** The linear index of `op` (undefined if it is not in the region). */
  indexOf(op: Operation): number | undefined {
    return this.index.get(op);
  }

  /** The index of the last op nested in `op` (its own index when it has no regions). */
  endIndexOf(op: Operation): number | undefined {
    return this.subtreeEnd.get(op) ?? this.index.get(op);
  }

  /** The interval of `value` (a value defined in the region), or undefined. */
  getInterval(value: Value): LiveInterval | undefined {
    return this.byValue.get(value);
  }

  /** True when the intervals of `a` and `b` share an op index. */
  overlaps(a: Value, b: Value): boolean {
    const x = this.byValue.get(a);
    const y = this.byValue.get(b);
    return x !== undefined && y !== undefined && x.start <= y.end && y.start <= x.end;
  }

  /** The values whose interval contains op index `i`, in interval order. */
  liveAt(i: number): Value[] {
    return this.intervals.filter((iv) => iv.start <= i && i <= iv.end).map((iv) => iv.value);
  }

  private compute(value: Value, liveness: Liveness): LiveInterval {
    const defBlock = value instanceof BlockArgument ? value.parentBlock : value.definingOp!.parent!;
    let start: number;
    if (value instanceof BlockArgument) {
      const first = defBlock.firstOp;
      start = first ? this.index.get(first)! : this.blockAnchor(defBlock);
    } else start = this.index.get(value.definingOp!)!;
    let end = start;
    const widen = (i: number) => {
      if (i < start) start = i;
      if (i > end) end = i;
    };
    // The value and, with `aliasesOf`, the values aliasing it (transitively).
    const group: Value[] = [value];
    const seen = new Set<Value>(group);
    const aliasesOf = this.options.aliasesOf;
    for (let gi = 0; gi < group.length; gi++) {
      const v = group[gi]!;
      for (let u = v.firstUse; u; u = u.nextUse) {
        if (aliasesOf) {
          for (const alias of aliasesOf(u)) {
            if (!seen.has(alias)) {
              seen.add(alias);
              group.push(alias);
            }
          }
        }
        // The ancestor of the user that lies in the defining block: the whole ancestor when the
        // use is nested in one of its regions (it may run repeatedly), else the user itself.
        let a: Operation | null = u.owner;
        while (a && a.parent !== defBlock) a = a.getParentOp();
        if (a) {
          const i = a === u.owner ? this.index.get(a) : this.endIndexOf(a);
          if (i !== undefined) widen(i);
        }
        // A use in another block of the region (CFG): covered below through live-in/live-out.
      }
    }
    const r = defBlock.parent;
    if (r && !r.hasOneBlock) {
      for (let b = r.firstBlock; b; b = b.next) {
        const info = liveness.getBlockInfo(b);
        if (!info || b.empty) continue;
        for (const v of group) {
          if (info.isLiveIn(v)) {
            widen(this.index.get(b.firstOp!)!);
            widen(this.endIndexOf(info.getEndOperation(v, b.firstOp!))!);
          }
          if (info.isLiveOut(v)) widen(this.endIndexOf(b.lastOp!)!);
        }
      }
    }
    return { value, start, end };
  }

  /** For an empty block: the index of the op holding its region (or 0). */
  private blockAnchor(b: Block): number {
    const p = b.parentOp;
    return p ? (this.index.get(p) ?? 0) : 0;
  }
}

/** True when `value` is defined in `block`: an argument or result there, or anywhere nested in its ops. */
function definedWithin(value: Value, block: Block): boolean {
  for (let b: Block | null = value.parentBlock; b !== null; ) {
    if (b === block) return true;
    const p: Operation | null = b.parentOp;
    b = p === null ? null : p.parent;
  }
  return false;
}

/**
 * Liveness of the values in the regions nested in an operation (MLIR's `Liveness`), for every
 * block of every region at any depth: live-in / live-out sets by backward dataflow over the
 * CFG, where a use inside a nested region counts as a use by the op holding it. Use it as an
 * analysis (`this.getAnalysis(Liveness)`), or construct it directly.
 *
 * @example
 * ```ts
 * const liveness = new Liveness(func);
 * liveness.getLiveIn(loopBody);          // ReadonlySet<Value>
 * liveness.isDeadAfter(value, op);       // no use after `op`
 * liveness.getLiveIntervals(func.regions[0]!).getInterval(value); // { start, end }
 * ```
 */
export class Liveness {
  private readonly infos = new Map<Block, LivenessBlockInfo>();

  constructor(
    /** The analysed operation. */
    readonly operation: Operation,
  ) {
    const blocks: Block[] = [];
    const collect = (op: Operation) => {
      for (const r of op.regions) for (let b = r.firstBlock; b; b = b.next) blocks.push(b);
    };
    collect(operation);
    operation.walk((o) => {
      if (o !== operation) collect(o);
    });
    // Per-block use and out sets (MLIR's BlockInfoBuilder). The values defined in a block (its
    // arguments, its ops' results and everything nested in them) are not collected: whether a
    // value is one of them is a walk up from its block (`definedWithin`), so a block of many ops
    // costs no set of its definitions, and its use set holds only the values defined elsewhere.
    const uses = new Map<Block, Set<Value>>();
    const outs = new Map<Block, Set<Value>>();
    for (const b of blocks) {
      const use = new Set<Value>();
      const out = new Set<Value>();
      const region = b.parent!;
      const escapes = (v: Value) => {
        for (let u = v.firstUse; u; u = u.nextUse) {
          const owner = u.owner.parent;
          const ob = owner ? region.findAncestorBlockInRegion(owner) : null;
          if (ob !== b) {
            out.add(v);
            return;
          }
        }
      };
      const addUses = (o: Operation): void => {
        for (let i = 0; i < o.numOperands; i++) {
          const v = o.getOperand(i);
          if (!definedWithin(v, b)) use.add(v);
        }
      };
      for (const a of b.arguments) escapes(a);
      for (let o = b.firstOp; o; o = o.next) {
        for (const r of o.results) escapes(r);
        // An op without regions needs no walk (core streams are flat).
        if (o.numRegions === 0) addUses(o);
        else o.walk(addUses);
      }
      uses.set(b, use);
      outs.set(b, out);
    }
    // Backward fixpoint: in = use + (out - def); out = escaping + in(successors) (unions).
    const liveIn = new Map<Block, Set<Value>>();
    const liveOut = new Map<Block, Set<Value>>();
    for (const b of blocks) {
      liveOut.set(b, new Set(outs.get(b)));
      liveIn.set(b, new Set());
    }
    for (let changed = true; changed; ) {
      changed = false;
      for (let i = blocks.length - 1; i >= 0; i--) {
        const b = blocks[i]!;
        const out = liveOut.get(b)!;
        for (const s of b.successors) for (const v of liveIn.get(s) ?? []) out.add(v);
        const inn = liveIn.get(b)!;
        const before = inn.size;
        for (const v of uses.get(b)!) inn.add(v);
        for (const v of out) if (!definedWithin(v, b)) inn.add(v);
        if (inn.size !== before) changed = true;
      }
    }
    for (const b of blocks) this.infos.set(b, new LivenessBlockInfo(b, liveIn.get(b)!, liveOut.get(b)!));
  }

  /** The liveness of `block` (a block nested in the analysed op), or undefined. */
  getBlockInfo(block: Block): LivenessBlockInfo | undefined {
    return this.infos.get(block);
  }

  /** The values live on entry to `block`. */
  getLiveIn(block: Block): ReadonlySet<Value> {
    return this.infos.get(block)?.liveIn ?? new Set();
  }

  /** The values live on exit from `block`. */
  getLiveOut(block: Block): ReadonlySet<Value> {
    return this.infos.get(block)?.liveOut ?? new Set();
  }

  /** True when `value` is not used after `op` (in `op`'s block, nested uses included, nor live-out). */
  isDeadAfter(value: Value, op: Operation): boolean {
    const info = this.infos.get(op.parent!);
    if (!info) return true;
    if (info.isLiveOut(value)) return false;
    const start = info.getStartOperation(value) ?? op;
    const end = info.getEndOperation(value, start);
    return end === op || end.isBeforeInBlock(op);
  }

  /**
   * The live intervals of the values defined in `region` (see {@link LiveIntervals}); with
   * `options.aliasesOf`, a buffer stays live while a view of it is used.
   */
  getLiveIntervals(region: Region, options: LiveIntervalOptions = {}): LiveIntervals {
    return new LiveIntervals(region, this, options);
  }
}
