/**
 * Static evaluation of `index` expressions (constants, integer arithmetic, `affine.apply`,
 * casts) under bindings of block arguments such as a lane: what a PIM stream needs of every
 * offset, peer and event operand. Shared by spatial-to-pim and bufferization (one evaluator,
 * not a copy per stage).
 */
import {
  AddIOp,
  AffineMapAttr,
  ConstantOp,
  DivSIOp,
  DivUIOp,
  FloorDivSIOp,
  IndexCastOp,
  IntegerAttr,
  MulIOp,
  RemSIOp,
  RemUIOp,
  SubIOp,
  type Value,
} from '@raptor-pim/ir-core';
import { ApplyOp } from './ops';

const BINARY = new Map<unknown, (a: number, b: number) => number | undefined>([
  [AddIOp, (a, b) => a + b],
  [SubIOp, (a, b) => a - b],
  [MulIOp, (a, b) => a * b],
  [DivSIOp, (a, b) => (b === 0 ? undefined : Math.trunc(a / b))],
  [DivUIOp, (a, b) => (b === 0 ? undefined : Math.trunc(a / b))],
  [FloorDivSIOp, (a, b) => (b === 0 ? undefined : Math.floor(a / b))],
  [RemSIOp, (a, b) => (b === 0 ? undefined : a % b)],
  [RemUIOp, (a, b) => (b === 0 ? undefined : a % b)],
]);

/**
 * The integer value of `v` under `bindings`, or undefined when it is not static.
 *
 * ```ts
 * const lane = body.getArgument(0);
 * evaluateStaticIndex(offset, new Map([[lane, 3]])); // the offset of lane 3
 * ```
 */
export function evaluateStaticIndex(v: Value, bindings: ReadonlyMap<Value, number>, depth = 0): number | undefined {
  const bound = bindings.get(v);
  if (bound !== undefined) return bound;
  const op = v.definingOp;
  if (!op || depth > 64) return undefined;
  const def = op.definition;
  if (def === ConstantOp) {
    const a = op.getAttr('value');
    return a instanceof IntegerAttr ? Number(a.value) : undefined;
  }
  if (def === IndexCastOp) return evaluateStaticIndex(op.getOperand(0), bindings, depth + 1);
  const f = BINARY.get(def);
  if (f) {
    const a = evaluateStaticIndex(op.getOperand(0), bindings, depth + 1);
    const b = a === undefined ? undefined : evaluateStaticIndex(op.getOperand(1), bindings, depth + 1);
    return a === undefined || b === undefined ? undefined : f(a, b);
  }
  if (def === ApplyOp) {
    const map = op.getAttr('map');
    if (!(map instanceof AffineMapAttr)) return undefined;
    const args: number[] = [];
    for (const o of op.operands) {
      const x = evaluateStaticIndex(o, bindings, depth + 1);
      if (x === undefined) return undefined;
      args.push(x);
    }
    const m = map.value;
    const r = m.evaluate(args.slice(0, m.numDims), args.slice(m.numDims));
    return r && r.length === 1 ? r[0] : undefined;
  }
  return undefined;
}
