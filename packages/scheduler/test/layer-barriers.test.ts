/**
 * The stages barriers separate (`layerStages`: runs of nodes no stream group crosses) and one
 * barrier's parts (`insertLayerBarrier`): the coordinator waits for every other core and releases
 * them, the others arrive and wait for their release; fewer than two cores need none.
 */
import { MLIRContext, parseSourceString, printOperation, verify } from '@raptor-pim/ir-core';
import { registerSpatialDialect } from '@raptor-pim/spatial-dialect';
import { defaultTarget } from '@raptor-pim/pim-target';
import { BARRIER_ARRIVE_REGISTER, BARRIER_RELEASE_REGISTER, LAYER_BARRIER_ATTR, insertLayerBarrier, layerStages, verifyCommunication } from '@raptor-pim/scheduler';

describe('layerStages', () => {
  it('joins overlapping stream groups into one stage', () => {
    // Nodes 1..2 stream into each other; node 4 streams into node 6 (node 5 lies in between).
    const s = layerStages({ first: [0, 1, 1, 3, 4, 5, 4], last: [0, 2, 2, 3, 6, 5, 6] }, 7);
    expect(s.ends).toEqual([0, 2, 3, 6]);
    expect(s.first).toEqual([0, 1, 1, 3, 4, 4, 4]);
    expect(s.last).toEqual([0, 2, 2, 3, 6, 6, 6]);
  });

  it('one stage per node without stream groups, none for no nodes', () => {
    expect(layerStages({ first: [0, 1, 2], last: [0, 1, 2] }, 3).ends).toEqual([0, 1, 2]);
    expect(layerStages({ first: [], last: [] }, 0).ends).toEqual([]);
  });
});

describe('insertLayerBarrier', () => {
  const parse = () => {
    const ctx = new MLIRContext();
    registerSpatialDialect(ctx);
    const module = parseSourceString(ctx, 'func.func @main() {\n  return\n}', { filename: 'empty.mlir' })!;
    return module;
  };

  it('three cores: one part per core, the coordinator (lowest core) first; the checker accepts them', () => {
    const module = parse();
    const block = module.regions[0]!.firstBlock!.firstOp!.regions[0]!.firstBlock!;
    const ret = block.firstOp!;
    // The parts go right after the anchor (here the return, which then moves back to the end).
    insertLayerBarrier(ret, [2, 5, 9], ret.location);
    ret.moveAfter(block.lastOp!);
    expect(verify(module)).toBe(true);
    const text = printOperation(module);
    expect(text.match(new RegExp(LAYER_BARRIER_ATTR.replace('.', '\\.'), 'g'))?.length).toBe(3);
    expect(text).toContain(`coreId 2 crossbarWeights 0 attributes {${LAYER_BARRIER_ATTR}}`);
    expect(verifyCommunication(module, defaultTarget()).diagnostics.map((d) => d.message)).toEqual([]);
    expect(BARRIER_ARRIVE_REGISTER).not.toBe(BARRIER_RELEASE_REGISTER);
  });

  it('one core: nothing to wait for, nothing inserted', () => {
    const module = parse();
    const before = printOperation(module);
    const ret = module.regions[0]!.firstBlock!.firstOp!.regions[0]!.firstBlock!.firstOp!;
    insertLayerBarrier(ret, [3], ret.location);
    expect(printOperation(module)).toBe(before);
  });
});
