// See bench.mjs. Programs: the shared models the pipeline reaches (imported, layouts planned,
// plans lowered, scheduled with each built-in strategy; `--models a,b`), the scheduled fixtures
// of spatial-to-pim, and two synthetic scheduled programs (64 cores; a 16-stage pipeline of
// 4-lane batches kept as pim.core_batch, and the same work as 64 pim.core streams).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { MLIRContext, PassRegistry, parsePassPipeline, parseSourceString, renderDiagnostics, verify, type Operation } from '@raptor-pim/ir-core';
import { registerPimDialect } from '@raptor-pim/pim-dialect';
import { registerSpatialDialect } from '@raptor-pim/spatial-dialect';
import { SpatToPimPass } from '@raptor-pim/spatial-to-pim';
import * as Bufferization from '@raptor-pim/bufferization';
import type { BufferizeReport, ModuleMemoryReport } from '@raptor-pim/bufferization';
import { registerCorePasses } from '@raptor-pim/ir-core';
import { registerLayoutPlannerPasses } from '@raptor-pim/layout-planner';
import { importOnnxModel, readOnnxFile } from '@raptor-pim/onnx-frontend';
import { registerPlanLoweringPasses } from '@raptor-pim/plan-lowering';
import { defaultTarget } from '@raptor-pim/pim-target';
import { builtinScheduler } from '@raptor-pim/scheduler';

const args = process.argv.slice(2);
/**
 * `--bufferization DIR`: the passes from another source tree of the package (DIR/src/index.ts,
 * e.g. an older commit extracted with git archive under the workspace) to compare before/after.
 */
const bufferizationAt = args.indexOf('--bufferization');
const B: typeof Bufferization =
  bufferizationAt >= 0 ? (require(path.resolve(args[bufferizationAt + 1]!, 'src/index.ts')) as typeof Bufferization) : Bufferization;
const { PimBufferizePass, PimPlanMemoryPass, PimVerifyMemoryPass } = B;
const TargetKey = Bufferization.TargetKey;
const OtherTargetKey = B.TargetKey;
const opt = (name: string, d: number): number => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : d;
};
const LAYERS = opt('layers', 200);
const modelsAt = args.indexOf('--models');
const MODELS = (modelsAt >= 0 ? args[modelsAt + 1]! : 'mlp,mlp_batch4,lenet5,mnist-8,resnet_mini,mobilenet_block,yolo_block,resnet18').split(',');
const strategiesAt = args.indexOf('--strategies');
const STRATEGIES = (strategiesAt >= 0 ? args[strategiesAt + 1]! : 'layer-sequential,throughput,latency').split(',');
const VERBOSE = args.includes('--verbose');
/** `--cpu`: pass times as CPU time of this process (user + system) instead of wall-clock time (robust to a loaded machine). */
const CPU = args.includes('--cpu');
const filesAt = args.indexOf('--files');
const FILES = filesAt >= 0 ? args[filesAt + 1]!.split(',') : [];
const ROUNDS = opt('rounds', 3);
/** `--local-memory BYTES`: plan with a larger arena than the target's (to measure plans the target refuses). */
const LOCAL_MEMORY = opt('local-memory', 0);
const root = path.resolve(__dirname, '../../..');
/** `--scheduler-options k=v,k=v`: options of the built-in strategies (e.g. `local-memory=report`). */
const schedulerOptionsAt = args.indexOf('--scheduler-options');
const SCHEDULER_OPTIONS: Record<string, string> = Object.fromEntries(
  (schedulerOptionsAt >= 0 ? args[schedulerOptionsAt + 1]!.split(',') : []).map((kv) => kv.split('=') as [string, string]),
);

/** A pipeline of `stages` scheduled batches of `lanes` lanes, `layers` wvmm+vadd+relu per lane. */
function synthetic(stages: number, lanes: number, layers: number, batched: boolean): string {
  const W = 128;
  const T = `tensor<1x${W}xf32>`;
  const L: string[] = [`func.func @main(%x: tensor<${lanes}x${W}xf32>) -> tensor<${lanes}x${W}xf32> {`];
  L.push('  %c0 = arith.constant 0 : index');
  const NW = Math.min(16, layers);
  for (let w = 0; w < NW; w++) L.push(`  %w${w} = arith.constant dense<${(0.001 * (w + 1)).toFixed(3)}> : tensor<${W}x${W}xf32>`);
  const coreIds = (s: number) => Array.from({ length: lanes }, (_, k) => s * lanes + k);
  for (let s = 0; s < stages; s++) {
    const last = s === stages - 1;
    const body = (laneExpr: string, indent: string): string[] => {
      const b: string[] = [];
      b.push(`${indent}%me = affine.apply affine_map<(d0) -> (d0 + ${s * lanes})>(${laneExpr})`);
      if (s === 0) b.push(`${indent}%v = tensor.extract_slice %arg[${laneExpr}, 0] [1, ${W}] [1, 1] : tensor<${lanes}x${W}xf32> to ${T}`);
      else {
        b.push(`${indent}%prev = affine.apply affine_map<(d0) -> (d0 + ${(s - 1) * lanes})>(${laneExpr})`);
        b.push(`${indent}%v = spat.channel_receive channel %c0 from %prev to %me : ${T}`);
      }
      let cur = '%v';
      for (let l = 0; l < layers; l++) {
        b.push(`${indent}%m${l} = spat.wvmm[%wa${l % NW}](${cur}) : (tensor<${W}x${W}xf32>, ${T}) -> ${T}`);
        b.push(`${indent}%s${l} = spat.vadd %m${l}, ${cur} : (${T}, ${T}) -> ${T}`);
        b.push(`${indent}%r${l} = spat.relu(%s${l}) : ${T} -> ${T}`);
        cur = `%r${l}`;
      }
      if (!last) {
        b.push(`${indent}%next = affine.apply affine_map<(d0) -> (d0 + ${(s + 1) * lanes})>(${laneExpr})`);
        b.push(`${indent}spat.channel_send ${cur} channel %c0 from %me to %next : ${T}`);
      }
      return [...b, cur];
    };
    const wBind = Array.from({ length: NW }, (_, w) => `%wa${w}`).join(', ');
    const wOuter = Array.from({ length: NW }, (_, w) => `%w${w}`).join(', ');
    const wTypes = `tensor<${W}x${W}xf32> x${NW}`;
    const res = last ? `tensor<${lanes}x${W}xf32>` : '()';
    const inputs = s === 0 ? ['(%arg) = (%x)', `(tensor<${lanes}x${W}xf32>)`] : ['() = ()', '()'];
    if (batched) {
      L.push(
        `  ${last ? '%y = ' : ''}spat.scheduled_compute_batch %lane = 0 to ${lanes} [${wBind}] = [${wOuter}] ${inputs[0]} ${last ? 'shared_outs(%out) ' : ''}coreIds [${coreIds(s).join(', ')}] crossbarWeights ${NW} : [${wTypes}] ${inputs[1]} -> ${res} {`,
      );
      const lines = body('%lane', '    ');
      const cur = lines.pop()!;
      L.push(...lines);
      if (last) L.push('    spat.in_parallel {', `      tensor.parallel_insert_slice ${cur} into %out[%lane, 0] [1, ${W}] [1, 1] : ${T} into tensor<${lanes}x${W}xf32>`, '    }');
      else L.push('    spat.yield');
      L.push('  }');
      continue;
    }
    // One scheduled compute per core (lane k of stage s on core s * lanes + k).
    for (let k = 0; k < lanes; k++) {
      const lastLane = last && k === lanes - 1;
      const rt = last ? `tensor<1x${W}xf32>` : '()';
      L.push(`  %lane_${s}_${k} = arith.constant ${k} : index`);
      L.push(
        `  ${last ? `%y${k} = ` : ''}spat.scheduled_compute [${wBind}] = [${wOuter}] ${inputs[0]} coreId ${s * lanes + k} crossbarWeights ${NW} : [${wTypes}] ${inputs[1]} -> ${rt} {`,
      );
      const lines = body(`%lane_${s}_${k}`, '    ').map((l) => l.replace(/%arg\[%lane_\d+_\d+, 0\]/, `%arg[${k}, 0]`));
      const cur = lines.pop()!;
      L.push(...lines, last ? `    spat.yield ${cur} : ${T}` : '    spat.yield', '  }');
      void lastLane;
    }
  }
  if (batched) L.push(`  return %y : tensor<${lanes}x${W}xf32>`, '}');
  else {
    const outs = Array.from({ length: lanes }, (_, k) => `%y${k}`);
    L[0] = L[0]!.replace(/-> tensor<.*> \{$/, `-> (${outs.map(() => `tensor<1x${W}xf32>`).join(', ')}) {`);
    L.push(`  return ${outs.join(', ')} : ${outs.map(() => `tensor<1x${W}xf32>`).join(', ')}`, '}');
  }
  return L.join('\n');
}

interface Row {
  name: string;
  ops: number;
  copies: number;
  streams: number;
  worstPeak: number;
  worstBound: number;
  worstRatio: number;
  hostBytes: number;
  ms: Record<string, number>;
  /** Why pim-plan-memory refused the plan (the row shows it anyway). */
  refused?: string;
}

function countOps(op: Operation): number {
  let n = 0;
  op.walk(() => void n++);
  return n;
}

/** A target with pim.vsoftmax enabled (the models end in softmax). */
function benchTarget() {
  const t = defaultTarget();
  t.config.raptor_config.allow_vsoftmax = true;
  if (LOCAL_MEMORY > 0) t.config.chip_config.core_config.local_memory_config.memory_size = LOCAL_MEMORY;
  return t;
}

function parseProgram(name: string, text: string): Operation {
  const ctx = new MLIRContext();
  ctx.allowUnregisteredDialects = true;
  registerSpatialDialect(ctx);
  registerPimDialect(ctx);
  const { result: module, diagnostics } = ctx.diagnostics.capture(() => {
    const m = parseSourceString(ctx, text);
    return m && verify(m) ? m : undefined;
  });
  if (!module) throw new Error(`${name}: ${renderDiagnostics(diagnostics)}`);
  return module;
}

/** A shared model imported, planned, lowered and scheduled (undefined, with the reason, when a stage refuses it). */
function scheduledModel(model: string, strategy: string): { module?: Operation; why?: string; ms?: number } {
  const file = path.join(root, '../shared/models', model, 'model.onnx');
  if (!fs.existsSync(file)) return { why: 'model file missing' };
  const { model: onnx } = readOnnxFile(file);
  if (!onnx) return { why: 'unreadable' };
  const imported = importOnnxModel(onnx);
  const module = imported.module;
  if (!module) return { why: 'import refused' };
  registerPimDialect(module.context);
  const registry = new PassRegistry();
  registerCorePasses(registry);
  registerLayoutPlannerPasses(registry);
  registerPlanLoweringPasses(registry);
  const ctx = module.context;
  const { result, diagnostics } = ctx.diagnostics.capture(() => {
    const pm = parsePassPipeline(ctx, 'builtin.module(func.func(canonicalize,cse),func.func(spat-plan-layouts,spat-verify-layouts),func.func(spat-lower-plans))', registry)!;
    return pm.run(module).success;
  });
  if (!result) return { why: `plan lowering: ${diagnostics[0]?.message ?? 'failed'}` };
  const t0 = performance.now();
  const r = builtinScheduler(strategy)!.schedule(module, defaultTarget(), SCHEDULER_OPTIONS);
  const ms = performance.now() - t0;
  if (VERBOSE) console.error(`  ${model} / ${strategy}: scheduled in ${ms.toFixed(0)} ms`);
  if (!r.module) return { why: `scheduler: ${r.diagnostics[0]?.message ?? 'failed'}` };
  return { module, ms };
}

function runOnce(name: string, text: string | Operation): Row {
  const module = typeof text === 'string' ? parseProgram(name, text) : text;
  const ctx = module.context;
  let buf: BufferizeReport | undefined;
  let plan: ModuleMemoryReport | undefined;
  const registry = new PassRegistry();
  registry.registerPass(() => new SpatToPimPass());
  registry.registerPass(() => new PimBufferizePass({ onReport: (r) => (buf = r) }));
  registry.registerPass(() => new PimPlanMemoryPass({ onReport: (r) => (plan = r) }));
  registry.registerPass(() => new PimVerifyMemoryPass());
  const ms: Record<string, number> = {};
  let refused: string | undefined;
  for (const pass of ['spat-to-pim', 'pim-bufferize', 'pim-plan-memory', 'pim-verify-memory']) {
    if (refused) {
      ms[pass] = 0; // a refused plan is not verified
      continue;
    }
    const { result, diagnostics: d } = ctx.diagnostics.capture(() => {
      const pm = parsePassPipeline(ctx, `builtin.module(${pass})`, registry)!;
      pm.enableVerifier(false);
      pm.setContext(TargetKey, benchTarget());
      if (OtherTargetKey !== TargetKey) pm.setContext(OtherTargetKey, benchTarget());
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      const ok = pm.run(module).success;
      const c = process.cpuUsage(c0);
      ms[pass] = CPU ? (c.user + c.system) / 1000 : performance.now() - t0;
      if (VERBOSE) console.error(`  ${name}: ${pass} ${(performance.now() - t0).toFixed(0)} ms wall, ${((c.user + c.system) / 1000).toFixed(0)} ms CPU`);
      return ok;
    });
    if (!result) {
      // The times so far, and why the pass refused (a plan over the capacity is planned anyway).
      const why = `${pass}: ${d[0]?.message ?? 'failed'}`;
      if (pass !== 'pim-plan-memory' || !plan) throw new Error(why);
      refused = why;
    }
  }
  const worst = plan!.streams.reduce((w, s) => (s.lowerBound && s.peak / s.lowerBound >= w.peak / Math.max(1, w.lowerBound) ? s : w), plan!.streams[0]!);
  return {
    name,
    ops: countOps(module),
    copies: buf!.copies,
    streams: plan!.streams.length,
    worstPeak: worst?.peak ?? 0,
    worstBound: worst?.lowerBound ?? 0,
    worstRatio: plan!.worstRatio,
    hostBytes: plan!.hostBytes,
    ms,
    refused,
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function main(): void {
  const programs: [string, string][] = FILES.map((f) => [path.basename(f), fs.readFileSync(f, 'utf8')]);
  const fixtures = path.join(root, 'packages/spatial-to-pim/test/fixtures/patterns');
  for (const f of FILES.length > 0 ? [] : fs.readdirSync(fixtures).sort()) {
    if (f.endsWith('.mlir') && !f.endsWith('.pim.mlir')) programs.push([f.replace(/\.mlir$/, ''), fs.readFileSync(path.join(fixtures, f), 'utf8')]);
  }
  if (FILES.length === 0) {
    programs.push([`synthetic: 16 stages x 4-lane batches, ${LAYERS} layers`, synthetic(16, 4, LAYERS, true)]);
    programs.push([`synthetic: 16 stages x 4 cores, ${LAYERS} layers`, synthetic(16, 4, LAYERS, false)]);
  }
  console.log(`spat-to-pim + bufferization benchmark (pass times in ms of ${CPU ? 'CPU time' : 'wall-clock time'}; fixtures and synthetic programs: median of ${ROUNDS} rounds, models: one run)`);
  const header = '| program | ops after | streams | copies | worst peak / bound (B) | worst ratio | host B | spat-to-pim | bufferize | plan | verify | total |';
  console.log(header);
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  const line = (name: string, r: Row, m: (k: string) => number): void => {
    const total = m('spat-to-pim') + m('pim-bufferize') + m('pim-plan-memory') + m('pim-verify-memory');
    console.log(
      `| ${name} | ${r.ops} | ${r.streams} | ${r.copies} | ${r.worstPeak} / ${r.worstBound} | ${r.worstRatio.toFixed(3)} | ${r.hostBytes} | ${m('spat-to-pim').toFixed(1)} | ${m('pim-bufferize').toFixed(1)} | ${m('pim-plan-memory').toFixed(1)} | ${m('pim-verify-memory').toFixed(1)} | ${total.toFixed(1)} |${r.refused ? ` refused: ${r.refused.slice(0, 160)} |` : ''}`,
    );
  };
  for (const model of FILES.length > 0 && modelsAt < 0 ? [] : MODELS) {
    for (const strategy of STRATEGIES) {
      const name = `${model} / ${strategy}`;
      let s: ReturnType<typeof scheduledModel>;
      try {
        s = scheduledModel(model, strategy);
      } catch (e) {
        s = { why: `internal error: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}` };
      }
      if (!s.module) {
        console.log(`| ${name} | not scheduled: ${s.why} |`);
        continue;
      }
      try {
        const r = runOnce(name, s.module);
        line(name, r, (k) => r.ms[k]!);
      } catch (e) {
        console.log(`| ${name} | refused: ${e instanceof Error ? e.message.split('\n')[0] : String(e)} |`);
      }
    }
  }
  for (const [name, text] of programs) {
    const rows = Array.from({ length: ROUNDS }, () => runOnce(name, text));
    line(name, rows[0]!, (k) => median(rows.map((x) => x.ms[k]!)));
  }
}

main();
