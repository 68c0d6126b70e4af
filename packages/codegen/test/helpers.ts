/**
 * Test helpers: parse bufferized pim fixtures, run them in the pim multi-core interpreter and
 * run emitted bundles in pim-sim, with the same f32 inputs.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  FloatType,
  Interpreter,
  InterpreterRegistry,
  MemRefType,
  MLIRContext,
  ShapedValue,
  parseSourceString,
  verify,
  type Operation,
  type RuntimeValue,
} from '@raptor-pim/ir-core';
import { registerAllPimInterpreterRules, registerPimDialect } from '@raptor-pim/pim-dialect';
import { simulateBundle } from '@raptor-pim/pim-sim';
import type { ProgramBundle, Target } from '@raptor-pim/pim-target';
import { findEntryFunction } from '../src';

/** The fixture directory. */
export const FIXTURES = path.resolve(__dirname, 'fixtures');

/** A context with the pim dialect (and every upstream dialect it registers). */
export function makeContext(): MLIRContext {
  const ctx = new MLIRContext();
  registerPimDialect(ctx);
  return ctx;
}

/** Parses and verifies `text`; fails the test with the diagnostics otherwise. */
export function parseModule(text: string, ctx = makeContext()): Operation {
  const { result, diagnostics } = ctx.diagnostics.capture(() => {
    const m = parseSourceString(ctx, text);
    return m && verify(m) ? m : undefined;
  });
  expect(diagnostics.map((d) => d.message)).toEqual([]);
  return result!;
}

/** Reads a fixture program. */
export function fixture(name: string): string {
  return fs.readFileSync(path.join(FIXTURES, name), 'utf8');
}

/** A deterministic pseudo-random f32 array (values in [-1, 1)). */
export function randomValues(n: number, seed: number): Float32Array {
  const out = new Float32Array(n);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < 8; i++) s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = s / 2 ** 31 - 1;
  }
  return out;
}

/** The memref arguments of the entry function. */
function argumentTypes(module: Operation): MemRefType[] {
  const func = findEntryFunction(module)!;
  return func.regions[0]!.firstBlock!.arguments.map((a) => a.type as MemRefType);
}

/**
 * Runs the entry function in the pim interpreter with `inputs` for the arguments listed
 * (by index; the others start at zero) and returns every argument's final contents.
 */
export function interpret(module: Operation, inputs: ReadonlyMap<number, Float32Array>): Float32Array[] {
  return interpretAll(module, inputs).args;
}

/** Like {@link interpret}, also returning the function's results. */
export function interpretAll(module: Operation, inputs: ReadonlyMap<number, Float32Array>): { args: Float32Array[]; results: Float32Array[] } {
  const types = argumentTypes(module);
  const args = types.map((t, i) => {
    const v = ShapedValue.allocate('buffer', FloatType.f32(module.context), t.shape)!;
    const given = inputs.get(i);
    if (given) (v.data as Float32Array).set(given);
    return v;
  });
  const rules = new InterpreterRegistry();
  registerAllPimInterpreterRules(rules);
  const func = findEntryFunction(module)!;
  const name = (func.getAttr('sym_name') as unknown as { value: string }).value;
  const r = new Interpreter(rules).runFunction(module, name, args as RuntimeValue[]);
  if (!r.ok) throw new Error(`interpreter: ${r.diagnostic.message}`);
  const contents = (v: RuntimeValue): Float32Array => Float32Array.from((v as ShapedValue).toContiguousArray() as Float32Array);
  return { args: args.map(contents), results: r.values.map(contents) };
}

/** Runs `bundle` in pim-sim with inputs by tensor name; returns the outputs by name and the latency. */
export function simulate(
  bundle: ProgramBundle,
  inputs: Readonly<Record<string, Float32Array>>,
  target?: Target,
): { outputs: Map<string, Float32Array>; latencyNs: number; energyPj: number; pimsimCompatible: boolean } {
  const npy = Object.fromEntries(
    Object.entries(inputs).map(([name, data]) => {
      const t = bundle.inputs.find((x) => x.name === name)!;
      return [name, { dtype: 'f32' as const, shape: t.shape, data }];
    }),
  );
  const r = simulateBundle(bundle, { inputs: npy, mode: 'latency', ...(target ? { target } : {}) });
  if (!r.ok) throw new Error(`pim-sim: ${r.error?.message}`);
  const outputs = new Map(r.outputs.map((o) => [o.name, Float32Array.from(o.array.data as Float32Array)]));
  return { outputs, latencyNs: r.timing!.latencyNs, energyPj: r.timing!.energyPj, pimsimCompatible: r.compatibility.pimsimCompatible };
}

/**
 * Expects `got` (pim-sim) to equal `expected` (interpreter) element by element within
 * rtol 1e-4 and atol 1e-6 · max(1, max|expected|): pim-sim's f32 `mvmul` kernel accumulates in
 * f32 SIMD lanes while the interpreter accumulates `pim.vmm` in double and rounds once, so
 * matrix results may differ by a few ulps; every other instruction matches bit for bit.
 */
export function expectClose(got: Float32Array, expected: Float32Array): void {
  expect(got.length).toBe(expected.length);
  let scale = 1;
  for (const v of expected) scale = Math.max(scale, Math.abs(v));
  const bad: string[] = [];
  got.forEach((g, i) => {
    const e = expected[i]!;
    if (!(Math.abs(g - e) <= 1e-6 * scale + 1e-4 * Math.abs(e))) bad.push(`[${i}] ${g} vs ${e}`);
  });
  expect(bad.slice(0, 8)).toEqual([]);
}
