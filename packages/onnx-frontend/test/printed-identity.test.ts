/**
 * The printed module (`ImportedModule.text`, with locations) of every shared model and every
 * ONNX conformance model the importer accepts must stay byte-identical: a SHA-256 per model in
 * `test/golden/printed-sha256.json` (refused models are recorded with their first error, so the
 * accepted set cannot change silently), plus the full text of a few small models in
 * `test/golden/printed/`. Regenerate with `UPDATE_GOLDEN=1` (only when a change of the printed
 * IR is intended). The shared models are imported at the default crossbar size and the models
 * with matrix products also at a small one, so the Gemm/MatMul tiling is covered.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type ImportedModule, type ImportOnnxOptions, formatDiagnostic, hasErrors, importOnnxModel, readOnnxFile } from '@raptor-pim/onnx-frontend';
import { collectCases, importCase } from './conformance-cases';
import { MODELS_DIR, ONNX_TESTDATA_DIR, sharedModels } from './helpers';

jest.setTimeout(300_000);

const GOLDEN_DIR = path.join(__dirname, 'golden');
const SHA_FILE = path.join(GOLDEN_DIR, 'printed-sha256.json');
const FULL_DIR = path.join(GOLDEN_DIR, 'printed');
const UPDATE = process.env['UPDATE_GOLDEN'] === '1';

/** Models whose whole printed text is kept as a golden file (small ones). */
const FULL_TEXT = new Set(['shared/mnist-8', 'shared/mnist-8@crossbar16', 'conformance/node/test_gemm_all_attributes', 'conformance/node/test_matmul_4d']);

/** Shared models also imported with 16 x 16 crossbars (they have Gemm/MatMul weights to tile). */
const SMALL_CROSSBAR_MODELS = new Set(['lenet5', 'mlp', 'mlp_batch4', 'mnist-8', 'resnet_mini']);

/**
 * The printed text with the shared models' folder (a path of the machine the test runs on, in
 * the file location) spelled `<shared-models>`, so the goldens hold no machine path.
 */
function portableText(imported: ImportedModule): string {
  return imported.text.split(MODELS_DIR).join('<shared-models>');
}

/** The golden record of one import: SHA-256 and byte length of the printed text, or the first error. */
function record(imported: ImportedModule): string {
  if (!imported.module || hasErrors(imported.diagnostics)) {
    const first = imported.diagnostics.find((d) => d.severity === 'error');
    return `refused: ${first ? formatDiagnostic(first) : 'no module'}`;
  }
  const text = portableText(imported);
  return `sha256:${createHash('sha256').update(text).digest('hex')} bytes:${Buffer.byteLength(text)}`;
}

function collect(): { records: Record<string, string>; texts: Map<string, string> } {
  const records: Record<string, string> = {};
  const texts = new Map<string, string>();
  const keep = (key: string, imported: ImportedModule): void => {
    records[key] = record(imported);
    if (FULL_TEXT.has(key) && imported.module) texts.set(key, portableText(imported));
  };
  for (const name of sharedModels()) {
    const { model, diagnostics } = readOnnxFile(path.join(MODELS_DIR, name, 'model.onnx'));
    if (!model) {
      records[`shared/${name}`] = `unreadable: ${diagnostics.map(formatDiagnostic).join('; ')}`;
      continue;
    }
    const variants: [string, ImportOnnxOptions][] = [['', {}]];
    if (SMALL_CROSSBAR_MODELS.has(name)) variants.push(['@crossbar16', { crossbarSize: 16 }]);
    for (const [suffix, options] of variants) keep(`shared/${name}${suffix}`, importOnnxModel(model, options));
  }
  for (const c of collectCases().cases) keep(`conformance/${c.key}`, importCase(c).imported);
  return { records, texts };
}

const fileOf = (key: string): string => path.join(FULL_DIR, `${key.replace(/[/@]/g, '__')}.mlir`);

describe('printed modules are byte-identical to the recorded ones', () => {
  const haveData = fs.existsSync(MODELS_DIR) && fs.existsSync(path.join(ONNX_TESTDATA_DIR, 'node'));

  (haveData ? it : it.skip)('every shared model and every conformance model', () => {
    const { records, texts } = collect();
    if (UPDATE) {
      fs.mkdirSync(FULL_DIR, { recursive: true });
      fs.writeFileSync(SHA_FILE, `${JSON.stringify(records, null, 1)}\n`);
      for (const [key, text] of texts) fs.writeFileSync(fileOf(key), text);
    }
    const golden = JSON.parse(fs.readFileSync(SHA_FILE, 'utf8')) as Record<string, string>;
    for (const [key, text] of texts) expect({ key, text }).toEqual({ key, text: fs.readFileSync(fileOf(key), 'utf8') });
    const changed = Object.keys({ ...golden, ...records })
      .sort()
      .filter((k) => golden[k] !== records[k])
      .map((k) => `${k}: recorded ${golden[k] ?? '(absent)'}, now ${records[k] ?? '(absent)'}`);
    expect(changed).toEqual([]);
    expect(Object.values(records).filter((r) => r.startsWith('sha256:')).length).toBeGreaterThan(100);
    expect(texts.size).toBe(FULL_TEXT.size);
  });
});
