/** The destination-style interface names the destination operand of every pim op that writes one. */
import { DestinationStyleOpInterface, type Operation } from '@raptor-pim/ir-core';
import { getPimDestination } from '../../src';
import { parseVerified } from '../helpers';
import * as fs from 'node:fs';
import * as path from 'node:path';

const source = fs.readFileSync(path.resolve(__dirname, '../fixtures/reference/examples.mlir'), 'utf8');

/** Operand index of the destination, per op (generic operand order). */
const DESTINATION: Record<string, number> = {
  'pim.concat': 2,
  'pim.memcp': 0,
  'pim.memcp_hd': 0,
  'pim.memcp_dh': 0,
  'pim.receive': 0,
  'pim.vmv': 0,
  'pim.transpose': 1,
  'pim.vmm': 2,
  'pim.vavg': 1,
  'pim.vrelu': 1,
  'pim.vsigm': 1,
  'pim.vsoftmax': 1,
  'pim.vtanh': 1,
  'pim.vvadd': 2,
  'pim.vvsub': 2,
  'pim.vvmul': 2,
  'pim.vvmax': 2,
  'pim.vvdmul': 2,
};

it('every destination-style op of the reference examples names its destination; the result has its type', () => {
  const seen = new Set<string>();
  for (const chunk of source.split('// -----')) {
    const module = parseVerified(chunk);
    module.walk((op: Operation) => {
      if (!op.name.startsWith('pim.')) return;
      const expected = DESTINATION[op.name];
      if (expected === undefined) {
        expect(op.getInterface(DestinationStyleOpInterface)).toBeUndefined();
        return;
      }
      seen.add(op.name);
      const dst = getPimDestination(op);
      expect(dst).toBe(op.getOperand(expected));
      expect(op.getResult(0).type).toBe(dst!.type);
    });
  }
  expect([...seen].sort()).toEqual(Object.keys(DESTINATION).sort());
});
