/**
 * Test support: parse scheduled Spatial programs, run them in the Spatial interpreter and, after
 * a pipeline, in the PIM multi-core interpreter on the same (seeded random) inputs.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  FloatType,
  Interpreter,
  InterpreterRegistry,
  MLIRContext,
  PassRegistry,
  ShapedValue,
  parsePassPipeline,
  printOperation,
  renderDiagnostics,
  RankedTensorType,
  StringAttr,
  type Diagnostic,
  type Operation,
} from '@raptor-pim/ir-core';
import { registerAllPimInterpreterRules, registerPimDialect } from '@raptor-pim/pim-dialect';
import { dialectTestHelpers } from '../../../../tools/test-support/dialect-test-helpers';
import { registerAllSpatialInterpreterRules, registerSpatialDialect } from '@raptor-pim/spatial-dialect';
import { TargetKey, registerSpatialToPimPasses } from '../../src';
import type { Target } from '@raptor-pim/pim-target';

export const FIXTURES = path.join(__dirname, '..', 'fixtures');

const dialects = dialectTestHelpers((ctx) => {
  registerSpatialDialect(ctx);
  registerPimDialect(ctx);
});

/** A context with the dialects the fixtures use. */
export const makeContext: () => MLIRContext = dialects.makeContext;

/** Parses and verifies `text`; the module, or the diagnostics. */
export function parse(text: string, ctx = makeContext()): { module?: Operation; diagnostics: readonly Diagnostic[] } {
  return dialects.tryParse(text, ctx);
}

/** Parses and verifies `text`; throws the rendered diagnostics otherwise. */
export function parseOk(text: string, ctx = makeContext()): Operation {
  const { module, diagnostics } = parse(text, ctx);
  if (!module) throw new Error(renderDiagnostics(diagnostics));
  return module;
}

export function readFixture(name: string): string {
  return fs.readFileSync(path.join(FIXTURES, name), 'utf8');
}

/** Runs `pipeline` (a textual pipeline nested in builtin.module) on `module`. */
export function runPipeline(
  module: Operation,
  pipeline: string,
  register: (r: PassRegistry) => void = registerSpatialToPimPasses,
  capture = true,
  target?: Target,
): { ok: boolean; diagnostics: readonly Diagnostic[]; statistics: string } {
  const ctx = module.context;
  const registry = new PassRegistry();
  register(registry);
  let stats = '';
  const run = (): boolean => {
    const pm = parsePassPipeline(ctx, `builtin.module(${pipeline})`, registry);
    if (!pm) return false;
    if (target) pm.setContext(TargetKey, target);
    const r = pm.run(module);
    stats = pm.statisticsReport();
    return r.success;
  };
  if (!capture) return { ok: run(), diagnostics: [], statistics: stats };
  const { result, diagnostics } = ctx.diagnostics.capture(run);
  return { ok: result === true, diagnostics, statistics: stats };
}

/** Deterministic pseudo-random numbers in [-2, 2). */
export function seeded(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return (s / 2 ** 32) * 4 - 2;
  };
}

/** Random f32 inputs for the arguments of @main (tensor or memref typed). */
export function randomInputs(module: Operation, kind: 'tensor' | 'buffer', seed = 7): ShapedValue[] {
  const rnd = seeded(seed);
  const fn = module.regions[0]!.firstBlock!.operations.find((o) => (o.getAttr('sym_name') as StringAttr | undefined)?.value === 'main')!;
  return fn.regions[0]!.firstBlock!.arguments.map((a) => {
    const t = a.type as unknown as { shape: number[] };
    const v = ShapedValue.allocate(kind, FloatType.f32(module.context), t.shape)!;
    const d = v.data as Float32Array;
    for (let i = 0; i < d.length; i++) d[i] = Math.fround(rnd());
    return v;
  });
}

/** Copies tensors to buffers of the same shape and contents. */
export function asBuffers(values: readonly ShapedValue[]): ShapedValue[] {
  return values.map((v) => v.copy('buffer'));
}

export function runSpatial(module: Operation, inputs: readonly ShapedValue[]): number[][] {
  const rules = new InterpreterRegistry();
  registerAllSpatialInterpreterRules(rules);
  const r = new Interpreter(rules).runFunction(module, 'main', inputs);
  if (!r.ok) throw new Error(`spatial interpreter: ${r.diagnostic.message}`);
  return r.values.map((v) => Array.from((v as ShapedValue).toContiguousArray() as Float32Array));
}

export function runPim(module: Operation, inputs: readonly ShapedValue[]): number[][] {
  const rules = new InterpreterRegistry();
  registerAllPimInterpreterRules(rules);
  const r = new Interpreter(rules).runFunction(module, 'main', inputs);
  if (!r.ok) throw new Error(`pim interpreter: ${r.diagnostic.message} at ${r.op?.name}`);
  return r.values.map((v) => Array.from((v as ShapedValue).toContiguousArray() as Float32Array));
}

export function print(module: Operation): string {
  return printOperation(module);
}

export { RankedTensorType };
