/**
 * The ONNX backend conformance cases end to end: every case `raptor import` accepts (collected
 * as onnx-frontend's conformance tests collect them, compile-time inputs bound as constants) is
 * compiled with `raptor-compile` on the default target, its bundle validated and simulated by
 * pim-sim (latency mode), and each output compared with the case's `output_<k>.pb` within
 * onnx-frontend's conformance tolerance. Shared by the bounded jest test
 * (`conformance-compile.test.ts`) and the full count (`tools/bench/compile/conformance.mjs`).
 */
import { OnnxDataType, hasErrors, importOnnxModel, tensorToNumbers, type OnnxTensor } from '@raptor-pim/onnx-frontend';
import { simulateBundle, type NpyArray } from '@raptor-pim/pim-sim';
import { defaultTarget, validateBundle, type Target } from '@raptor-pim/pim-target';
import { compile, type CompileDiagnostic } from '@raptor-pim/compiler';
import { compileTimeInputs, conformanceRatio, tensors, type Case } from '../../../onnx-frontend/test/conformance-cases';

export { collectCases, conformanceRatio, type Case } from '../../../onnx-frontend/test/conformance-cases';

/** How one case ended. */
export type ConformanceOutcome =
  /** `raptor import` refuses it (not counted: the importer's own conformance test covers it). */
  | { readonly kind: 'not-imported'; readonly why: string }
  /** Compiled, simulated, every output within tolerance. `vsoftmax` says the retry with `allow_vsoftmax` was needed. */
  | { readonly kind: 'matched'; readonly vsoftmax: boolean; readonly worst: number }
  /** Refused by a stage with an error diagnostic (`stage` and the first error's message). */
  | { readonly kind: 'refused'; readonly stage: string; readonly message: string; readonly vsoftmax: boolean }
  /** Compiled and simulated, but an output differs from the reference. */
  | { readonly kind: 'wrong'; readonly why: string; readonly vsoftmax: boolean }
  /** An exception, a failure without a diagnostic, an invalid bundle or a simulator error. */
  | { readonly kind: 'crash'; readonly why: string };

/** The default target, with `raptor_config.allow_vsoftmax` set as asked. */
function targetWith(vsoftmax: boolean): Target {
  const target = defaultTarget();
  target.config.raptor_config.allow_vsoftmax = vsoftmax;
  return target;
}

/** The first error of a compile, or a note that there was none. */
function firstError(diagnostics: readonly CompileDiagnostic[]): CompileDiagnostic | undefined {
  return diagnostics.find((d) => d.severity === 'error');
}

/** A refusal that goes away with `allow_vsoftmax` (spat-to-pim names the flag). */
function needsVsoftmax(diagnostics: readonly CompileDiagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error' && d.message.includes('allow_vsoftmax'));
}

/**
 * Runs case `c` end to end. The default target first; a case refused because it needs
 * `vsoftmax` (pimsim-nn has no such instruction, so the default target disallows it) is
 * compiled again with `allow_vsoftmax = true`.
 */
export function runConformanceCase(c: Case): ConformanceOutcome {
  try {
    return runCase(c);
  } catch (e) {
    const err = e as Error;
    return { kind: 'crash', why: `exception: ${err.message}\n${(err.stack ?? '').split('\n').slice(1, 6).join('\n')}` };
  }
}

function runCase(c: Case): ConformanceOutcome {
  const given = tensors(c.dir, 'input');
  const constant = compileTimeInputs(c.model, given);
  const inputShapes: Record<string, number[]> = {};
  const constantInputs: Record<string, OnnxTensor> = {};
  const runtime: { name: string; tensor: OnnxTensor }[] = [];
  c.model.graph.inputs.forEach((inp, i) => {
    const t = given[i];
    if (!t) return;
    if (constant.has(inp.name)) constantInputs[inp.name] = t;
    else {
      inputShapes[inp.name] = [...t.dims];
      runtime.push({ name: inp.name, tensor: t });
    }
  });
  const importOptions = { inputShapes, constantInputs };
  // What `raptor import` does (same options): the denominator is the cases it accepts.
  const imported = importOnnxModel(c.model, importOptions);
  if (!imported.module || hasErrors(imported.diagnostics)) {
    return { kind: 'not-imported', why: imported.diagnostics.find((d) => d.severity === 'error')?.message ?? 'no module' };
  }
  if (runtime.some((r) => r.tensor.dataType !== OnnxDataType.FLOAT)) return { kind: 'not-imported', why: 'a runtime input is not float32' };

  let vsoftmax = false;
  let result = compile(c.model, { target: targetWith(false), import: importOptions });
  if (!result.ok && needsVsoftmax(result.diagnostics)) {
    vsoftmax = true;
    result = compile(c.model, { target: targetWith(true), import: importOptions });
  }
  if (!result.ok) {
    const error = firstError(result.diagnostics);
    if (!error) return { kind: 'crash', why: 'compile failed without an error diagnostic' };
    if (error.message.includes('failed without reporting a diagnostic')) return { kind: 'crash', why: `${error.stage}: ${error.message}` };
    return { kind: 'refused', stage: error.stage, message: error.message, vsoftmax };
  }
  const bundle = result.bundle;
  if (!bundle) return { kind: 'crash', why: 'compile succeeded without a bundle' };
  const validation = validateBundle(bundle);
  if (validation.errorCount > 0) {
    return { kind: 'crash', why: `invalid bundle: ${validation.diagnostics.find((d) => d.severity === 'error')?.message ?? ''}` };
  }

  // The bundle's inputs are the runtime graph inputs (by name, else in order).
  const simInputs: Record<string, NpyArray> = {};
  bundle.inputs.forEach((location, k) => {
    const byName = runtime.find((r) => r.name === location.name) ?? runtime[k];
    if (byName) simInputs[location.name] = { dtype: 'f32', shape: [...location.shape], data: Float32Array.from(tensorToNumbers(byName.tensor)) };
  });
  const sim = simulateBundle(bundle, { mode: 'latency', inputs: simInputs });
  if (!sim.ok) return { kind: 'crash', why: `pim-sim: ${sim.error?.message ?? 'failed'}` };
  const expected = tensors(c.dir, 'output');
  if (sim.outputs.length !== expected.length) return { kind: 'wrong', why: `${sim.outputs.length} outputs, the reference has ${expected.length}`, vsoftmax };
  let worst = 0;
  for (let k = 0; k < expected.length; k++) {
    const ref = tensorToNumbers(expected[k]!);
    const got = sim.outputs[k]!.array.data as ArrayLike<number>;
    const ratio = conformanceRatio(got, ref);
    if (!(ratio <= 1)) {
      let at = 0;
      for (let i = 0; i < ref.length; i++) if (Math.abs(got[i]! - ref[i]!) > Math.abs(got[at]! - ref[at]!) || Number.isNaN(got[i]!)) at = i;
      return {
        kind: 'wrong',
        why: `output ${k} (${sim.outputs[k]!.name}, ${got.length} values): worst diff/tolerance ${ratio.toPrecision(3)}; at [${at}] got ${got[at]}, want ${ref[at]}`,
        vsoftmax,
      };
    }
    worst = Math.max(worst, ratio);
  }
  return { kind: 'matched', vsoftmax, worst };
}

/**
 * A refusal's message with its case-specific details (numbers, shapes, quoted names, SSA
 * values, locations) replaced, so refusals for the same missing piece group together.
 */
export function refusalGroup(stage: string, message: string): string {
  const line = message.split('\n')[0]!;
  const generic = line
    .replace(/tensor<[^>]*>|memref<[^>]*>/g, 'T')
    .replace(/%[\w.#-]+/g, '%v')
    .replace(/\[[\d, x?-]*\]/g, '[..]')
    .replace(/-?\d+(\.\d+)?(e[+-]?\d+)?/g, 'N')
    .replace(/\s+/g, ' ')
    .trim();
  return `${stage}: ${generic.length > 180 ? `${generic.slice(0, 177)}...` : generic}`;
}
