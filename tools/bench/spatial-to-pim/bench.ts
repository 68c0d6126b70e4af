// See bench.mjs. Each shared model is imported, layouts planned, plans lowered and scheduled
// with each built-in strategy (the default target; `--xbars N` gives the scheduler N crossbars
// per core, for models whose layers do not fit one core of the default machine), then
// converted by spat-to-pim. Saved scheduled modules can be timed instead (FILE.mlir arguments;
// `--save DIR` writes the scheduled modules there).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  FloatType,
  Interpreter,
  InterpreterRegistry,
  MLIRContext,
  PassRegistry,
  ShapedValue,
  parsePassPipeline,
  parseSourceString,
  printOperation,
  registerCorePasses,
  renderDiagnostics,
  type Operation,
} from '@raptor-pim/ir-core';
import { registerAllPimInterpreterRules, registerPimDialect } from '@raptor-pim/pim-dialect';
import { registerAllSpatialInterpreterRules, registerSpatialDialect } from '@raptor-pim/spatial-dialect';
import { SpatToPimPass, TargetKey } from '@raptor-pim/spatial-to-pim';
import { PimBufferizePass, PimPlanMemoryPass, PimVerifyMemoryPass } from '@raptor-pim/bufferization';
import { registerLayoutPlannerPasses } from '@raptor-pim/layout-planner';
import { importOnnxModel, readOnnxFile } from '@raptor-pim/onnx-frontend';
import { registerPlanLoweringPasses } from '@raptor-pim/plan-lowering';
import { defaultTarget, type Target } from '@raptor-pim/pim-target';
import { builtinScheduler } from '@raptor-pim/scheduler';

const args = process.argv.slice(2);
const valueOf = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const MODELS = (valueOf('models') ?? 'mlp,mlp_batch4,lenet5,mnist-8,resnet_mini,mobilenet_block,yolo_block,resnet18').split(',');
const STRATEGIES = (valueOf('strategies') ?? 'layer-sequential,throughput,latency').split(',');
const CHECK = args.includes('--check');
const BUFFERIZE = args.includes('--bufferize');
const XBARS = valueOf('xbars');
const SAVE = valueOf('save');
const VALUED = new Set(['--models', '--strategies', '--xbars', '--save']);
const FILES = args.filter((a, i) => a.endsWith('.mlir') && !VALUED.has(args[i - 1] ?? ''));
const root = path.resolve(__dirname, '../../..');

/** The default machine with pim.vsoftmax enabled (the models end in softmax). */
function passTarget(): Target {
  const t = defaultTarget();
  t.config.raptor_config.allow_vsoftmax = true;
  return t;
}

function countOps(op: Operation): { total: number; top: string } {
  const h = new Map<string, number>();
  let total = 0;
  op.walk((o) => {
    total++;
    h.set(o.name, (h.get(o.name) ?? 0) + 1);
  });
  const top = [...h].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 4).map(([k, v]) => `${k} ${v}`).join(', ');
  return { total, top };
}

function scheduled(model: string, strategy: string): { module?: Operation; why?: string } {
  const file = path.join(root, '../shared/models', model, 'model.onnx');
  if (!fs.existsSync(file)) return { why: 'model file missing' };
  const { model: onnx } = readOnnxFile(file);
  if (!onnx) return { why: 'unreadable' };
  const module = importOnnxModel(onnx).module;
  if (!module) return { why: 'import refused' };
  registerPimDialect(module.context);
  const registry = new PassRegistry();
  registerCorePasses(registry);
  registerLayoutPlannerPasses(registry);
  registerPlanLoweringPasses(registry);
  const { result, diagnostics } = module.context.diagnostics.capture(() =>
    parsePassPipeline(module.context, 'builtin.module(func.func(canonicalize,cse),func.func(spat-plan-layouts,spat-verify-layouts),func.func(spat-lower-plans))', registry)!.run(module).success,
  );
  if (!result) return { why: `plan lowering: ${diagnostics[0]?.message ?? 'failed'}` };
  const target = defaultTarget();
  if (XBARS) target.config.chip_config.core_config.matrix_config.xbar_array_count = Number(XBARS);
  const r = builtinScheduler(strategy)!.schedule(module, target, {});
  if (!r.module) return { why: `scheduler: ${r.diagnostics[0]?.message ?? 'failed'}` };
  if (SAVE) fs.writeFileSync(path.join(SAVE, `${model}.${strategy}.mlir`), printOperation(module));
  return { module };
}

function parseFile(file: string): Operation {
  const ctx = new MLIRContext();
  registerSpatialDialect(ctx);
  registerPimDialect(ctx);
  const { result, diagnostics } = ctx.diagnostics.capture(() => parseSourceString(ctx, fs.readFileSync(file, 'utf8')));
  if (!result) throw new Error(`${file}: ${renderDiagnostics(diagnostics)}`);
  return result;
}

/** Seeded inputs for the function's arguments (tensors before, buffers after the pass). */
function inputs(m: Operation, kind: 'tensor' | 'buffer'): ShapedValue[] {
  const fn = m.regions[0]!.firstBlock!.operations.find((o) => o.name === 'func.func')!;
  let s = 7;
  return fn.regions[0]!.firstBlock!.arguments.map((a) => {
    const v = ShapedValue.allocate(kind, FloatType.f32(m.context), [...(a.type as unknown as { shape: number[] }).shape])!;
    const d = v.data as Float32Array;
    for (let i = 0; i < d.length; i++) {
      s = (s * 1103515245 + 12345) % 2147483648;
      d[i] = Math.fround((s / 2147483648) * 4 - 2);
    }
    return v;
  });
}

function interpret(m: Operation, pim: boolean): Float32Array[] {
  const reg = new InterpreterRegistry();
  if (pim) registerAllPimInterpreterRules(reg);
  else registerAllSpatialInterpreterRules(reg);
  const fn = m.regions[0]!.firstBlock!.operations.find((o) => o.name === 'func.func')!;
  const name = (fn.getAttr('sym_name') as unknown as { value: string }).value;
  const r = new Interpreter(reg).runFunction(m, name, inputs(m, pim ? 'buffer' : 'tensor'));
  if (!r.ok) throw new Error(`${pim ? 'pim' : 'spatial'} interpreter: ${r.diagnostic.message} at ${r.op?.name}`);
  return r.values.map((v) => (v as ShapedValue).toContiguousArray() as Float32Array);
}

function timePass(module: Operation, pass: string, registry: PassRegistry): { wall: number; cpu: number; error?: string } {
  const ctx = module.context;
  const { result, diagnostics } = ctx.diagnostics.capture(() => {
    const pm = parsePassPipeline(ctx, `builtin.module(${pass})`, registry)!;
    pm.enableVerifier(false);
    pm.setContext(TargetKey, passTarget());
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const ok = pm.run(module).success;
    const c = process.cpuUsage(c0);
    return { ok, wall: performance.now() - t0, cpu: (c.user + c.system) / 1000 };
  });
  return { wall: result.wall, cpu: result.cpu, error: result.ok ? undefined : diagnostics[0]?.message ?? 'failed' };
}

function row(name: string, module: Operation): void {
  const registry = new PassRegistry();
  registry.registerPass(() => new SpatToPimPass());
  registry.registerPass(() => new PimBufferizePass());
  registry.registerPass(() => new PimPlanMemoryPass());
  registry.registerPass(() => new PimVerifyMemoryPass());
  const before = countOps(module).total;
  const expected = CHECK ? interpret(module, false) : [];
  const t = timePass(module, 'spat-to-pim', registry);
  if (t.error) {
    console.log(`| ${name} | refused: ${t.error.split('\n')[0]} |`);
    return;
  }
  const after = countOps(module);
  let check = '';
  if (CHECK) {
    const got = interpret(module, true);
    const same = got.length === expected.length && got.every((g, i) => g.length === expected[i]!.length && g.every((x, j) => Object.is(x, expected[i]![j])));
    check = same ? 'equal' : 'DIFFERENT';
  }
  let buf = '';
  if (BUFFERIZE) {
    const parts: string[] = [];
    let total = t.cpu;
    for (const pass of ['pim-bufferize', 'pim-plan-memory', 'pim-verify-memory']) {
      const p = timePass(module, pass, registry);
      if (p.error) {
        parts.push(`${pass} refused: ${p.error.split('\n')[0]!.slice(0, 80)}`);
        break;
      }
      total += p.cpu;
      parts.push(`${p.cpu.toFixed(0)}`);
    }
    buf = ` ${parts.join(' / ')} | ${total.toFixed(0)} |`;
  }
  console.log(`| ${name} | ${before} | ${after.total} | ${t.wall.toFixed(0)} | ${t.cpu.toFixed(0)} | ${after.top} |${CHECK ? ` ${check} |` : ''}${buf}`);
}

function main(): void {
  console.log('spat-to-pim benchmark (pass times in ms: wall clock and process CPU; ops counted before and after)');
  const extra = `${CHECK ? ' pim == spatial |' : ''}${BUFFERIZE ? ' bufferize / plan / verify CPU | total CPU |' : ''}`;
  console.log(`| program | ops before | ops after | wall | CPU | most frequent after |${extra}`);
  console.log(`|---|---|---|---|---|---|${CHECK ? '---|' : ''}${BUFFERIZE ? '---|---|' : ''}`);
  for (const file of FILES) row(path.basename(file), parseFile(file));
  if (FILES.length > 0) return;
  for (const model of MODELS) {
    for (const strategy of STRATEGIES) {
      const name = `${model} / ${strategy}`;
      let s: ReturnType<typeof scheduled>;
      try {
        s = scheduled(model, strategy);
      } catch (e) {
        s = { why: `internal error: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}` };
      }
      if (!s.module) {
        console.log(`| ${name} | not scheduled: ${s.why} |`);
        continue;
      }
      try {
        row(name, s.module);
      } catch (e) {
        console.log(`| ${name} | failed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)} |`);
      }
    }
  }
}

main();
