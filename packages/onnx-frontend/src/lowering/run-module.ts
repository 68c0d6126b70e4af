/**
 * Runs an imported module with ir-core's interpreter and the builtin/arith/tensor/affine/scf/
 * spat rules, on f32 inputs given as plain arrays.
 */
import { FloatType, Interpreter, InterpreterRegistry, ShapedValue, type RuntimeValue } from '@raptor-pim/ir-core';
import { registerAllSpatialInterpreterRules } from '@raptor-pim/spatial-dialect';
import { LoweringMessages as LM, type OnnxDiagnostic } from '../diagnostics';
import type { ImportedModule } from './lower-model';

/** An f32 tensor given to or returned by {@link runImportedModule}. */
export interface F32Array {
  readonly shape: readonly number[];
  readonly data: Float32Array;
}

/** Outputs of a run in graph-output order, or the diagnostic that stopped it. */
export type RunImportedResult =
  | { readonly ok: true; readonly outputs: readonly F32Array[] }
  | { readonly ok: false; readonly diagnostics: readonly OnnxDiagnostic[] };

/**
 * Interprets `imported.module` on `inputs` (graph-input order). Never throws on bad input.
 *
 * @example
 * const r = runImportedModule(importOnnxModel(model), [{ shape: [1, 784], data }]);
 * if (r.ok) console.log(r.outputs[0].data);
 */
export function runImportedModule(imported: ImportedModule, inputs: readonly F32Array[]): RunImportedResult {
  const file = '<run>';
  const fail = (message: string): RunImportedResult => ({ ok: false, diagnostics: [{ severity: 'error', location: { file }, message }] });
  if (!imported.module) return { ok: false, diagnostics: imported.diagnostics };
  if (inputs.length !== imported.inputs.length) return fail(LM.runInputCount(inputs.length, imported.inputs.length));
  const f32 = FloatType.f32(imported.context);
  const args: RuntimeValue[] = [];
  for (let i = 0; i < inputs.length; i++) {
    const expected = imported.inputs[i]!;
    const given = inputs[i]!;
    if (given.shape.join() !== expected.shape.join()) return fail(LM.runInputShape(i, expected.name, given.shape, expected.shape));
    const v = ShapedValue.allocate('tensor', f32, expected.shape);
    if (!v) return fail(LM.runInputShape(i, expected.name, given.shape, expected.shape));
    (v.data as Float32Array).set(given.data);
    args.push(v);
  }
  const registry = new InterpreterRegistry();
  registerAllSpatialInterpreterRules(registry);
  const r = new Interpreter(registry).runFunction(imported.module, imported.functionName, args);
  if (!r.ok) return fail(LM.runFailed(r.diagnostic.message));
  const outputs = r.values.map((v) => {
    const s = v as ShapedValue;
    return { shape: [...s.shape], data: Float32Array.from(s.toContiguousArray() as ArrayLike<number>) };
  });
  return { ok: true, outputs };
}
