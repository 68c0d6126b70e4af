import { computeBounds, createCostModel, defaultHardwareConfig, defaultTarget, mvmLatencyNs, weightLayerFromShape } from '@raptor-pim/pim-target';

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
    expect(cost.hostLoadNs(64)).toBe(2 * 40);
    expect(cost.hostStoreNs(64)).toBe(2 * 50);
    expect(cost.hops(0, 9)).toBe(2);
    expect(cost.transferNs(512, 0, 9)).toBe(16 * 4 * 2);
    expect(cost.transferNs(512, 3, 3)).toBe(0);
    expect(cost.mvmSequenceNs(3)).toBe(2601 + 2 * 200);
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
