/** Interpreter test helpers: run a function of a verified module on f32 tensors. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FloatType, Interpreter, InterpreterRegistry, MLIRContext, ShapedValue, parseSourceString, splitInputFile, type RunResult, type RuntimeValue } from '@raptor-pim/ir-core';
import { registerAllSpatialInterpreterRules } from '../../src';
import { makeContext, parseVerified } from '../ir/helpers';

const f32Context = new MLIRContext();

/** An f32 tensor value of `shape` holding `values` (row-major). */
export function f32(shape: readonly number[], values: readonly number[]): ShapedValue {
  const t = ShapedValue.allocate('tensor', FloatType.f32(f32Context), shape)!;
  (t.data as Float32Array).set(values);
  return t;
}

/** `0, 1, ..., n-1`. */
export function iota(n: number, scale = 1, offset = 0): number[] {
  return Array.from({ length: n }, (_, i) => i * scale + offset);
}

/** The elements of a tensor result as plain numbers. */
export function valuesOf(v: RuntimeValue | undefined): number[] {
  return Array.from((v as ShapedValue).toContiguousArray() as Float32Array);
}

/** The shape of a tensor result. */
export function shapeOfValue(v: RuntimeValue | undefined): number[] {
  return [...(v as ShapedValue).shape];
}

/** A registry with every rule a Spatial program needs. */
export function rules(): InterpreterRegistry {
  const r = new InterpreterRegistry();
  registerAllSpatialInterpreterRules(r);
  return r;
}

/** Parses + verifies `text` and runs `@name` with `args`. */
export function runVerified(text: string, name: string, args: readonly RuntimeValue[]): RunResult {
  return new Interpreter(rules()).runFunction(parseVerified(text), name, args);
}

/** Parses `text` without verifying (contract-violation tests) and runs `@name`. */
export function runUnverified(text: string, name: string, args: readonly RuntimeValue[]): RunResult {
  const ctx = makeContext();
  ctx.allowUnregisteredDialects = true;
  const m = parseSourceString(ctx, text);
  if (!m) throw new Error('parse failed');
  return new Interpreter(rules()).runFunction(m, name, args);
}

/** The values of a successful run (fails the test with the diagnostic otherwise). */
export function ok(r: RunResult): readonly RuntimeValue[] {
  if (!r.ok) throw new Error(r.diagnostic.message);
  return r.values;
}

/** The reference example cases (test/fixtures/reference/examples.mlir), by section name. */
export function referenceCases(): Map<string, string> {
  const text = fs.readFileSync(path.resolve(__dirname, '../fixtures/reference/examples.mlir'), 'utf8');
  const out = new Map<string, string>();
  for (const c of splitInputFile(text)) out.set(/^\/\/ example: ([\w.-]+)$/m.exec(c.text)![1]!, c.text);
  return out;
}
