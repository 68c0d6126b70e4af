/** Interpreter rule of `affine.apply`. */
import { AffineMapAttr, type InterpreterRule } from '@raptor-pim/ir-core';
import { AffineMessages as M } from '../affine/diagnostics';

const applyRule: InterpreterRule = (ctx, op, operands) => {
  const map = (op.getAttr('map') as AffineMapAttr).value;
  const values = operands.map((v) => Number(v));
  const r = map.evaluate(values.slice(0, map.numDims), values.slice(map.numDims));
  if (!r) return ctx.fail(op, M.runtimeUndefined);
  return [r[0]!];
};

/** The affine rules, by op name. */
export const AFFINE_INTERPRETER_RULES: Readonly<Record<string, InterpreterRule>> = { 'affine.apply': applyRule };
