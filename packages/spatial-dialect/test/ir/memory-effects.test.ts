/**
 * Memory effects of the spat communication ops: canonicalize and cse never remove or merge
 * them (golden: fixtures/effects/canonicalize-cse.expected.mlir).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { getMemoryEffects, type Operation } from '@raptor-pim/ir-core';
import { SpatChannelResource, SpatEventRegisterResource, SpatHostMemoryResource } from '../../src';
import { makeContext, parseVerified } from './helpers';
import { expectGoldenCases, runCorePipeline } from '../../../../tools/test-support/golden-cases';

const dir = path.resolve(__dirname, '../fixtures/effects');

const count = (text: string, what: string) => text.split(what).length - 1;

test('canonicalize,cse keep every channel, host-transfer and event-register op', () => {
  const outputs = expectGoldenCases(path.join(dir, 'canonicalize-cse.mlir'), path.join(dir, 'canonicalize-cse.expected.mlir'), (text) =>
    runCorePipeline(parseVerified(text, makeContext()), 'builtin.module(canonicalize,cse)'),
  );
  const [comm, pure] = outputs as [string, string];
  for (const op of ['spat.channel_send', 'spat.channel_receive', 'spat.host_store_sync', 'spat.host_wait_load', 'spat.sync', 'spat.wait']) {
    expect(count(comm, `${op} `)).toBe(2);
  }
  expect(count(pure, 'spat.relu')).toBe(1);
});

test('the effects name the channel, host-memory and event-register resources', () => {
  const ctx = makeContext();
  const m = parseVerified(fs.readFileSync(path.join(dir, 'canonicalize-cse.mlir'), 'utf8').split('// -----')[0]!, ctx);
  const byName = new Map<string, string[]>();
  m.walk((op: Operation) => {
    const e = getMemoryEffects(op);
    if (op.name.startsWith('spat.') && e) byName.set(op.name, e.map((x) => `${x.kind}:${x.resource.name}`));
  });
  const ch = SpatChannelResource.name;
  const ev = SpatEventRegisterResource.name;
  const host = SpatHostMemoryResource.name;
  expect(Object.fromEntries(byName)).toEqual({
    'spat.channel_send': [`write:${ch}`],
    'spat.channel_receive': [`read:${ch}`, `write:${ch}`],
    'spat.host_store_sync': [`write:${host}`, `write:${ev}`],
    'spat.host_wait_load': [`read:${host}`, `read:${ev}`, `write:${ev}`],
    'spat.sync': [`write:${ev}`],
    'spat.wait': [`read:${ev}`, `write:${ev}`],
  });
});
