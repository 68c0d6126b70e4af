/**
 * `raptor import MODEL.onnx`: lowers an ONNX model to a module of Spatial plans and prints it
 * (or writes it with -o); with --run, interprets it on .npy inputs, writes each graph output as
 * DIR/output_<k>.npy (float32) and optionally compares with reference outputs. The plain import
 * (read, import, write) lives in `import/plain-import.ts`, which the launcher also runs on its
 * own for arguments without `--run` and `--const-input`.
 */
import type { OnnxTensor } from '@raptor-pim/onnx-frontend';
import { defineParsedCommand, type CliCommand, type CliIo } from '../command';
import { CLI_MESSAGES as M } from '../diagnostics';
import { IMPORT_SUMMARY, IMPORT_USAGE, importAndWrite, parseImportArgs, readImportModel, type ImportArgs } from '../import/plain-import';

export { parseImportArgs, type ImportArgs } from '../import/plain-import';

/**
 * Runs `raptor import` with parsed options; returns the exit code. The compiler and the
 * interpreter are loaded only for `--run` and `--const-input` (a plain import does not need them).
 */
export async function runImport(a: ImportArgs, io: CliIo): Promise<number> {
  const model = readImportModel(a, io);
  if (!model) return 1;
  const graphInputs = model.graph.inputs.map((i) => i.name);
  const constantInputs: Record<string, OnnxTensor> = {};
  for (const c of a.constInputs) {
    if (!graphInputs.includes(c.name)) {
      io.stderr(M.importBadInputBinding(c.name, graphInputs) + '\n');
      return 1;
    }
    const { readNpyTensor } = await import('../run/run-entry');
    const t = readNpyTensor('import', c.file, io);
    if (!t) return 1;
    constantInputs[c.name] = t;
  }
  const { code, imported } = importAndWrite(a, model, constantInputs, io);
  if (code !== 0 || !imported?.module || !a.run) return code;

  // Interpreted exactly as `raptor opt --run` interprets a module (src/run/run-entry.ts).
  const [{ findEntryFunction, formatIrLocation }, { runEntryWithFiles }] = await Promise.all([import('@raptor-pim/compiler'), import('../run/run-entry')]);
  const entry = findEntryFunction(imported.module, imported.functionName);
  if (!entry.ok) {
    for (const d of entry.diagnostics) io.stderr(`${formatIrLocation(d.location)}: ${d.severity}: ${d.message}\n`);
    return 1;
  }
  return runEntryWithFiles(
    imported.module,
    { ...entry.entry, inputs: entry.entry.inputs.map((v, k) => ({ ...v, name: imported.inputs[k]?.name ?? v.name })) },
    { command: 'import', inputKind: 'graph input', inputs: a.inputs, outputDir: a.outputDir, referenceDir: a.referenceDir },
    io,
    imported.outputs.map((o) => o.name),
  );
}

/** The `raptor import` command. */
export const importCommand: CliCommand = defineParsedCommand({
  name: 'import',
  summary: IMPORT_SUMMARY,
  usage: IMPORT_USAGE,
  parse: parseImportArgs,
  run: runImport,
});
