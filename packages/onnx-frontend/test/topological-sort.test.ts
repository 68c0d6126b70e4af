import fc from 'fast-check';
import { type OnnxNode, sortNodes } from '@raptor-pim/onnx-frontend';

const mk = (index: number, inputs: string[], outputs: string[]): OnnxNode => ({ name: `n${index}`, index, opType: 'Op', domain: '', inputs, outputs, attributes: new Map() });

/** A random DAG: node i reads outputs of earlier nodes (and graph input 'x'), then shuffled. */
const dag = fc
  .array(fc.array(fc.nat(), { maxLength: 3 }), { minLength: 1, maxLength: 40 })
  .chain((deps) => fc.shuffledSubarray(deps.map((_, i) => i), { minLength: deps.length, maxLength: deps.length }).map((order) => ({ deps, order })));

describe('sortNodes', () => {
  it('orders any shuffled DAG so every value is produced before use (property)', () => {
    fc.assert(
      fc.property(dag, ({ deps, order }) => {
        const nodes = order.map((i, k) => mk(k, i === 0 ? ['x'] : deps[i]!.map((d) => `v${d % i}`), [`v${i}`]));
        const r = sortNodes(nodes);
        expect('nodes' in r).toBe(true);
        if (!('nodes' in r)) return;
        const seen = new Set(['x']);
        for (const n of r.nodes) {
          for (const input of n.inputs) expect(seen.has(input)).toBe(true);
          n.outputs.forEach((o) => seen.add(o));
        }
        expect(r.nodes).toHaveLength(nodes.length);
      }),
    );
  });

  it('reports exactly the nodes of a cycle, not those downstream', () => {
    const nodes = [mk(0, ['x', 'c'], ['a']), mk(1, ['a'], ['b']), mk(2, ['b'], ['c']), mk(3, ['c'], ['d']), mk(4, ['x'], ['e'])];
    const r = sortNodes(nodes);
    expect('cycle' in r && r.cycle.map((n) => n.name)).toEqual(['n0', 'n1', 'n2']);
  });

  it('a self-loop is a cycle', () => {
    const r = sortNodes([mk(0, ['a'], ['a'])]);
    expect('cycle' in r && r.cycle.map((n) => n.name)).toEqual(['n0']);
  });

  it('sorts a reversed 50000-node chain in linear time', () => {
    const n = 50000;
    const nodes = Array.from({ length: n }, (_, k) => {
      const i = n - 1 - k;
      return mk(k, [i === 0 ? 'x' : `v${i - 1}`], [`v${i}`]);
    });
    const start = performance.now();
    const r = sortNodes(nodes);
    expect(performance.now() - start).toBeLessThan(3000);
    expect('nodes' in r && r.nodes[0]!.outputs[0]).toBe('v0');
  });
});
