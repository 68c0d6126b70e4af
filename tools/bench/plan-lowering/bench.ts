// The plan-lowering benchmark (run through bench.mjs). Per shared model: plans, layout
// materializations inserted by spat-plan-layouts (planning on with the local search, planning
// off, the exact solver), the op count after spat-lower-plans (bodies included; every plan dense,
// and after spat-plan-layouts with its default solver) and
// the lowering time (median of --rounds runs of lowerPlans on fresh imports; wall and CPU).
// With --interpret: the spatial interpreter's time on the imported and on the lowered module.
//
//   node tools/bench/plan-lowering/bench.mjs [--rounds N] [--interpret] [--models a,b]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FloatType, Interpreter, InterpreterRegistry, PassRegistry, ShapedValue, parsePassPipeline, type Operation } from '@raptor-pim/ir-core';
import { importOnnxModel, readNpy, readOnnxFile, tensorToNumbers } from '@raptor-pim/onnx-frontend';
import { MaterializeLayoutOp, PLAN_OPS, registerAllSpatialInterpreterRules } from '@raptor-pim/spatial-dialect';
import { registerLayoutPlannerPasses } from '@raptor-pim/layout-planner';
import { lowerPlans, registerPlanLoweringPasses } from '@raptor-pim/plan-lowering';
import { defaultTarget } from '@raptor-pim/pim-target';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const rounds = Number(option('--rounds') ?? 5);
const interpret = args.includes('--interpret');
const shared = process.env['RAPTOR_SHARED_DIR'] ?? path.resolve(__dirname, '../../../../shared');
const modelsDir = path.join(shared, 'models');
const selected = option('--models')?.split(',');
const models = fs
  .readdirSync(modelsDir)
  .filter((d) => fs.existsSync(path.join(modelsDir, d, 'model.onnx')) && (!selected || selected.includes(d)))
  .sort();

const planNames = new Set(PLAN_OPS.map((d) => d.name));
const target = defaultTarget();

function load(name: string) {
  const { model } = readOnnxFile(path.join(modelsDir, name, 'model.onnx'));
  const imported = importOnnxModel(model!);
  if (!imported.module) throw new Error(`${name}: import failed`);
  return { model: model!, imported, module: imported.module, func: imported.module.regions[0]!.firstBlock!.firstOp! };
}

function count(root: Operation, pred: (op: Operation) => boolean): number {
  let n = 0;
  root.walk((op) => {
    if (op !== root && pred(op)) n++;
  });
  return n;
}

function pipeline(module: Operation, text: string): void {
  const registry = new PassRegistry();
  registerLayoutPlannerPasses(registry);
  registerPlanLoweringPasses(registry);
  const pm = parsePassPipeline(module.context, text, registry);
  if (!pm || !pm.run(module).success) throw new Error(`pipeline failed: ${text}`);
}

function materializations(name: string, options: string): number {
  const m = load(name);
  pipeline(m.module, `builtin.module(func.func(spat-plan-layouts${options}))`);
  return count(m.module, (op) => op.name === MaterializeLayoutOp.name);
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

function run(module: Operation, fn: string, inputs: ShapedValue[]): number {
  const registry = new InterpreterRegistry();
  registerAllSpatialInterpreterRules(registry);
  const t = performance.now();
  const r = new Interpreter(registry).runFunction(module, fn, inputs);
  if (!r.ok) throw new Error(r.diagnostic.message);
  return performance.now() - t;
}

const header = ['model', 'plans', 'mat. local', 'mat. off', 'mat. exact', 'ops lowered (dense)', 'ops lowered (planned)', 'lower ms', 'lower cpu ms', ...(interpret ? ['interp imported ms', 'interp lowered ms'] : [])];
console.log(`| ${header.join(' | ')} |`);
console.log(`|${header.map(() => '---').join('|')}|`);
for (const name of models) {
  const plans = count(load(name).module, (op) => planNames.has(op.name));
  const local = materializations(name, '{solver=local}');
  const off = materializations(name, '{disable-spatial-planning}');
  const exact = materializations(name, '{solver=exact}');
  const denseModel = load(name);
  if (!lowerPlans(denseModel.func, target.config).success) throw new Error(`${name}: dense lowering failed`);
  const denseOps = count(denseModel.module, () => true);
  const wall: number[] = [];
  const cpu: number[] = [];
  let ops = 0;
  let lowered: ReturnType<typeof load> | undefined;
  for (let r = 0; r < rounds; r++) {
    const m = load(name);
    pipeline(m.module, 'builtin.module(func.func(spat-plan-layouts))');
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const result = lowerPlans(m.func, target.config);
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    if (!result.success) throw new Error(`${name}: lowering failed`);
    ops = count(m.module, () => true);
    lowered = m;
  }
  const row: (string | number)[] = [name, plans, local, off, exact, denseOps, ops, median(wall).toFixed(1), median(cpu).toFixed(1)];
  if (interpret && lowered) {
    const f32 = FloatType.f32(lowered.imported.context);
    const inputs = lowered.model.graph.inputs.map((_, i) => {
      const t = readNpy(fs.readFileSync(path.join(modelsDir, name, `input_${i}.npy`)), 'input').tensor!;
      const v = ShapedValue.allocate('tensor', f32, t.dims)!;
      (v.data as Float32Array).set(Float32Array.from(tensorToNumbers(t)));
      return v;
    });
    const fresh = load(name);
    row.push(run(fresh.module, fresh.imported.functionName, inputs).toFixed(0), run(lowered.module, lowered.imported.functionName, inputs).toFixed(0));
  }
  console.log(`| ${row.join(' | ')} |`);
}
