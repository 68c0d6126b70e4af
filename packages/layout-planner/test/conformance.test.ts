/**
 * The ONNX backend conformance models (Debian libonnx-testdata, node/ and pytorch-converted/)
 * that `@raptor-pim/onnx-frontend` imports into at least one layout-aware plan: planned with the
 * default solver and with planning disabled, verified by spat-verify-layouts, and interpreted
 * with bit-identical outputs before and after planning. Compile-time operands (conv weights
 * and bias, pads, scales, ...) are bound as constants as `raptor import --const-input` does;
 * models the importer refuses are out of scope here (onnx-frontend's conformance suite reports
 * them).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PassRegistry, parsePassPipeline, type Operation } from '@raptor-pim/ir-core';
import { countLayoutOps, registerLayoutPlannerPasses } from '@raptor-pim/layout-planner';
import { OnnxDataType, hasErrors, importOnnxModel, readOnnxFile, readTensorProtoFile, runImportedModule, tensorToNumbers, type OnnxTensor } from '@raptor-pim/onnx-frontend';

jest.setTimeout(600_000);

const ONNX_TESTDATA_DIR = process.env['ONNX_TESTDATA_DIR'] ?? '/usr/include/onnx/backend/test/data';

/** Input positions that must be compile-time constants on a PIM machine (as the importer's conformance suite binds them). */
const COMPILE_TIME_INPUTS: Readonly<Record<string, readonly number[]>> = {
  Conv: [1, 2],
  Gemm: [1, 2],
  BatchNormalization: [1, 2, 3, 4],
  Clip: [1, 2],
  Resize: [1, 2, 3],
  Upsample: [1],
  Pad: [1, 2, 3],
  Slice: [1, 2, 3, 4],
  Split: [1],
  Reshape: [1],
  Squeeze: [1],
  Unsqueeze: [1],
  Gather: [1],
};

function tensors(dir: string, prefix: string): OnnxTensor[] {
  const out: OnnxTensor[] = [];
  for (let i = 0; ; i++) {
    const file = path.join(dir, 'test_data_set_0', `${prefix}_${i}.pb`);
    if (!fs.existsSync(file)) return out;
    const t = readTensorProtoFile(file).tensor;
    if (!t) return out;
    out.push(t);
  }
}

function caseDirs(): string[] {
  const dirs: string[] = [];
  for (const suite of ['node', 'pytorch-converted']) {
    const root = path.join(ONNX_TESTDATA_DIR, suite);
    if (!fs.existsSync(root)) continue;
    for (const name of fs.readdirSync(root).sort()) {
      const dir = path.join(root, name);
      if (fs.existsSync(path.join(dir, 'model.onnx')) && fs.existsSync(path.join(dir, 'test_data_set_0'))) dirs.push(dir);
    }
  }
  return dirs;
}

function plan(module: Operation, passes: string): Operation {
  const ctx = module.context;
  const registry = new PassRegistry();
  registerLayoutPlannerPasses(registry);
  const copy = module.clone();
  const { result, diagnostics } = ctx.diagnostics.capture(() => parsePassPipeline(ctx, `builtin.module(func.func(${passes},spat-verify-layouts))`, registry)!.run(copy));
  expect(diagnostics.map((d) => d.message)).toEqual([]);
  expect(result.success).toBe(true);
  return copy;
}

it('plans every imported conformance model with plans and keeps its outputs', () => {
  let planned = 0;
  let plans = 0;
  let rowStrips = 0;
  let materializations = 0;
  for (const dir of caseDirs()) {
    const { model } = readOnnxFile(path.join(dir, 'model.onnx'));
    if (!model) continue;
    const given = tensors(dir, 'input');
    const constant = new Set<string>();
    const graphInputs = new Set(model.graph.inputs.map((i) => i.name));
    model.graph.inputs.forEach((inp, i) => {
      if (given[i] && given[i]!.dataType !== OnnxDataType.FLOAT) constant.add(inp.name);
    });
    for (const n of model.graph.nodes) for (const at of COMPILE_TIME_INPUTS[n.opType] ?? []) if (graphInputs.has(n.inputs[at] ?? '')) constant.add(n.inputs[at]!);
    const inputShapes: Record<string, number[]> = {};
    const constantInputs: Record<string, OnnxTensor> = {};
    const runtime: OnnxTensor[] = [];
    model.graph.inputs.forEach((inp, i) => {
      const t = given[i];
      if (!t) return;
      if (constant.has(inp.name)) constantInputs[inp.name] = t;
      else {
        inputShapes[inp.name] = [...t.dims];
        runtime.push(t);
      }
    });
    if (runtime.some((t) => t.dataType !== OnnxDataType.FLOAT)) continue;
    const imported = importOnnxModel(model, { inputShapes, constantInputs });
    if (!imported.module || hasErrors(imported.diagnostics)) continue;
    if (countLayoutOps(imported.module).plans === 0) continue;
    const inputs = runtime.map((t) => ({ shape: t.dims, data: Float32Array.from(tensorToNumbers(t)) }));
    const before = runImportedModule(imported, inputs);
    if (!before.ok) continue; // interpreter failures of the import are onnx-frontend's suite's concern
    for (const passes of ['spat-plan-layouts', 'spat-plan-layouts{disable-spatial-planning}']) {
      const module = plan(imported.module, passes);
      const after = runImportedModule({ ...imported, module }, inputs);
      expect(after.ok).toBe(true);
      if (!after.ok) continue;
      after.outputs.forEach((o, k) => expect([dir, Buffer.from(o.data.buffer).equals(Buffer.from(before.outputs[k]!.data.buffer))]).toEqual([dir, true]));
      if (passes === 'spat-plan-layouts') {
        const c = countLayoutOps(module);
        plans += c.plans;
        rowStrips += c.rowStripPlans;
        materializations += c.materializations;
      }
    }
    planned++;
  }
  console.log(`conformance: ${planned} models with plans; ${plans} plans, ${rowStrips} row strips, ${materializations} materializations`);
  expect(planned).toBeGreaterThan(50);
});
