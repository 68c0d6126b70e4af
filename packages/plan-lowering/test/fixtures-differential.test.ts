/**
 * The golden fixtures also run: every function of `lower-*.mlir` / `plan-and-lower.mlir` is
 * interpreted on seeded random inputs before and after the fixture's pipeline, and the outputs
 * agree within the model tests' tolerance.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FloatType, FuncOp, MLIRContext, RankedTensorType, ShapedValue, parseSourceString, type Operation, type StringAttr } from '@raptor-pim/ir-core';
import { registerSpatialDialect } from '@raptor-pim/spatial-dialect';
import { fixturePipeline } from '../../../tools/test-support/stage-fixtures';
import { interpret, runPipeline, worstRatio } from './helpers';
import { seededValues } from '../../../tools/test-support/seeded-values';

const dir = path.join(__dirname, 'fixtures');
const files = fs.readdirSync(dir).filter((f) => f.endsWith('.mlir') && !f.endsWith('.golden.mlir') && !f.endsWith('-invalid.mlir')).sort();

function parse(text: string): Operation {
  const ctx = new MLIRContext();
  registerSpatialDialect(ctx);
  const m = parseSourceString(ctx, text);
  if (!m) throw new Error('fixture does not parse');
  return m;
}

const symbolName = (op: Operation): string => (op.getAttr('sym_name') as StringAttr).value;

describe.each(files)('%s', (file) => {
  const text = fs.readFileSync(path.join(dir, file), 'utf8');
  const pipeline = fixturePipeline(text)!;
  const functions: string[] = [];
  for (let op = parse(text).regions[0]!.firstBlock!.firstOp; op; op = op.next) if (FuncOp.match(op)) functions.push(symbolName(op));
  it.each(functions)('@%s: same outputs before and after the pipeline', (name) => {
    const module = parse(text);
    let func: Operation | undefined;
    for (let op = module.regions[0]!.firstBlock!.firstOp; op; op = op.next) if (FuncOp.match(op) && symbolName(op) === name) func = op;
    const args = func!.regions[0]!.firstBlock!.arguments.map((a, i) => {
      const t = a.type as RankedTensorType;
      const v = ShapedValue.allocate('tensor', FloatType.f32(module.context), t.shape)!;
      (v.data as Float32Array).set(seededValues(v.data.length, 17 + i));
      return v;
    });
    const before = interpret(module, name, args);
    const run = runPipeline(module, pipeline);
    expect(run.diagnostics.map((d) => d.message)).toEqual([]);
    const after = interpret(module, name, args);
    after.forEach((v, k) => expect(worstRatio(v, before[k]!)).toBeLessThanOrEqual(1));
  });
});
