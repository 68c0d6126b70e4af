import { PROGRAM_ELEMENT_BITS, computeBounds, createCostModel, defaultHardwareConfig, defaultTarget, mvmLatencyNs, weightLayerFromShape } from '@raptor-pim/pim-target';

describe('cost model', () => {
  const cost = createCostModel(defaultTarget());

  it('derives the MVM latency of hardware-defaults.md (2601 ns at 16 bits, 1305 ns at 8 bits)', () => {
    expect(mvmLatencyNs(defaultHardwareConfig(), 16)).toBe(2601);
    expect(mvmLatencyNs(defaultHardwareConfig(), 8)).toBe(1305);
    expect(cost.mvmNs).toBe(2601);
  });

  it('prices vector ops, copies, host transfers and NoC transfers from the configuration', () => {
    expect(cost.vectorNs(33)).toBe(2 * 4);
    expect(cost.localCopyNs(65)).toBe(2 * (20 + 30));
    // ld: 1-flit request to the global memory (4 ns), 2 beats of 40 ns, one 30 ns local write.
    expect(cost.hostLoadNs(64)).toBe(4 + 2 * 40 + 30);
    // st: one 20 ns local read, 2 flits of 4 ns, 2 beats of 50 ns.
    expect(cost.hostStoreNs(64)).toBe(20 + 2 * 4 + 2 * 50);
    expect(cost.hostPortNs(64, false)).toBe(2 * 40);
    expect(cost.hostPortNs(64, true)).toBe(2 * 50);
    expect(cost.hops(0, 9)).toBe(2);
    expect(cost.transferNs(512, 0, 9)).toBe(16 * 4 * 2);
    expect(cost.transferNs(512, 3, 3)).toBe(0);
    expect(cost.mvmSequenceNs(3)).toBe(2601 + 2 * 200);
  });

  it('prices instructions as pimsim-nn times them at the program element width (f32, pim-isa.md §12)', () => {
    expect(PROGRAM_ELEMENT_BITS).toBe(32);
    expect(cost.programElementBytes).toBe(4);
    expect(cost.programMvmNs).toBe(mvmLatencyNs(defaultHardwareConfig(), 32));
    // mvmul: read 128 x 4 x 8 B (64 beats of 20 ns), T_mvm at 32 bits, write 128 x 4 B per crossbar (8 or 16 beats of 30 ns).
    expect(cost.mvmUnitNs(1)).toBe(64 * 20 + cost.programMvmNs + 8 * 30);
    expect(cost.mvmUnitNs(2)).toBe(64 * 20 + cost.programMvmNs + 16 * 30);
    expect(cost.mvmInputReadNs()).toBe(64 * 20);
    // vvadd of 128 f32: two 512 B reads, 4 steps of 4 ns, one 512 B write.
    expect(cost.vectorOpNs(128, 2)).toBe(2 * 8 * 20 + 4 * 4 + 8 * 30);
    expect(cost.vectorOpNs(128, 1)).toBe(8 * 20 + 4 * 4 + 8 * 30);
    expect(cost.localFillNs(4096)).toBe(64 * 30);
    // send 512 B from core 36 to core 28 (one hop, 4 ns per flit): ready and reply flits, local read; then 16 data flits and the write.
    expect(cost.sendNs(512, 36, 28)).toBe(4 + 4 + 8 * 20);
    expect(cost.deliverNs(512, 36, 28)).toBe(16 * 4 + 8 * 30);
    expect(cost.sendNs(512, 5, 5)).toBe(0);
  });

  it('follows the configuration: a smaller mesh and a slower vector unit change the numbers', () => {
    const config = defaultHardwareConfig();
    config.chip_config.core_config.vector_latency_cycle = 10;
    config.chip_config.network_config.layout = [2, 2];
    const small = createCostModel(config);
    expect(small.vectorNs(32)).toBe(10);
    expect(small.hops(0, 3)).toBe(2);
  });
});

describe('bounds B0-B5', () => {
  const cost = createCostModel(defaultTarget());

  it('reproduces the worked example: sum(P*X) = 163,888 on 4096 crossbars gives B1 = 104 us', () => {
    const b = computeBounds(cost, {
      layers: [{ name: 'all', crossbars: 1, arrayGroups: 1, vectors: 163_888, outputColumns: 1 }],
      vectorElements: 0,
      ioBytes: 0,
      spilledBytes: 0,
      criticalPath: [],
    });
    expect(Math.round(b.b1Ns / 1000)).toBe(104);
  });

  it('reports B0 failure with the largest layer', () => {
    const layers = [weightLayerFromShape(cost, 'fc1', 128 * 100, 128 * 50, 1), weightLayerFromShape(cost, 'fc2', 128, 10, 1)];
    const b = computeBounds(cost, { layers, vectorElements: 0, ioBytes: 0, spilledBytes: 0, criticalPath: [0, 1] });
    expect(b.crossbarsNeeded).toBe(5001);
    expect(b.fits).toBe(false);
    expect(b.largestLayer).toEqual({ name: 'fc1', crossbars: 5000 });
  });

  it('takes the latency bound over the critical path and the period over B1-B4', () => {
    const layers = [weightLayerFromShape(cost, 'fc1', 784, 128, 1), weightLayerFromShape(cost, 'fc2', 128, 10, 1)];
    const b = computeBounds(cost, { layers, vectorElements: 138, ioBytes: 784 * 2 + 20, spilledBytes: 0, criticalPath: [0, 1] });
    expect(layers[0]).toMatchObject({ arrayGroups: 7, crossbars: 7 });
    expect(b.b5Ns).toBeGreaterThan(2 * 2601);
    expect(b.latencyMinNs).toBe(Math.max(b.b1Ns, b.b2Ns, b.b3Ns, b.b4Ns, b.b5Ns));
    expect(b.throughputMax).toBeCloseTo(1e9 / Math.max(b.b1Ns, b.b2Ns, b.b3Ns, b.b4Ns));
  });
});
