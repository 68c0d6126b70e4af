// Explains the memory of the worst core streams of one shared model and strategy: after
// spat-to-pim + pim-bufferize, per stream the lower bound (largest simultaneously live bytes)
// and, for the streams over the local memory (or the worst one), the buffers live at the bound's
// position: size, allocation position, the op that first writes it, its first and last use.
//
// Usage: node tools/bench/bufferization/explain.mjs MODEL STRATEGY [--top N] [--save FILE]
//        node tools/bench/bufferization/explain.mjs --from FILE.mlir (a saved module; *.pim.mlir is bufferized first)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Liveness, MLIRContext, PassRegistry, parsePassPipeline, parseSourceString, printOperation, type Operation, type Value } from '@raptor-pim/ir-core';
import { registerPimDialect } from '@raptor-pim/pim-dialect';
import { SpatToPimPass } from '@raptor-pim/spatial-to-pim';
import { PimBufferizePass, TargetKey, computeStreamLiveness, describeStream, isStream, liveBytesLowerBound } from '@raptor-pim/bufferization';
import { registerCorePasses } from '@raptor-pim/ir-core';
import { registerLayoutPlannerPasses } from '@raptor-pim/layout-planner';
import { importOnnxModel, readOnnxFile } from '@raptor-pim/onnx-frontend';
import { registerPlanLoweringPasses } from '@raptor-pim/plan-lowering';
import { defaultTarget } from '@raptor-pim/pim-target';
import { builtinScheduler } from '@raptor-pim/scheduler';

const args = process.argv.slice(2);
const [model, strategy] = args;
const opt = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const TOP = Number(opt('top') ?? 3);
const VERBOSE = args.includes('--verbose');
const root = path.resolve(__dirname, '../../..');
/** `--scheduler-options k=v,k=v`: options of the built-in strategies (e.g. `local-memory=report`). */
const schedulerOptionsAt = args.indexOf('--scheduler-options');
const SCHEDULER_OPTIONS: Record<string, string> = Object.fromEntries(
  (schedulerOptionsAt >= 0 ? args[schedulerOptionsAt + 1]!.split(',') : []).map((kv) => kv.split('=') as [string, string]),
);

function main(): void {
  const from = opt('from');
  if (from) {
    const ctx = new MLIRContext();
    registerPimDialect(ctx);
    const m = parseSourceString(ctx, fs.readFileSync(from, 'utf8'));
    if (!m) throw new Error(`${from}: does not parse`);
    if (!from.endsWith('.pim.mlir')) return explain(m);
    const registry = new PassRegistry();
    registry.registerPass(() => new PimBufferizePass());
    if (!parsePassPipeline(ctx, 'builtin.module(pim-bufferize)', registry)!.run(m).success) throw new Error('pim-bufferize failed');
    return explain(m);
  }
  if (!model || !strategy) throw new Error('usage: explain.mjs MODEL STRATEGY [--top N] [--save FILE]');
  const { model: onnx } = readOnnxFile(path.join(root, '../shared/models', model, 'model.onnx'));
  const module = importOnnxModel(onnx!).module!;
  registerPimDialect(module.context);
  const ctx = module.context;
  const registry = new PassRegistry();
  registerCorePasses(registry);
  registerLayoutPlannerPasses(registry);
  registerPlanLoweringPasses(registry);
  registry.registerPass(() => new SpatToPimPass());
  registry.registerPass(() => new PimBufferizePass());
  const run = (pipeline: string): void => {
    const pm = parsePassPipeline(ctx, `builtin.module(${pipeline})`, registry)!;
    const t = defaultTarget();
    t.config.raptor_config.allow_vsoftmax = true;
    pm.setContext(TargetKey, t);
    if (!pm.run(module).success) throw new Error(`${pipeline} failed`);
  };
  run('func.func(canonicalize,cse),func.func(spat-plan-layouts,spat-verify-layouts),func.func(spat-lower-plans)');
  const r = builtinScheduler(strategy)!.schedule(module, defaultTarget(), SCHEDULER_OPTIONS);
  if (!r.module) throw new Error(`scheduler: ${r.diagnostics[0]?.message}`);
  const save = opt('save');
  if (save) fs.writeFileSync(save.replace(/\.mlir$/, '.spat.mlir'), printOperation(module));
  run('spat-to-pim');
  if (save) fs.writeFileSync(save.replace(/\.mlir$/, '.pim.mlir'), printOperation(module));
  run('pim-bufferize');
  if (save) fs.writeFileSync(save, printOperation(module));
  explain(module);
}

function constantOf(v: Value): number | undefined {
  const a = v.definingOp?.getProperty('value') as unknown as { value?: bigint | number } | undefined;
  return v.definingOp?.name === 'arith.constant' && a?.value !== undefined ? Number(a.value) : undefined;
}

function explain(module: Operation): void {
  const capacity = defaultTarget().config.chip_config.core_config.local_memory_config.memory_size;
  const liveness = new Liveness(module);
  const streams: { op: Operation; bound: number; position: number }[] = [];
  module.walk((op) => {
    if (!isStream(op)) return;
    const { allocations } = computeStreamLiveness(op, liveness);
    const b = liveBytesLowerBound(allocations.map((a) => ({ id: a.ordinal, size: a.bytes, start: a.start, end: a.end })), 4);
    streams.push({ op, bound: b.bytes, position: b.position });
  });
  streams.sort((a, b) => b.bound - a.bound);
  // What-ifs: allocations live from their first use; whole-buffer copies (memcp of every byte of
  // a buffer whose last use it is into a fresh buffer of the same size) as views of the source.
  let sunk = 0;
  let viewed = 0;
  let hosted = 0;
  const over = [0, 0, 0, 0, 0];
  let extents = 0;
  for (const s of streams) {
    const ops: Operation[] = [];
    s.op.regions[0]!.firstBlock!.operations.forEach((o) => o.walk((x) => void ops.push(x)));
    const pos = new Map(ops.map((o, i) => [o, i]));
    const { allocations } = computeStreamLiveness(s.op, liveness);
    const byValue = new Map(allocations.map((a) => [a.value, a]));
    const firstUse = allocations.map((a) => {
      let f = a.end;
      for (let u = a.value.firstUse; u; u = u.nextUse) f = Math.min(f, pos.get(u.owner) ?? f);
      return f;
    });
    const sunkBound = liveBytesLowerBound(allocations.map((a, i) => ({ id: i, size: a.bytes, start: firstUse[i]!, end: a.end })), 4).bytes;
    // Union of whole copies.
    const parent = allocations.map((_, i) => i);
    const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
    for (const op of ops) {
      if (op.name !== 'pim.memcp') continue;
      const dst = byValue.get(op.getOperand(0));
      const src = byValue.get(op.getOperand(1));
      if (!dst || !src || dst.bytes !== src.bytes) continue;
      const size = op.getProperty('size') as unknown as { value: bigint | number } | undefined;
      if (!size || Number(size.value) !== dst.bytes) continue;
      if (src.end !== pos.get(op) || firstUse[dst.ordinal] !== pos.get(op)) continue;
      parent[find(dst.ordinal)] = find(src.ordinal);
    }
    // Host staging buffers: filled by one pim.memcp_hd of every byte, read only by pim.memcp.
    const staging = allocations.map((a) => {
      let loads = 0;
      for (let u = a.value.firstUse; u; u = u.nextUse) {
        const o = u.owner;
        if (o.name === 'pim.memcp_hd' && u.index === 0) {
          const size = o.getProperty('size') as unknown as { value: bigint | number };
          if (Number(size.value) !== a.bytes) return false;
          loads++;
        } else if (!(o.name === 'pim.memcp' && u.index === 1)) return false;
      }
      return loads === 1;
    });
    const hostBound = liveBytesLowerBound(
      allocations.filter((_, i) => !staging[i]).map((a, i) => ({ id: i, size: a.bytes, start: firstUse[a.ordinal]!, end: a.end })),
      4,
    ).bytes;
    hosted = Math.max(hosted, hostBound);
    // Buffers sized by the bytes their accesses reach ([0, furthest byte)), when every access is a
    // byte-addressed copy or transfer with a constant offset.
    const extent = allocations.map((a) => {
      let reach = 0;
      for (let u = a.value.firstUse; u; u = u.nextUse) {
        const o = u.owner;
        const size = Number((o.getProperty('size') as unknown as { value: bigint | number } | undefined)?.value ?? -1);
        const offsetOperand = o.name === 'pim.memcp' || o.name === 'pim.memcp_hd' || o.name === 'pim.memcp_dh' ? (u.index < 2 ? u.index + 2 : -1) : o.name === 'pim.receive' && u.index === 0 ? 1 : o.name === 'pim.send' && u.index === 0 ? -2 : -1;
        if (offsetOperand === -1 || size < 0) return a.bytes;
        const off = offsetOperand === -2 ? 0 : constantOf(o.getOperand(offsetOperand));
        if (off === undefined) return a.bytes;
        reach = Math.max(reach, off + size);
      }
      return Math.min(a.bytes, reach);
    });
    const extentBound = liveBytesLowerBound(allocations.map((a, i) => ({ id: i, size: extent[i]!, start: firstUse[i]!, end: a.end })), 4).bytes;
    extents = Math.max(extents, extentBound);
    over[4] += extentBound > capacity ? 1 : 0;
    over[0] += s.bound > capacity ? 1 : 0;
    over[1] += sunkBound > capacity ? 1 : 0;
    over[3] += hostBound > capacity ? 1 : 0;
    const groups = new Map<number, { size: number; start: number; end: number }>();
    allocations.forEach((a, i) => {
      const r = find(i);
      const g = groups.get(r) ?? { size: 0, start: Infinity, end: -1 };
      groups.set(r, { size: Math.max(g.size, a.bytes), start: Math.min(g.start, firstUse[i]!), end: Math.max(g.end, a.end) });
    });
    const viewBound = liveBytesLowerBound([...groups.values()].map((g, i) => ({ id: i, ...g })), 4).bytes;
    over[2] += viewBound > capacity ? 1 : 0;
    sunk = Math.max(sunk, sunkBound);
    viewed = Math.max(viewed, viewBound);
    const largest = allocations.reduce((m, a) => Math.max(m, a.bytes), 0);
    if (VERBOSE) console.log(`${describeStream(s.op)}: bound ${s.bound}; allocated at first use ${sunkBound}; whole copies as views too ${viewBound}; host staging read from the host ${hostBound}; buffers sized by their accesses ${extentBound}; largest buffer ${largest}`);
  }
  console.log(`worst bound ${streams[0]?.bound}; allocated at first use ${sunk}; whole copies as views ${viewed}; host staging buffers read from the host ${hosted}; buffers sized by their accesses ${extents}`);
  console.log(`streams over ${capacity} B: ${over[0]}; allocated at first use ${over[1]}; + whole copies as views ${over[2]}; allocated at first use + host staging read from the host ${over[3]}; allocated at first use + sized by their accesses ${over[4]}`);
  console.log(`${streams.length} streams; over ${capacity} B: ${streams.filter((s) => s.bound > capacity).length}`);
  for (const s of streams.slice(0, TOP)) {
    const ops: Operation[] = [];
    s.op.regions[0]!.firstBlock!.operations.forEach((o) => o.walk((x) => void ops.push(x)));
    const { allocations } = computeStreamLiveness(s.op, liveness);
    const live = allocations.filter((a) => a.start <= s.position && a.end >= s.position).sort((a, b) => b.bytes - a.bytes);
    console.log(`\n${describeStream(s.op)}: bound ${s.bound} B at op #${s.position} (${ops[s.position]?.name}), ${allocations.length} allocations, ${ops.length} ops, ${live.length} live there`);
    const byKind = new Map<string, number>();
    for (const a of live) {
      const uses: { pos: number; name: string }[] = [];
      for (let u = a.value.firstUse; u; u = u.nextUse) uses.push({ pos: ops.indexOf(u.owner), name: u.owner.name });
      uses.sort((x, y) => x.pos - y.pos);
      const first = uses[0];
      const last = uses[uses.length - 1];
      const kind = `${first?.name ?? '-'} .. ${last?.name ?? '-'}`;
      byKind.set(kind, (byKind.get(kind) ?? 0) + a.bytes);
      if (live.indexOf(a) < 25)
        console.log(
          `  #${a.ordinal} ${String(a.value.type)} ${a.bytes} B live [${a.start}, ${a.end}] uses ${uses.length}: first ${first?.name}@${first?.pos} last ${last?.name}@${last?.pos}; ` +
            uses.slice(0, 6).map((u) => `${u.name}@${u.pos}`).join(' '),
        );
    }
    console.log('  bytes by first..last use:');
    for (const [k, v] of [...byKind].sort((a, b) => b[1] - a[1])) console.log(`    ${v} B  ${k}`);
  }
}

main();
