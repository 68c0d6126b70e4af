/**
 * ONNX backend conformance data (Debian libonnx-testdata) through the Spatial lowering: every
 * test under node/ and pytorch-converted/ whose operators are all lowered is imported and
 * interpreted on input_*.pb, and compared with output_*.pb (rtol 1e-3, atol 1e-5 * max|ref|).
 * Prints a table operator -> passed / failed / unsupported (refused with a diagnostic).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LOWERED_OPERATORS, OnnxDataType, type OnnxTensor, formatDiagnostic, hasErrors, importOnnxModel, readOnnxFile, readTensorProtoFile, runImportedModule, tensorToNumbers } from '@raptor-pim/onnx-frontend';
import { ONNX_TESTDATA_DIR } from './helpers';

jest.setTimeout(120_000);

/** Tests whose result is a known failure of the lowering or the interpreter kernels: none today. */
const KNOWN_FAILURES: Readonly<Record<string, string>> = {};

interface Case {
  readonly key: string;
  readonly dir: string;
  readonly op: string;
}

const LOWERED = new Set([...LOWERED_OPERATORS]);

function collectCases(): Case[] {
  const cases: Case[] = [];
  for (const suite of ['node', 'pytorch-converted']) {
    const root = path.join(ONNX_TESTDATA_DIR, suite);
    if (!fs.existsSync(root)) continue;
    for (const name of fs.readdirSync(root).sort()) {
      const dir = path.join(root, name);
      const file = path.join(dir, 'model.onnx');
      if (!fs.existsSync(file) || !fs.existsSync(path.join(dir, 'test_data_set_0'))) continue;
      const { model } = readOnnxFile(file);
      if (!model) continue;
      const nodes = model.graph.nodes;
      if (nodes.length === 0 || !nodes.every((n) => n.domain === '' && LOWERED.has(n.opType))) continue;
      const main = nodes.find((n) => n.opType !== 'Constant') ?? nodes[0]!;
      cases.push({ key: `${suite}/${name}`, dir, op: main.opType });
    }
  }
  return cases;
}

function tensors(dir: string, prefix: string): OnnxTensor[] {
  const out: OnnxTensor[] = [];
  for (let i = 0; ; i++) {
    const file = path.join(dir, 'test_data_set_0', `${prefix}_${i}.pb`);
    if (!fs.existsSync(file)) return out;
    out.push(readTensorProtoFile(file).tensor!);
  }
}

type Outcome = { kind: 'passed' } | { kind: 'failed' | 'unsupported'; why: string };

function runCase(c: Case): Outcome {
  const { model } = readOnnxFile(path.join(c.dir, 'model.onnx'));
  const given = tensors(c.dir, 'input');
  const graphInputs = model!.graph.inputs;
  if (given.some((t) => t.dataType !== OnnxDataType.FLOAT)) return { kind: 'unsupported', why: 'non-float32 input' };
  const inputShapes = Object.fromEntries(graphInputs.map((inp, i) => [inp.name, [...(given[i]?.dims ?? [])]]));
  const imported = importOnnxModel(model!, { inputShapes });
  if (!imported.module || hasErrors(imported.diagnostics)) {
    const why = imported.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic).join('; ');
    return { kind: why.includes('internal error') ? 'failed' : 'unsupported', why };
  }
  const r = runImportedModule(imported, given.map((t) => ({ shape: t.dims, data: Float32Array.from(tensorToNumbers(t)) })));
  if (!r.ok) return { kind: 'failed', why: r.diagnostics.map(formatDiagnostic).join('; ') };
  const expected = tensors(c.dir, 'output');
  for (let k = 0; k < expected.length; k++) {
    const e = expected[k]!;
    const o = r.outputs[k];
    if (!o || o.shape.join('x') !== e.dims.join('x')) return { kind: 'failed', why: `output ${k}: shape [${o?.shape.join('x')}], expected [${e.dims.join('x')}]` };
    const ref = tensorToNumbers(e);
    const maxRef = ref.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    for (let i = 0; i < ref.length; i++) {
      const d = Math.abs(o.data[i]! - ref[i]!);
      if (!(d <= 1e-5 * maxRef + 1e-3 * Math.abs(ref[i]!) + 1e-7)) return { kind: 'failed', why: `output ${k}[${i}] = ${o.data[i]}, expected ${ref[i]}` };
    }
  }
  return { kind: 'passed' };
}

describe('ONNX backend conformance through the Spatial lowering and the interpreter', () => {
  const haveData = fs.existsSync(path.join(ONNX_TESTDATA_DIR, 'node'));

  (haveData ? it : it.skip)('every lowered-operator test passes or is refused with a diagnostic', () => {
    const cases = collectCases();
    const table = new Map<string, { passed: number; failed: string[]; unsupported: string[] }>();
    const unexpected: string[] = [];
    const reasons: string[] = [];
    for (const c of cases) {
      const row = table.get(c.op) ?? { passed: 0, failed: [], unsupported: [] };
      table.set(c.op, row);
      const r = runCase(c);
      if (r.kind === 'passed') row.passed++;
      else {
        (r.kind === 'failed' ? row.failed : row.unsupported).push(c.key.replace(/^.*\/test_/, ''));
        reasons.push(`${c.key}: ${r.kind}: ${r.why}`);
      }
      const known = KNOWN_FAILURES[c.key];
      if (r.kind === 'failed' && !(known && r.why.includes(known))) unexpected.push(`${c.key}: ${r.why}`);
    }
    const lines = [...table.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([op, r]) => `${op.padEnd(20)} ${String(r.passed).padStart(6)} ${String(r.failed.length).padStart(6)} ${String(r.unsupported.length).padStart(11)}${r.unsupported.length ? `  unsupported: ${r.unsupported.join(', ')}` : ''}`);
    console.log(`ONNX conformance via importOnnxModel + interpreter (${cases.length} tests)\n${'operator'.padEnd(20)} passed failed unsupported\n${lines.join('\n')}`);
    if (process.env['CONFORMANCE_VERBOSE']) console.log(reasons.join('\n'));
    expect(cases.length).toBeGreaterThan(50);
    expect(unexpected).toEqual([]);
    expect([...table.values()].reduce((n, r) => n + r.passed, 0)).toBeGreaterThan(40);
  });
});
