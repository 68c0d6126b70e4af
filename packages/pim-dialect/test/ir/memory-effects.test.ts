/**
 * Memory effects of the pim ops: canonicalize and cse never remove or merge communication,
 * synchronization or buffer writes (golden: fixtures/effects/canonicalize-cse.expected.mlir).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { getMemoryEffects, type Operation } from '@raptor-pim/ir-core';
import { PimChannelResource, PimEventRegisterResource } from '../../src';
import { makeContext, parseVerified } from '../helpers';
import { expectGoldenCases, runCorePipeline } from '../../../../tools/test-support/golden-cases';

const dir = path.resolve(__dirname, '../fixtures/effects');

const count = (text: string, what: string) => text.split(what).length - 1;

test('canonicalize,cse keep every send, receive, sync, wait and buffer write', () => {
  const outputs = expectGoldenCases(path.join(dir, 'canonicalize-cse.mlir'), path.join(dir, 'canonicalize-cse.expected.mlir'), (text) =>
    runCorePipeline(parseVerified(text, makeContext()), 'builtin.module(canonicalize,cse)'),
  );
  const [comm, buffers, tensors] = outputs as [string, string, string];
  for (const op of ['pim.send', 'pim.receive', 'pim.sync', 'pim.wait']) expect(count(comm, op)).toBe(2);
  expect(count(buffers, 'pim.vvadd')).toBe(2);
  expect(count(buffers, 'pim.memcp')).toBe(1);
  // The control: on tensors the duplicate is merged and the dead op erased.
  expect(count(tensors, 'pim.vvadd')).toBe(2);
  expect(count(tensors, 'pim.vrelu')).toBe(0);
});

test('the effects name the channel and event-register resources', () => {
  const ctx = makeContext();
  const m = parseVerified(fs.readFileSync(path.join(dir, 'canonicalize-cse.mlir'), 'utf8').split('// -----')[0]!, ctx);
  const byName = new Map<string, string[]>();
  m.walk((op: Operation) => {
    const e = getMemoryEffects(op);
    if (op.name.startsWith('pim.') && e) byName.set(op.name, e.map((x) => `${x.kind}:${x.resource.name}`));
  });
  expect(byName.get('pim.send')).toEqual([`write:${PimChannelResource.name}`]);
  expect(byName.get('pim.receive')).toEqual([`read:${PimChannelResource.name}`, `write:${PimChannelResource.name}`]);
  expect(byName.get('pim.sync')).toEqual([`write:${PimEventRegisterResource.name}`]);
  expect(byName.get('pim.wait')).toEqual([`read:${PimEventRegisterResource.name}`, `write:${PimEventRegisterResource.name}`]);
});
