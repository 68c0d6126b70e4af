import { Location, MLIRContext } from '../../src';
import { IntegerType } from '../../src/ir/builtin-types';
import { Block } from '../../src/ir/block';
import { OpBuilder } from '../../src/ir/builder';
import { Operation } from '../../src/ir/operation';
import type { Value } from '../../src/ir/value';
import type { Type } from '../../src/ir/attribute';

/** A location for tests that do not depend on the syntax layer's location kinds. */
export class TestLoc extends Location {
  constructor(
    context: MLIRContext,
    readonly label: string,
  ) {
    super(context);
  }
}

/** A context allowing unregistered ops, with an i32 type and a location factory. */
export function setup(): { ctx: MLIRContext; i32: Type; loc: (label?: string) => TestLoc } {
  const ctx = new MLIRContext();
  ctx.allowUnregisteredDialects = true;
  return { ctx, i32: IntegerType.get(ctx, 32), loc: (label = 'x') => new TestLoc(ctx, label) };
}

/** Creates `test.<name>` with operands and `numResults` i32 results at the end of `block`. */
export function op(
  ctx: MLIRContext,
  block: Block | null,
  name: string,
  operands: Value[] = [],
  resultTypes: Type[] = [],
  regions = 0,
): Operation {
  const o = Operation.create({
    context: ctx,
    name: name.includes('.') ? name : `test.${name}`,
    location: new TestLoc(ctx, name),
    operands,
    resultTypes,
    regions,
  });
  if (block) block.push(o);
  return o;
}

export { Block, OpBuilder, Operation };

/**
 * True when two arrays hold the same objects in the same order (identity). Use instead of
 * `toEqual` on IR objects: a failing `toEqual` would try to print the whole IR graph.
 */
export function same<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
