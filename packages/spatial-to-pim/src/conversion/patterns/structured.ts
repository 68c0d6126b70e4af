/**
 * Structured ops inside scheduled bodies, resolved at compile time (PIM streams have no
 * branches; code generation unrolls nothing that reaches it as a tensor program):
 *
 * - `scf.if` with a static condition -> the ops of the taken region (inlined);
 * - `scf.for` with static bounds -> its body once per iteration (unrolled), the induction
 *   variable an index constant, `iter_args` carried from one copy to the next;
 * - `spat.deferred_communication` -> its body inlined on its sources; with
 *   `specialization_count` N > 1, the body once per case (case index constant) and the N
 *   fragments packed into one `[N] + shape(F)` destination with one `pim.memcp` each;
 * - `spat.materialize_layout` -> its input. The tensors of a PIM stream hold logical row-major
 *   values (every slice and copy offset is computed in logical coordinates), so a layout
 *   conversion, which preserves logical values, is the identity there: no copy.
 *
 * The ops the inlining creates go through the rewriter, so the conversion driver converts
 * them in turn (a `spat.deferred_source_select` whose selector became a constant, the slices
 * of the unrolled body, ...). Whether the conditions, bounds and selectors are static was
 * checked before the conversion started (`validate-bodies.ts`).
 */
import { CmpIOp, ConstantOp, IRMapping, IntegerAttr, compareIntegers, createConversionPattern, type Block, type ConversionPattern, type OpBuilder, type Operation, type Value } from '@raptor-pim/ir-core';
import { MemcpOp } from '@raptor-pim/pim-dialect';
import { DeferredCommunicationOp, MaterializeLayoutOp } from '@raptor-pim/spatial-dialect';
import { ForOp, IfOp, evaluateStaticIndex } from '@raptor-pim/upstream-dialects';
import { SpatToPimMessages as M } from '../../diagnostics';
import { NO_BINDINGS, staticTensor, type LoweringContext } from '../lowering-context';

/**
 * The static value of an `i1` condition (constants, `arith.cmpi` of static index or integer
 * expressions), or undefined.
 */
export function evaluateStaticCondition(v: Value, bindings: ReadonlyMap<Value, number>): boolean | undefined {
  const op = v.definingOp;
  if (op?.definition === ConstantOp) {
    const a = op.getAttr('value');
    return a instanceof IntegerAttr ? BigInt(a.value) !== 0n : undefined;
  }
  if (op?.definition === CmpIOp) {
    const a = evaluateStaticIndex(op.getOperand(0), bindings);
    const b = a === undefined ? undefined : evaluateStaticIndex(op.getOperand(1), bindings);
    const p = op.getAttr('predicate') ?? op.getProperty('predicate');
    if (a === undefined || b === undefined || !(p instanceof IntegerAttr)) return undefined;
    return compareIntegers(Number(p.value), BigInt(a), BigInt(b), 64);
  }
  return undefined;
}

/** The static trip values of an `scf.for` (`lb, lb + step, ... < ub`), or undefined. */
export function staticTrips(op: Operation, bindings: ReadonlyMap<Value, number>): number[] | undefined {
  const view = ForOp.get(op);
  const lb = evaluateStaticIndex(view.lowerBound, bindings);
  const ub = evaluateStaticIndex(view.upperBound, bindings);
  const step = evaluateStaticIndex(view.step, bindings);
  if (lb === undefined || ub === undefined || step === undefined || step <= 0) return undefined;
  const trips: number[] = [];
  for (let i = lb; i < ub; i += step) trips.push(i);
  return trips;
}

/**
 * Clones the ops of `block` (but its terminator) at the rewriter's insertion point with
 * `mapping`, and returns the terminator's operands as mapped.
 */
function inlineBlock(rw: OpBuilder, block: Block, mapping: IRMapping): Value[] {
  for (let o = block.firstOp; o; o = o.next) {
    if (o === block.terminator) break;
    rw.clone(o, mapping);
  }
  const term = block.terminator;
  return term ? term.operands.map((v) => mapping.lookupOrDefault(v)) : [];
}

/** The structured-op patterns. */
export function structuredPatterns(ctx: LoweringContext): ConversionPattern[] {
  return [
    createConversionPattern(IfOp, (view, adaptor, rw) => {
      const op = view.op;
      const taken = evaluateStaticCondition(adaptor.condition, NO_BINDINGS);
      if (taken === undefined) return ctx.error(op, M.notStatic(op.name, 'the condition'));
      const region = taken ? view.thenRegion : view.elseRegion;
      const block = region.firstBlock;
      const values = block ? inlineBlock(rw, block, new IRMapping()) : [];
      if (values.length !== op.numResults) return ctx.error(op, M.notStatic(op.name, 'the taken branch'));
      rw.replaceOp(op, values);
      return true;
    }),
    createConversionPattern(ForOp, (view, adaptor, rw) => {
      const op = view.op;
      const trips = staticTrips(op, NO_BINDINGS);
      if (!trips) return ctx.error(op, M.notStatic(op.name, 'a loop bound'));
      const block = view.region.firstBlock!;
      let carried = [...adaptor.initArgs];
      for (const iv of trips) {
        const mapping = new IRMapping();
        mapping.map(block.getArgument(0), ctx.constant(rw, iv));
        block.arguments.slice(1).forEach((a, i) => mapping.map(a, carried[i]!));
        carried = inlineBlock(rw, block, mapping);
      }
      ctx.counters.unrolledIterations += trips.length;
      rw.replaceOp(op, carried);
      return true;
    }),
    createConversionPattern(DeferredCommunicationOp, (view, adaptor, rw) => {
      const op = view.op;
      const block = view.body.firstBlock!;
      const count = view.specialization_count ? Number(view.specialization_count.value) : 1;
      const sources = adaptor.sources;
      if (count <= 1) {
        const mapping = new IRMapping();
        block.arguments.forEach((a, i) => mapping.map(a, sources[i]!));
        rw.replaceOp(op, inlineBlock(rw, block, mapping));
        return true;
      }
      const t = op.getResult(0).type;
      const out = staticTensor(t);
      if (!out) return ctx.error(op, M.dynamicShape(op.name, String(t)));
      const fragBytes = out.bytes / count;
      let dst = ctx.empty(rw, t, op.location);
      for (let c = 0; c < count; c++) {
        const mapping = new IRMapping();
        block.arguments.forEach((a, i) => mapping.map(a, i < sources.length ? sources[i]! : ctx.constant(rw, c)));
        const [frag] = inlineBlock(rw, block, mapping);
        dst = MemcpOp.build(
          rw,
          { dst, src: frag!, dstOffset: ctx.constant(rw, c * fragBytes), srcOffset: ctx.constant(rw, 0), output: t, size: ctx.i32(fragBytes) },
          op.location,
        ).output;
        ctx.counters.copies++;
      }
      rw.replaceOp(op, [dst]);
      return true;
    }),
    createConversionPattern(MaterializeLayoutOp, (view, adaptor, rw) => {
      const op = view.op;
      const t = op.getResult(0).type;
      if (adaptor.input.type === t) {
        rw.replaceOp(op, [adaptor.input]);
        ctx.counters.aliases++;
        return true;
      }
      // A differently spelled type of the same logical value: the same bytes, one copy.
      const out = staticTensor(t);
      if (!out) return ctx.error(op, M.dynamicShape(op.name, String(t)));
      const y = MemcpOp.build(
        rw,
        { dst: ctx.empty(rw, t, op.location), src: adaptor.input, dstOffset: ctx.constant(rw, 0), srcOffset: ctx.constant(rw, 0), output: t, size: ctx.i32(out.bytes) },
        op.location,
      ).output;
      ctx.counters.copies++;
      rw.replaceOp(op, [y]);
      return true;
    }),
  ];
}
