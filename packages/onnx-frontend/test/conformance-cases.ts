/**
 * The ONNX backend conformance cases the lowering tests use (Debian libonnx-testdata): every
 * test under node/ and pytorch-converted/ whose operators are all supported and whose outputs
 * are float32, read once, and how each is imported (compile-time inputs bound as constants).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  OnnxDataType,
  type ImportedModule,
  type ImportOnnxOptions,
  type OnnxModel,
  type OnnxTensor,
  SUPPORTED_OPERATORS,
  decodeModelProto,
  importOnnxModel,
  readOnnxFile,
  readOnnxModel,
  readTensorProtoFile,
} from '@raptor-pim/onnx-frontend';
import { ONNX_TESTDATA_DIR } from './helpers';
import { onnxType } from './support/protobufjs-onnx';

const IN_SCOPE = new Set(SUPPORTED_OPERATORS.map((o) => o.opType));

/** Input positions of each operator that must be known at compile time on a PIM machine. */
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

export interface Case {
  readonly key: string;
  readonly dir: string;
  readonly op: string;
  /** The model, read once when the cases are collected. */
  readonly model: OnnxModel;
  /** Set when the model was upgraded from an old opset (see {@link upgradeOldOpset}). */
  readonly upgradedFrom?: number;
}

/** Operators whose ai.onnx schema is unchanged since opset 1: a model using only them means the same at opset 7. */
const UNCHANGED_SINCE_OPSET_1 = new Set(['GlobalAveragePool', 'GlobalMaxPool']);

/** The model at `file` with its ai.onnx opset raised to 7, when it is older and every operator is unchanged since opset 1. */
function upgradeOldOpset(file: string): { model: OnnxModel; from: number } | undefined {
  const bytes = new Uint8Array(fs.readFileSync(file));
  const type = onnxType('ModelProto');
  const msg = decodeModelProto(bytes, file).message;
  if (!msg?.graph || !msg.graph.node.every((n) => n.domain === '' && UNCHANGED_SINCE_OPSET_1.has(n.opType))) return undefined;
  const imports = msg.opsetImport.filter((o) => o.domain === '' || o.domain === 'ai.onnx');
  const from = Number(imports[0]?.version ?? 0);
  if (imports.length !== 1 || from >= 7) return undefined;
  imports[0]!.version = 7;
  const { model } = readOnnxModel(type.encode(type.fromObject(msg as unknown as Record<string, unknown>)).finish(), { file });
  return model ? { model, from } : undefined;
}

export interface Unreadable {
  readonly key: string;
  readonly why: string;
}

function firstError(diagnostics: readonly { severity: string; message: string }[]): string {
  return diagnostics.find((d) => d.severity === 'error')?.message ?? 'unknown';
}

export function collectCases(): { cases: Case[]; unreadable: Unreadable[] } {
  const cases: Case[] = [];
  const unreadable: Unreadable[] = [];
  for (const suite of ['node', 'pytorch-converted']) {
    const root = path.join(ONNX_TESTDATA_DIR, suite);
    if (!fs.existsSync(root)) continue;
    for (const name of fs.readdirSync(root).sort()) {
      const dir = path.join(root, name);
      const file = path.join(dir, 'model.onnx');
      if (!fs.existsSync(file) || !fs.existsSync(path.join(dir, 'test_data_set_0'))) continue;
      const key = `${suite}/${name}`;
      const outputs = tensors(dir, 'output');
      if (outputs.length === 0 || outputs.some((t) => t.dataType !== OnnxDataType.FLOAT)) continue;
      const { model, diagnostics } = readOnnxFile(file);
      if (!model) {
        const upgraded = upgradeOldOpset(file);
        if (upgraded) {
          const main = upgraded.model.graph.nodes[0]!;
          cases.push({ key, dir, op: main.opType, model: upgraded.model, upgradedFrom: upgraded.from });
          continue;
        }
        // Unreadable: in scope when its operators are (decoded without validation).
        const raw = decodeModelProto(new Uint8Array(fs.readFileSync(file)), file).message;
        const ops = raw?.graph?.node ?? [];
        if (ops.length > 0 && ops.every((n) => (n.domain === '' || n.domain === 'ai.onnx') && IN_SCOPE.has(n.opType))) unreadable.push({ key, why: firstError(diagnostics) });
        continue;
      }
      const nodes = model.graph.nodes;
      if (nodes.length === 0 || !nodes.every((n) => n.domain === '' && IN_SCOPE.has(n.opType))) continue;
      const main = nodes.find((n) => n.opType !== 'Constant') ?? nodes[0]!;
      cases.push({ key, dir, op: main.opType, model });
    }
  }
  return { cases, unreadable };
}

export function tensors(dir: string, prefix: string): OnnxTensor[] {
  const out: OnnxTensor[] = [];
  for (let i = 0; ; i++) {
    const file = path.join(dir, 'test_data_set_0', `${prefix}_${i}.pb`);
    if (!fs.existsSync(file)) return out;
    const t = readTensorProtoFile(file).tensor;
    if (!t) return out;
    out.push(t);
  }
}

/** Graph inputs to bind as constants: non-float32 inputs, and inputs at compile-time positions. */
export function compileTimeInputs(model: OnnxModel, given: readonly OnnxTensor[]): Set<string> {
  const names = new Set<string>();
  model.graph.inputs.forEach((inp, i) => {
    if (given[i] && given[i]!.dataType !== OnnxDataType.FLOAT) names.add(inp.name);
  });
  const graphInputs = new Set(model.graph.inputs.map((i) => i.name));
  for (const n of model.graph.nodes) {
    for (const at of COMPILE_TIME_INPUTS[n.opType] ?? []) {
      const name = n.inputs[at] ?? '';
      if (graphInputs.has(name)) names.add(name);
    }
  }
  return names;
}

/** A case imported as the conformance test imports it: compile-time inputs bound as constants, the rest runtime inputs. */
export interface ImportedCase {
  readonly imported: ImportedModule;
  /** The runtime inputs, in graph-input order. */
  readonly runtime: readonly OnnxTensor[];
  /** The graph inputs bound as constants. */
  readonly bound: readonly string[];
}

/** Imports case `c` (see {@link ImportedCase}); `options` are added to the import options. */
export function importCase(c: Case, options: ImportOnnxOptions = {}): ImportedCase {
  const model = c.model;
  const given = tensors(c.dir, 'input');
  const constant = compileTimeInputs(model, given);
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
  return { imported: importOnnxModel(model, { ...options, inputShapes, constantInputs }), runtime, bound: [...constant] };
}

/**
 * Worst |got - ref| / tolerance with onnx-frontend's conformance tolerance (1e-5 max|ref| +
 * 1e-3 |ref| + 1e-7; non-finite references must match exactly, else Infinity); <= 1 passes.
 */
export function conformanceRatio(got: ArrayLike<number>, ref: ArrayLike<number>): number {
  if (got.length !== ref.length) return Infinity;
  let maxRef = 0;
  for (let i = 0; i < ref.length; i++) if (Number.isFinite(ref[i]!)) maxRef = Math.max(maxRef, Math.abs(ref[i]!));
  let worst = 0;
  for (let i = 0; i < ref.length; i++) {
    const [g, x] = [got[i]!, ref[i]!];
    if (!Number.isFinite(x)) {
      if (!(Object.is(g, x) || (Number.isNaN(g) && Number.isNaN(x)))) return Infinity;
      continue;
    }
    worst = Math.max(worst, Math.abs(g - x) / (1e-5 * maxRef + 1e-3 * Math.abs(x) + 1e-7));
  }
  return Number.isNaN(worst) ? Infinity : worst;
}
