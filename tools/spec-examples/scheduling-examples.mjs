#!/usr/bin/env node
// Regenerates packages/spatial-dialect/test/fixtures/scheduling/reference-examples.json from the
// dialect reference: the example code block(s) of each scheduling/communication op entry.
//   node tools/spec-examples/scheduling-examples.mjs [--check]
// The reference is read from $RAPTOR_SPEC or shared/spec/raptor-dialect-reference.md beside the
// repository checkout. With --check, exits 1 when the checked-in file differs.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const spec = process.env.RAPTOR_SPEC ?? join(repo, '..', 'shared', 'spec', 'raptor-dialect-reference.md');
const out = join(repo, 'packages/spatial-dialect/test/fixtures/scheduling/reference-examples.json');
const OPS = [
  'spat.block_yield',
  'spat.channel_receive',
  'spat.channel_send',
  'spat.deferred_communication',
  'spat.deferred_source_select',
  'spat.host_store_sync',
  'spat.host_wait_load',
  'spat.scheduled_compute',
  'spat.scheduled_compute_batch',
  'spat.sync',
  'spat.wait',
];
const GENERIC_KEY = 'spat.deferred_communication (generic, two specialization cases)';

const text = readFileSync(spec, 'utf8');
const result = {};
for (const op of OPS) {
  const start = text.indexOf('### `' + op + '`');
  if (start < 0) throw new Error(`no entry for ${op} in ${spec}`);
  const end = text.indexOf('\n### ', start + 1);
  const entry = text.slice(start, end < 0 ? undefined : end);
  const blocks = [...entry.matchAll(/```\n([\s\S]*?)\n```/g)].map((m) => m[1]);
  if (!blocks.length) throw new Error(`no example for ${op}`);
  result[op] = blocks[0];
  if (op === 'spat.deferred_communication') result[GENERIC_KEY] = blocks[1];
}
const json = JSON.stringify(result, null, 2) + '\n';
if (process.argv.includes('--check')) {
  const current = readFileSync(out, 'utf8');
  if (current !== json) {
    console.error(`${out} is out of date; run node tools/spec-examples/scheduling-examples.mjs`);
    process.exit(1);
  }
  console.log('reference-examples.json matches the reference');
} else {
  writeFileSync(out, json);
  console.log(`wrote ${Object.keys(result).length} examples to ${out}`);
}
