/**
 * Materialization of hand-made plans (the building blocks a strategy uses): equivalent
 * replicas on cores of their own become one `spat.scheduled_compute_batch` with lane
 * expressions for peers, channels and slots; a replica sharing its core stays a
 * `spat.scheduled_compute`. Every form passes the communication checks and computes exactly
 * what the graph computes did, layer and window granularity alike.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FloatType, IntegerAttr, MLIRContext, ShapedValue, parseSourceString, printOperation, verify, type Operation, type Value } from '@raptor-pim/ir-core';
import { registerSpatialDialect } from '@raptor-pim/spatial-dialect';
import { createCostModel, defaultTarget } from '@raptor-pim/pim-target';
import { Workload, materializeSchedule, planReads, verifyCommunication, type Granularity, type SchedulePlan } from '@raptor-pim/scheduler';
import { run } from './helpers';
import { lowerShared } from './models';

const FIXTURES = path.join(__dirname, 'fixtures');

function parse(): { ctx: MLIRContext; module: Operation; func: Operation } {
  const ctx = new MLIRContext();
  registerSpatialDialect(ctx);
  const module = parseSourceString(ctx, fs.readFileSync(path.join(FIXTURES, 'materialize-batch.mlir'), 'utf8'), { filename: 'materialize-batch.mlir' })!;
  expect(verify(module)).toBe(true);
  return { ctx, module, func: module.regions[0]!.firstBlock!.firstOp! };
}

function input(ctx: MLIRContext): ShapedValue {
  const v = ShapedValue.allocate('tensor', FloatType.f32(ctx), [1, 16])!;
  (v.data as Float32Array).set(Array.from({ length: 16 }, (_, i) => ((i * 7) % 11) - 5));
  return v;
}

/** Materializes `plan` (ReLU lanes on `reluCores`, the weighted compute on `outCore`); the scheduled module. */
function schedule(reluCores: number[], outCore: number, granularity: Granularity = 'layer'): { ctx: MLIRContext; module: Operation; expected: ReturnType<typeof run> } {
  const { ctx, module, func } = parse();
  const expected = run(module, 'main', [input(ctx)]);
  const target = defaultTarget();
  const cost = createCostModel(target);
  const workload = new Workload(func, cost);
  expect(workload.nodes.length).toBe(2);
  const plan: SchedulePlan = {
    strategy: 'test',
    transfer: 'channel',
    pipelined: true,
    placements: [
      { replicas: reluCores.length, copies: 1, cores: reluCores, granularity },
      { replicas: 1, copies: 1, cores: [outCore], granularity },
    ],
  };
  materializeSchedule(workload, plan, planReads(workload, plan), cost);
  expect(verify(module)).toBe(true);
  expect(verifyCommunication(module, target).diagnostics.map((d) => d.message)).toEqual([]);
  return { ctx, module, expected };
}

function opsNamed(module: Operation, name: string): Operation[] {
  const out: Operation[] = [];
  module.walk((op: Operation) => {
    if (op.name === name) out.push(op);
  });
  return out;
}

describe('materializeSchedule: batches of equivalent replicas', () => {
  it('four replicas on cores of their own are one scheduled_compute_batch (peers as lane expressions)', () => {
    const { ctx, module, expected } = schedule([5, 2, 7, 11], 0);
    const batches = opsNamed(module, 'spat.scheduled_compute_batch');
    expect(batches).toHaveLength(1);
    expect(printOperation(batches[0]!)).toMatch(/^spat\.scheduled_compute_batch %lane = 0 to 4 .* coreIds \[5, 2, 7, 11\]/m);
    // One body: one ReLU per round, not one per replica.
    expect(opsNamed(module, 'spat.relu')).toHaveLength(1);
    expect(opsNamed(module, 'spat.scheduled_compute')).toHaveLength(1);
    expect(run(module, 'main', [input(ctx)])).toEqual(expected);
    const golden = path.join(FIXTURES, 'golden', 'materialize-batch.layer.mlir');
    const text = printOperation(module) + '\n';
    if (process.env['UPDATE_GOLDEN']) fs.writeFileSync(golden, text);
    expect(text).toBe(fs.readFileSync(golden, 'utf8'));
    const again = parseSourceString(ctx, text, { filename: golden });
    expect(again && verify(again)).toBe(true);
  });

  it('two rounds per replica: the graph lane of a round is a lane expression', () => {
    const { ctx, module, expected } = schedule([3, 9], 0);
    const batches = opsNamed(module, 'spat.scheduled_compute_batch');
    expect(batches).toHaveLength(1);
    expect(opsNamed(module, 'spat.relu')).toHaveLength(2);
    expect(run(module, 'main', [input(ctx)])).toEqual(expected);
  });

  it('a replica sharing its core with another node stays a scheduled_compute; the others form the batch', () => {
    const { ctx, module, expected } = schedule([0, 9, 10, 11], 0);
    const batches = opsNamed(module, 'spat.scheduled_compute_batch');
    expect(batches).toHaveLength(1);
    expect(printOperation(batches[0]!)).toMatch(/coreIds \[9 to 11\]/);
    expect(opsNamed(module, 'spat.scheduled_compute').length).toBeGreaterThanOrEqual(2);
    expect(run(module, 'main', [input(ctx)])).toEqual(expected);
  });

  it('window granularity: sends after every round, inside the batch body', () => {
    const { ctx, module, expected } = schedule([4, 1, 6, 8], 0, 'window');
    expect(opsNamed(module, 'spat.scheduled_compute_batch')).toHaveLength(1);
    expect(run(module, 'main', [input(ctx)])).toEqual(expected);
  });

  it('is deterministic (byte-identical output)', () => {
    expect(printOperation(schedule([5, 2, 7, 11], 0).module)).toBe(printOperation(schedule([5, 2, 7, 11], 0).module));
  });
});

describe('materializeSchedule: event registers of host slots', () => {
  /** A chain of four ReLU computes; the plan puts them on cores 0, 1, 2, 1 with host slots. */
  const CHAIN = `
func.func @main(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %a = spat.graph_compute [] = [] (%i) = (%x) crossbarWeights 0 : [] (tensor<1x4xf32>) -> tensor<1x4xf32> {
    %v = spat.relu(%i) : tensor<1x4xf32> -> tensor<1x4xf32>
    spat.yield %v : tensor<1x4xf32>
  }
  %b = spat.graph_compute [] = [] (%i) = (%a) crossbarWeights 0 : [] (tensor<1x4xf32>) -> tensor<1x4xf32> {
    %v = spat.vadd %i, %i : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    spat.yield %v : tensor<1x4xf32>
  }
  %c = spat.graph_compute [] = [] (%i) = (%b) crossbarWeights 0 : [] (tensor<1x4xf32>) -> tensor<1x4xf32> {
    %v = spat.vmul %i, %i : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    spat.yield %v : tensor<1x4xf32>
  }
  %d = spat.graph_compute [] = [] (%i) = (%c) crossbarWeights 0 : [] (tensor<1x4xf32>) -> tensor<1x4xf32> {
    %v = spat.vsub %i, %i : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    spat.yield %v : tensor<1x4xf32>
  }
  return %d : tensor<1x4xf32>
}`;

  it('a READY register passes to a slot stored after the previous load; FREE follows that load', () => {
    const ctx = new MLIRContext();
    registerSpatialDialect(ctx);
    const module = parseSourceString(ctx, CHAIN, { filename: 'chain.mlir' })!;
    expect(verify(module)).toBe(true);
    const x = ShapedValue.allocate('tensor', FloatType.f32(ctx), [1, 4])!;
    (x.data as Float32Array).set([1, -2, 3, -4]);
    const expected = run(module, 'main', [x]);
    const target = defaultTarget();
    const cost = createCostModel(target);
    const workload = new Workload(module.regions[0]!.firstBlock!.firstOp!, cost);
    const place = (core: number) => ({ replicas: 1, copies: 1, cores: [core], granularity: 'layer' as const });
    const plan: SchedulePlan = { strategy: 'test', transfer: 'host', pipelined: false, placements: [place(0), place(1), place(2), place(1)] };
    const done = materializeSchedule(workload, plan, planReads(workload, plan), cost);
    expect(done.hostSlots).toBe(3);
    expect(verify(module)).toBe(true);
    expect(verifyCommunication(module, target).diagnostics.map((d) => d.message)).toEqual([]);
    expect(run(module, 'main', [x])).toEqual(expected);
    // Core 1 loads the slot of node 0 (in node 1) and of node 2 (in node 3) on one READY register.
    const intOf = (v: Value): number => Number((v.definingOp!.getAttr('value') as IntegerAttr).value);
    const loads = opsNamed(module, 'spat.host_wait_load').filter((op) => intOf(op.getOperand(1)) === 1);
    expect(loads).toHaveLength(2);
    expect(intOf(loads[0]!.getOperand(3))).toBe(intOf(loads[1]!.getOperand(3)));
    // Its FREE for node 2's slot is sent by core 1 right after the first load, not at stream entry.
    const first = loads[0]!;
    expect(first.next?.name).toBe('spat.sync');
    expect(intOf(first.next!.getOperand(0))).toBe(2);
  });
});

describe('materializeSchedule: batches beside send tasks', () => {
  // lenet5's conv1 (56 lanes of 14 packed pixels, its ReLU fused) feeds a compute of 28 row lanes. conv1's
  // replicas sit on cores 2 and 1, its reader's on cores 1 and 2: each reader replica reads the
  // other core, so each core makes a send task for the reader replica on the other one.
  // Batched, both send tasks would precede the batch and each core would send before it
  // receives (a cycle); the reader's replicas stay scheduled computes in the global transfer
  // order instead.
  it('a replica whose core sends to another replica of its node is not a batch lane (no cross-core cycle)', () => {
    const m = lowerShared('lenet5');
    if (!m) return;
    const reference = run(m.module, m.fn, m.args);
    const target = defaultTarget();
    const cost = createCostModel(target);
    const func = m.module.regions[0]!.firstBlock!.operations.find((o) => o.name === 'func.func')!;
    const workload = new Workload(func, cost);
    const conv = workload.nodes.findIndex((n) => n.name.endsWith('conv1') && n.crossbars > 0);
    const relu = workload.nodes.findIndex((n) => n.inputs.some((i) => i.sources.some((x) => x.producer === conv)));
    expect(workload.nodes[conv]!.lanes).toBe(56);
    expect(workload.nodes[relu]!.lanes).toBe(28);
    const plan: SchedulePlan = {
      strategy: 'test',
      transfer: 'channel',
      pipelined: true,
      placements: workload.nodes.map((n) =>
        n.index === conv
          ? { replicas: 2, copies: 1, cores: [2, 1], granularity: 'layer' as const }
          : n.index === relu
            ? { replicas: 2, copies: 1, cores: [1, 2], granularity: 'layer' as const }
            : { replicas: 1, copies: 1, cores: [10 + n.index], granularity: 'layer' as const },
      ),
    };
    materializeSchedule(workload, plan, planReads(workload, plan), cost);
    expect(verify(m.module)).toBe(true);
    expect(verifyCommunication(m.module, target).diagnostics.map((d) => d.message)).toEqual([]);
    expect(run(m.module, m.fn, m.args)).toEqual(reference);
  });
});

describe('materializeSchedule: slot registers only', () => {
  // 40 producer replicas on cores 0..39, one reader on core 40 loading every slot: one READY
  // register per slot and reader needs 40 of core 40's event registers.
  const FAN_IN = `
func.func @main(%x: tensor<40x4xf32>) -> tensor<40x1x4xf32> {
  %f = spat.graph_compute_batch %lane = 0 to 40 [] = [] (%arg) = (%x) shared_outs(%out) crossbarWeights 0 : [] (tensor<40x4xf32>) -> tensor<40x1x4xf32> {
    %row = tensor.extract_slice %arg[%lane, 0] [1, 4] [1, 1] : tensor<40x4xf32> to tensor<1x4xf32>
    %v = spat.relu(%row) : tensor<1x4xf32> -> tensor<1x4xf32>
    spat.in_parallel {
      tensor.parallel_insert_slice %v into %out[%lane, 0, 0] [1, 1, 4] [1, 1, 1] : tensor<1x4xf32> into tensor<40x1x4xf32>
    }
  }
  %y = spat.graph_compute [] = [] (%a) = (%f) crossbarWeights 0 : [] (tensor<40x1x4xf32>) -> tensor<40x1x4xf32> {
    %v = spat.vmul %a, %a : (tensor<40x1x4xf32>, tensor<40x1x4xf32>) -> tensor<40x1x4xf32>
    spat.yield %v : tensor<40x1x4xf32>
  }
  return %y : tensor<40x1x4xf32>
}`;

  it('counts the slots falling back for want of registers without building anything, as the full materialization does', () => {
    const target = defaultTarget();
    const cost = createCostModel(target);
    const x = (ctx: MLIRContext) => {
      const v = ShapedValue.allocate('tensor', FloatType.f32(ctx), [40, 4])!;
      (v.data as Float32Array).set(Array.from({ length: 160 }, (_, i) => ((i * 7) % 11) - 5));
      return v;
    };
    const setup = () => {
      const ctx = new MLIRContext();
      registerSpatialDialect(ctx);
      const module = parseSourceString(ctx, FAN_IN, { filename: 'fan-in.mlir' })!;
      expect(verify(module)).toBe(true);
      const workload = new Workload(module.regions[0]!.firstBlock!.firstOp!, cost);
      const plan: SchedulePlan = {
        strategy: 'test',
        transfer: 'host',
        pipelined: false,
        placements: [
          { replicas: 40, copies: 1, cores: Array.from({ length: 40 }, (_, i) => i), granularity: 'layer' },
          { replicas: 1, copies: 1, cores: [40], granularity: 'layer' },
        ],
      };
      return { ctx, module, workload, plan, reads: planReads(workload, plan) };
    };
    const probe = setup();
    const before = printOperation(probe.module);
    const perSlot = materializeSchedule(probe.workload, probe.plan, probe.reads, cost, { slotRegistersOnly: true });
    const grouped = materializeSchedule(probe.workload, probe.plan, probe.reads, cost, { slotRegistersOnly: true, groupReadyRegisters: true });
    expect(printOperation(probe.module)).toBe(before);
    expect(perSlot.hostFallbacks).toBeGreaterThan(0);
    expect(perSlot.hostSlots + perSlot.hostFallbacks).toBe(40);
    expect(grouped.hostFallbacks).toBe(0);
    expect(grouped.hostSlots).toBe(40);
    for (const [options, only] of [[{}, perSlot], [{ groupReadyRegisters: true }, grouped]] as const) {
      const s = setup();
      const expected = run(s.module, 'main', [x(s.ctx)]);
      const done = materializeSchedule(s.workload, s.plan, s.reads, cost, options);
      expect([done.hostSlots, done.hostFallbacks]).toEqual([only.hostSlots, only.hostFallbacks]);
      expect(verify(s.module)).toBe(true);
      expect(run(s.module, 'main', [x(s.ctx)])).toEqual(expected);
    }
  });
});

describe('materializeSchedule: layer barriers where the event registers run out', () => {
  // A chain of 70 computes alternating between cores 0 and 1, every result through a host slot:
  // each core writes 35 slots, one FREE register each for its whole stream, more than its 32.
  const CHAIN = 70;
  const chain = (): string => {
    const lines = ['func.func @main(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {'];
    let prev = '%x';
    for (let i = 0; i < CHAIN; i++) {
      const op = i % 2 ? 'spat.vadd %a, %a : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>' : 'spat.relu(%a) : tensor<1x4xf32> -> tensor<1x4xf32>';
      lines.push(`  %y${i} = spat.graph_compute [] = [] (%a) = (${prev}) crossbarWeights 0 : [] (tensor<1x4xf32>) -> tensor<1x4xf32> {`, `    %v = ${op}`, '    spat.yield %v : tensor<1x4xf32>', '  }');
      prev = `%y${i}`;
    }
    lines.push(`  return ${prev} : tensor<1x4xf32>`, '}');
    return lines.join('\n');
  };
  const setup = () => {
    const ctx = new MLIRContext();
    registerSpatialDialect(ctx);
    const module = parseSourceString(ctx, chain(), { filename: 'chain.mlir' })!;
    expect(verify(module)).toBe(true);
    const cost = createCostModel(defaultTarget());
    const workload = new Workload(module.regions[0]!.firstBlock!.firstOp!, cost);
    const plan: SchedulePlan = {
      strategy: 'test',
      transfer: 'host',
      pipelined: false,
      placements: workload.nodes.map((n) => ({ replicas: 1, copies: 1, cores: [n.index % 2], granularity: 'layer' as const })),
    };
    const v = ShapedValue.allocate('tensor', FloatType.f32(ctx), [1, 4])!;
    (v.data as Float32Array).set([-1.5, 0.25, 2, -0.125]);
    return { ctx, module, workload, plan, cost, input: v };
  };

  it('orders the stages by barriers instead of FREE signals: no slot falls back, the checks pass, same values', () => {
    const s = setup();
    const expected = run(s.module, 'main', [s.input]);
    const perSlot = materializeSchedule(s.workload, s.plan, planReads(s.workload, s.plan), s.cost, { slotRegistersOnly: true });
    expect(perSlot.hostFallbacks).toBeGreaterThan(0);
    const probe = materializeSchedule(s.workload, s.plan, planReads(s.workload, s.plan), s.cost, { slotRegistersOnly: true, groupReadyRegisters: true });
    expect([probe.hostSlots, probe.hostFallbacks]).toEqual([CHAIN - 1, 0]);
    const done = materializeSchedule(s.workload, s.plan, planReads(s.workload, s.plan), s.cost, { groupReadyRegisters: true });
    expect([done.hostSlots, done.hostFallbacks, done.barriers]).toEqual([CHAIN - 1, 0, CHAIN]);
    expect(verify(s.module)).toBe(true);
    const check = verifyCommunication(s.module, defaultTarget());
    expect(check.diagnostics.map((d) => d.message)).toEqual([]);
    expect(check.deadlock).toBeUndefined();
    const text = printOperation(s.module);
    expect(text.match(/spat\.layer_barrier/g)?.length).toBe(2 * CHAIN);
    // No FREE wait on the slots: the only spat.wait ops are the barriers' (one per part).
    expect(text.match(/spat\.wait /g)?.length).toBe(2 * CHAIN);
    expect(run(s.module, 'main', [s.input])).toEqual(expected);
  });

  it('is not used when turned off: the slots fall back to channels', () => {
    const s = setup();
    const done = materializeSchedule(s.workload, s.plan, planReads(s.workload, s.plan), s.cost, { groupReadyRegisters: true, layerBarriers: false });
    expect(done.hostFallbacks).toBeGreaterThan(0);
    expect(done.barriers).toBeUndefined();
  });
});
