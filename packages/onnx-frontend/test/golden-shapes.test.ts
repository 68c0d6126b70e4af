/**
 * Golden files: the inferred type and shape of every node output of every shared model
 * (`test/golden/<model>.shapes.txt`). Regenerate with `UPDATE_GOLDEN=1 npx nx test onnx-frontend`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { dataTypeName, formatDiagnostic, loadOnnxFile } from '@raptor-pim/onnx-frontend';
import { MODELS_DIR, sharedModels } from './helpers';

// This machine is shared: allow for load (the whole file normally takes a few seconds).
jest.setTimeout(120_000);

const GOLDEN = path.join(__dirname, 'golden');

function render(model: string): string {
  const { model: m, values, diagnostics } = loadOnnxFile(path.join(MODELS_DIR, model, 'model.onnx'));
  const lines = [`# ${model}: ir_version ${m!.irVersion}, opsets ${[...m!.opsets].map(([d, v]) => `${d || 'ai.onnx'} ${v}`).join(', ')}`];
  for (const d of diagnostics) lines.push(`# ${formatDiagnostic(d).replace(/^.*?: /, '')}`);
  const type = (name: string): string => {
    const v = values!.get(name)!;
    return `${dataTypeName(v.dataType)}[${v.shape.join('x')}]${v.constant ? ' const' : ''}`;
  };
  for (const input of m!.graph.inputs) lines.push(`input ${input.name}: ${type(input.name)}`);
  for (const n of m!.graph.nodes) {
    const outs = n.outputs.filter((o) => o !== '').map((o) => `${o}: ${type(o)}`);
    lines.push(`#${n.index} ${n.opType} '${n.name}' -> ${outs.join(', ')}`);
  }
  for (const out of m!.graph.outputs) lines.push(`output ${out.name}: ${type(out.name)}`);
  return lines.join('\n') + '\n';
}

describe('golden shapes', () => {
  it.each(sharedModels())('%s', (model) => {
    const file = path.join(GOLDEN, `${model}.shapes.txt`);
    const text = render(model);
    if (process.env['UPDATE_GOLDEN'] === '1' || !fs.existsSync(file)) fs.writeFileSync(file, text);
    expect(text).toBe(fs.readFileSync(file, 'utf8'));
  });
});
