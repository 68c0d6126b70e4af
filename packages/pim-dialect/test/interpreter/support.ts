/** Interpreter test helpers: run a function of a verified module on f32 tensors and memrefs. */
import {
  FloatType,
  Interpreter,
  InterpreterRegistry,
  MLIRContext,
  ShapedValue,
  type RunResult,
  type RuntimeValue,
} from '@raptor-pim/ir-core';
import { registerAllPimInterpreterRules } from '../../src';
import { parseVerified } from '../helpers';

const f32Context = new MLIRContext();

/** An f32 tensor (`kind` tensor) or memref (`kind` buffer) value of `shape` holding `values`. */
export function f32(shape: readonly number[], values: readonly number[], kind: 'tensor' | 'buffer' = 'tensor'): ShapedValue {
  const t = ShapedValue.allocate(kind, FloatType.f32(f32Context), shape)!;
  (t.data as Float32Array).set(values);
  return t;
}

/** The elements of a shaped value as plain numbers. */
export function valuesOf(v: RuntimeValue | undefined): number[] {
  return Array.from((v as ShapedValue).toContiguousArray() as Float32Array);
}

/** A registry with every rule a PIM program needs. */
export function rules(): InterpreterRegistry {
  const r = new InterpreterRegistry();
  registerAllPimInterpreterRules(r);
  return r;
}

/** Parses + verifies `text` and runs `@name` with `args`. */
export function run(text: string, name: string, args: readonly RuntimeValue[]): RunResult {
  return new Interpreter(rules()).runFunction(parseVerified(text), name, args);
}

/** The values of a successful run (fails the test with the diagnostic otherwise). */
export function ok(r: RunResult): readonly RuntimeValue[] {
  if (!r.ok) throw new Error(r.diagnostic.message);
  return r.values;
}

/** The diagnostic of a failed run. */
export function failure(r: RunResult): string {
  if (r.ok) throw new Error('expected the run to fail');
  return r.diagnostic.message;
}
