/** The functions a module-level scheduler pass works on. */
import { FuncOp, type Operation } from '@raptor-pim/ir-core';

/**
 * The functions of `root` (itself, or nested in module-like ops), in program order, without
 * walking their bodies.
 */
export function functionsOf(root: Operation): Operation[] {
  const out: Operation[] = [];
  const stack: Operation[] = [root];
  while (stack.length) {
    const op = stack.pop()!;
    if (FuncOp.isInstance(op)) {
      out.push(op);
      continue;
    }
    const nested: Operation[] = [];
    for (const region of op.regions) for (let b = region.firstBlock; b; b = b.next) for (let o = b.firstOp; o; o = o.next) if (o.numRegions > 0) nested.push(o);
    for (let i = nested.length - 1; i >= 0; i--) stack.push(nested[i]!);
  }
  return out;
}
