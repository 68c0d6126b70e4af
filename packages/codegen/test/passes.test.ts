/** The passes and the function API: registry, pipelines, recorded array groups, determinism, failures. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassRegistry, parsePassPipeline, printOperation, type Operation } from '@raptor-pim/ir-core';
import { HaltOp } from '@raptor-pim/pim-dialect';
import { defaultTarget, readBundle, validateBundle } from '@raptor-pim/pim-target';
import {
  ARRAY_GROUP_ATTR,
  ARRAY_GROUP_CROSSBARS_ATTR,
  AllocateArrayGroupsPass,
  BundleSinkKey,
  TargetContextKey,
  type BundleSink,
  EmitPass,
  Reporter,
  analyzeModule,
  emitBundle,
  registerCodegenPasses,
} from '../src';
import { expectClose, fixture, interpret, parseModule, randomValues, simulate } from './helpers';

const PROGRAMS = ['one-core-vmm', 'two-core-send-recv', 'host-sync-wait', 'data-movement', 'array-groups'];

function files(module: Operation): Map<string, Uint8Array> {
  const r = emitBundle(module, defaultTarget());
  if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  return new Map(r.files);
}

describe('determinism', () => {
  it.each(PROGRAMS)('%s: two parses give byte-identical bundle files', (name) => {
    const text = fixture(`programs/${name}.mlir`);
    const a = files(parseModule(text));
    const b = files(parseModule(text));
    expect([...a.keys()]).toEqual([...b.keys()]);
    for (const [k, v] of a) expect(Buffer.from(b.get(k)!).equals(Buffer.from(v))).toBe(true);
    expect([...a.keys()].sort()).toEqual(expect.arrayContaining(['config.json', 'manifest.json', 'memory.bin', 'core_0.pim']));
  });
});

describe('array groups', () => {
  const text = fixture('programs/array-groups.mlir');

  it('one group per distinct weight, wide weights span several crossbars, batch lanes get their own copy', () => {
    const r = emitBundle(parseModule(text), defaultTarget());
    if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
    expect(r.bundle.arrayGroupMap).toEqual([[1, 2], [1], [1]]);
    expect(r.bundle.weights.map((w) => [w.core, w.group, w.rows, w.cols])).toEqual([
      [0, 0, 4, 3],
      [0, 1, 3, 200],
      [1, 0, 4, 3],
      [2, 0, 4, 3],
    ]);
    const groups = r.bundle.programs[0]!.filter((i) => i.op === 'mvmul').map((i) => (i.op === 'mvmul' ? i.group : -1));
    expect(groups).toEqual([0, 0, 1]);
    expect(validateBundle(r.bundle).pimsimCompatible).toBe(true);
    expect(r.statistics.crossbars).toBe(5);
  });

  it('pim-sim matches the interpreter', () => {
    const r = emitBundle(parseModule(text), defaultTarget());
    if (!r.ok) throw new Error('emit failed');
    const x = randomValues(4, 3);
    const finals = interpret(parseModule(text), new Map([[0, x]]));
    const sim = simulate(r.bundle, { input_0: x });
    expectClose(sim.outputs.get('output_0')!, finals[1]!);
    expectClose(sim.outputs.get('output_1')!, finals[2]!);
  });

  it('pim-allocate-array-groups records the plan; pim-emit uses a recorded plan as given', () => {
    const module = parseModule(text);
    const pass = new AllocateArrayGroupsPass(defaultTarget());
    expect(pass.run(module)).toBe(true);
    const printed = printOperation(module);
    expect(printed).toContain(`${ARRAY_GROUP_CROSSBARS_ATTR} = array<i32: 1, 2>`);
    expect(printed).toContain(`${ARRAY_GROUP_ATTR} = 1 : i32`);
    const fresh = files(parseModule(text));
    const recorded = files(parseModule(printed));
    for (const [k, v] of fresh) expect(Buffer.from(recorded.get(k)!).equals(Buffer.from(v))).toBe(true);
    // A hand-edited plan (one more crossbar for group 0) is emitted as recorded.
    const edited = files(parseModule(printed.replace('array<i32: 1, 2>', 'array<i32: 2, 2>')));
    const config = JSON.parse(new TextDecoder().decode(edited.get('config.json'))) as { array_group_map: Record<string, number[]> };
    expect(config.array_group_map['core0']).toEqual([2, 2]);
  });
});

describe('passes', () => {
  it('registerCodegenPasses registers the three passes; a textual pipeline emits a bundle directory', () => {
    const registry = new PassRegistry();
    registerCodegenPasses(registry, defaultTarget());
    expect(registry.registeredPasses.map((p) => p.argument)).toEqual(['pim-allocate-array-groups', 'pim-emit', 'pim-verify-codegen']);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'codegen-'));
    try {
      const module = parseModule(fixture('programs/two-core-send-recv.mlir'));
      const pm = parsePassPipeline(module.context, `builtin.module(pim-verify-codegen,pim-allocate-array-groups,pim-emit{bundle-dir=${dir} json=true})`, registry);
      expect(pm).toBeDefined();
      expect(pm!.run(module).success).toBe(true);
      const names = fs.readdirSync(dir).sort();
      expect(names).toEqual(['config.json', 'core_0.json', 'core_0.pim', 'core_1.json', 'core_1.pim', 'manifest.json', 'memory.bin', 'network.json']);
      const read = readBundle(dir);
      expect(read.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      expect(read.value?.programs.length).toBe(2);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('pim-emit hands its bundle to the pass manager\'s raptor.bundle sink', () => {
    const registry = new PassRegistry();
    registerCodegenPasses(registry);
    const module = parseModule(fixture('programs/one-core-vmm.mlir'));
    const pm = parsePassPipeline(module.context, 'builtin.module(pim-emit)', registry)!;
    const sink: BundleSink = {};
    pm.setContext(BundleSinkKey, sink);
    pm.setContext(TargetContextKey, defaultTarget());
    expect(pm.run(module).success).toBe(true);
    expect(sink.bundle?.programs[0]?.length).toBe(9);
    expect(sink.statistics?.elementType).toBe('f32');
  });

  it('the three passes of a pipeline evaluate the module once (its warning is reported once)', () => {
    const registry = new PassRegistry();
    registerCodegenPasses(registry, defaultTarget());
    const text = `func.func @main() {
  pim.core [] = [] coreId 0 attributes {pim.local_memory_size = 16 : i32} : [] -> () {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    pim.sync %c1 event %c0
    pim.halt
  }
  pim.core [] = [] coreId 1 attributes {pim.local_memory_size = 16 : i32} : [] -> () {
    pim.halt
  }
  return
}`;
    const module = parseModule(text);
    const pm = parsePassPipeline(module.context, 'builtin.module(pim-verify-codegen,pim-allocate-array-groups,pim-emit)', registry)!;
    const { result, diagnostics } = module.context.diagnostics.capture(() => pm.run(module));
    expect(result.success).toBe(true);
    expect(diagnostics.map((d) => d.message)).toEqual([expect.stringContaining('1 signals reach event register 0 of core 1, its waits consume 0')]);
  });

  it('pim-emit keeps the bundle in memory without bundle-dir', () => {
    const pass = new EmitPass(defaultTarget());
    expect(pass.run(parseModule(fixture('programs/one-core-vmm.mlir')))).toBe(true);
    expect(pass.bundle?.programs[0]![0]).toEqual({ op: 'setbw', ibiw: 32, obiw: 32 });
  });
});

describe('memref.global', () => {
  it('a constant global as host data (memory.bin) and as a resident weight', () => {
    const text = `memref.global "private" constant @table : memref<1x4xf32> = dense<[[1.5, -2.0, 3.25, 0.5]]>
memref.global "private" constant @weights : memref<4x2xf32> = dense<[[1.0, 0.0], [0.0, 1.0], [2.0, 2.0], [-1.0, 1.0]]>
func.func @main(%y: memref<1x2xf32>) {
  pim.core [] = [] coreId 0 attributes {pim.local_memory_size = 32 : i32} : [] -> () {
    %c0 = arith.constant 0 : index
    %t = memref.get_global @table : memref<1x4xf32>
    %w = memref.get_global @weights : memref<4x2xf32>
    %a = memref.alloc() {pim.address = 0 : i64} : memref<1x4xf32>
    %b = memref.alloc() {pim.address = 16 : i64} : memref<1x2xf32>
    %l = pim.memcp_hd[%c0, %c0](%a, %t) {size = 16 : i32} : memref<1x4xf32>, memref<1x4xf32> -> memref<1x4xf32>
    %v = pim.vmm[%w](%l, %b) : (memref<4x2xf32>, memref<1x4xf32>, memref<1x2xf32>) -> memref<1x2xf32>
    %o = pim.memcp_dh[%c0, %c0](%y, %v) {size = 8 : i32} : memref<1x2xf32>, memref<1x2xf32> -> memref<1x2xf32>
    pim.halt
  }
  return
}`;
    const r = emitBundle(parseModule(text), defaultTarget());
    if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
    const table = r.bundle.memoryImage!;
    const at = 8; // after %y (8 bytes)
    expect(Array.from(new Float32Array(table.buffer.slice(at, at + 16)))).toEqual([1.5, -2.0, 3.25, 0.5]);
    expect(r.bundle.weights.map((w) => [w.rows, w.cols])).toEqual([[4, 2]]);
    const out = simulate(r.bundle, {}).outputs.get('output_0')!;
    expect(Array.from(out)).toEqual([1.5 + 6.5 - 0.5, -2.0 + 6.5 + 0.5]);
    expect(Array.from(out)).toEqual(Array.from(interpret(parseModule(text), new Map())[0]!));
  });
});

describe('failures', () => {
  it('an f16 global whose initial value the memory image cannot hold', () => {
    const text = `memref.global "private" constant @half : memref<4xf16> = dense<[1.0, 2.0, 3.0, 4.0]>
func.func @main(%y: memref<4xf16>) {
  pim.core [] = [] coreId 0 attributes {pim.local_memory_size = 8 : i32} : [] -> () {
    %c0 = arith.constant 0 : index
    %t = memref.get_global @half : memref<4xf16>
    %a = memref.alloc() {pim.address = 0 : i64} : memref<4xf16>
    %l = pim.memcp_hd[%c0, %c0](%a, %t) {size = 8 : i32} : memref<4xf16>, memref<4xf16> -> memref<4xf16>
    %o = pim.memcp_dh[%c0, %c0](%y, %l) {size = 8 : i32} : memref<4xf16>, memref<4xf16> -> memref<4xf16>
    pim.halt
  }
  return
}`;
    const r = emitBundle(parseModule(text), defaultTarget());
    expect(r.ok).toBe(false);
    expect(r.diagnostics.map((d) => d.message)).toEqual([expect.stringContaining('the initial value of @half has element type f16')]);
  });

  it('a module without core streams', () => {
    const module = parseModule('func.func @main() {\n  return\n}');
    const r = emitBundle(module, defaultTarget());
    expect(r.ok).toBe(false);
    expect(r.diagnostics.map((d) => d.message)).toEqual([expect.stringContaining('has no \'pim.core\' or \'pim.core_batch\' stream')]);
  });

  it('a stream whose halt was removed (unverified IR)', () => {
    const module = parseModule(fixture('programs/one-core-vmm.mlir'));
    module.walk((op) => {
      if (HaltOp.isInstance(op)) op.erase();
    });
    const r = emitBundle(module, defaultTarget());
    expect(r.ok).toBe(false);
    expect(r.diagnostics.map((d) => d.message)).toContain("'pim.core' op core stream must end with 'pim.halt'");
  });

  it('a vector operand misaligned for its f32 elements (target alignment 2)', () => {
    const target = defaultTarget();
    target.config.raptor_config.local_memory_alignment = 2;
    const module = parseModule(`func.func @main() {
  pim.core [] = [] coreId 0 attributes {pim.local_memory_size = 48 : i32} : [] -> () {
    %a = memref.alloc() {pim.address = 2 : i64} : memref<1x4xf32>
    %b = memref.alloc() {pim.address = 20 : i64} : memref<1x4xf32>
    %r = pim.vrelu(%a, %b) : (memref<1x4xf32>, memref<1x4xf32>) -> memref<1x4xf32>
    pim.halt
  }
  return
}`);
    const report = new Reporter();
    const { diagnostics } = module.context.diagnostics.capture(() => analyzeModule(module, target, report));
    expect(diagnostics.map((d) => d.message)).toEqual(["'pim.vrelu' op input is at local address 2, not aligned to its 4-byte f32 elements"]);
  });

  it('vsoftmax when the target allows it: emitted, runs in pim-sim like the interpreter (pimsim-nn would reject it)', () => {
    const target = defaultTarget();
    target.config.raptor_config.allow_vsoftmax = true;
    const text = `func.func @main(%x: memref<1x4xf32>, %y: memref<1x4xf32>) {
  pim.core [] = [] coreId 0 attributes {pim.local_memory_size = 16 : i32} : [] -> () {
    %c0 = arith.constant 0 : index
    %a = memref.alloc() {pim.address = 0 : i64} : memref<1x4xf32>
    %l = pim.memcp_hd[%c0, %c0](%a, %x) {size = 16 : i32} : memref<1x4xf32>, memref<1x4xf32> -> memref<1x4xf32>
    %s = pim.vsoftmax(%l, %l) : (memref<1x4xf32>, memref<1x4xf32>) -> memref<1x4xf32>
    %o = pim.memcp_dh[%c0, %c0](%y, %s) {size = 16 : i32} : memref<1x4xf32>, memref<1x4xf32> -> memref<1x4xf32>
    pim.halt
  }
  return
}`;
    const r = emitBundle(parseModule(text), target);
    if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
    expect(r.bundle.programs[0]!.some((i) => i.op === 'vsoftmax')).toBe(true);
    const x = randomValues(4, 5);
    const expected = interpret(parseModule(text), new Map([[0, x]]))[1]!;
    const got = simulate(r.bundle, { input_0: x }, target).outputs.get('output_0')!;
    got.forEach((v, i) => expect(v).toBeCloseTo(expected[i]!, 6));
  });
});
