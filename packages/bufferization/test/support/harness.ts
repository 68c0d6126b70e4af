/**
 * Test support: parse PIM modules, run pass pipelines of this package, run the PIM multi-core
 * interpreter on seeded random inputs.
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
  StringAttr,
  parsePassPipeline,
  renderDiagnostics,
  type Diagnostic,
  type Operation,
  type Pass,
} from '@raptor-pim/ir-core';
import { registerAllPimInterpreterRules, registerPimDialect } from '@raptor-pim/pim-dialect';
import { dialectTestHelpers } from '../../../../tools/test-support/dialect-test-helpers';
import { registerBufferizationPasses } from '../../src';

export const FIXTURES = path.join(__dirname, '..', 'fixtures');

const dialects = dialectTestHelpers((ctx) => {
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

/** Runs `pipeline` (nested in builtin.module); `passes` replaces registered factories (reports). */
export function runPipeline(
  module: Operation,
  pipeline: string,
  passes: (() => Pass)[] = [],
  capture = true,
): { ok: boolean; diagnostics: readonly Diagnostic[] } {
  const ctx = module.context;
  const registry = new PassRegistry();
  const overridden = new Set(passes.map((p) => p().argument));
  const defaults = new PassRegistry();
  registerBufferizationPasses(defaults);
  for (const p of passes) registry.registerPass(p);
  for (const arg of ['pim-bufferize', 'pim-plan-memory', 'pim-verify-memory']) {
    if (!overridden.has(arg)) registry.registerPass(defaults.lookupPass(arg)!.create);
  }
  const run = (): boolean => {
    const pm = parsePassPipeline(ctx, `builtin.module(${pipeline})`, registry);
    return pm ? pm.run(module).success : false;
  };
  if (!capture) return { ok: run(), diagnostics: [] };
  const { result, diagnostics } = ctx.diagnostics.capture(run);
  return { ok: result === true, diagnostics };
}

function seeded(seed: number): () => number {
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

/** Random f32 buffers for the memref arguments of @main. */
export function randomInputs(module: Operation, seed = 7): ShapedValue[] {
  const rnd = seeded(seed);
  const fn = module.regions[0]!.firstBlock!.operations.find((o) => (o.getAttr('sym_name') as StringAttr | undefined)?.value === 'main')!;
  return fn.regions[0]!.firstBlock!.arguments.map((a) => {
    const v = ShapedValue.allocate('buffer', FloatType.f32(module.context), (a.type as unknown as { shape: number[] }).shape)!;
    const d = v.data as Float32Array;
    for (let i = 0; i < d.length; i++) d[i] = Math.fround(rnd());
    return v;
  });
}

export function runPim(module: Operation, inputs: readonly ShapedValue[]): number[][] {
  const rules = new InterpreterRegistry();
  registerAllPimInterpreterRules(rules);
  const r = new Interpreter(rules).runFunction(
    module,
    'main',
    inputs.map((v) => v.copy('buffer')),
  );
  if (!r.ok) throw new Error(`pim interpreter: ${r.diagnostic.message} at ${r.op?.name}`);
  return r.values.map((v) => Array.from((v as ShapedValue).toContiguousArray() as Float32Array));
}
