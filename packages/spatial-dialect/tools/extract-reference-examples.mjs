#!/usr/bin/env node
// Extracts the reference examples of the spat ops of part A from the Raptor dialect reference
// into test/fixtures/reference/examples.json ({ section, code } per example). The wrapped,
// parseable form of each example lives in test/fixtures/reference/examples.mlir (hand-written:
// it defines the values each example uses); the test checks both agree.
//
// Usage: node packages/spatial-dialect/tools/extract-reference-examples.mjs [path/to/raptor-dialect-reference.md]
// Default spec path: $RAPTOR_SHARED/spec/... or the `shared/` folder beside the repository.
import * as fs from 'node:fs';
import * as path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const shared = process.env.RAPTOR_SHARED ?? path.resolve(here, '../../../../shared');
const spec = process.argv[2] ?? path.join(shared, 'spec/raptor-dialect-reference.md');
const OPS = new Set([
  'add_plan', 'bias_add_plan', 'concat_plan', 'conv2d_plan', 'flatten_plan', 'global_average_pool_plan',
  'max_pool2d_plan', 'relu_plan', 'resize_nearest_plan', 'silu_plan', 'materialize_layout', 'graph_compute',
  'graph_compute_batch', 'in_parallel', 'yield', 'blueprint', 'relu', 'sigmoid', 'vadd', 'vsub', 'vmul', 'vmax',
  'vavg', 'softmax', 'wvmm', 'vvdmul', 'concat', 'extract_rows',
]);
// Intro sections whose examples use only part-A ops (and upstream ops).
const INTRO = new Set(['values-operations-and-types', 'planning-operations-and-attributes', 'multiple-results-and-compact-lists', 'compute-regions-and-bindings', 'graph-batches-and-fragment-slots']);
// Entries whose example is a fragment of a larger one: checked inside that example's case.
const FRAGMENTS = new Map([['spat.in_parallel', 'spat.graph_compute_batch'], ['spat.yield', 'spat.graph_compute']]);

const lines = fs.readFileSync(spec, 'utf8').split('\n');
const out = [];
let section = null;
for (let i = 0; i < lines.length; i++) {
  const line = lines[i];
  const op = /^### `spat\.(\w+)`/.exec(line);
  const intro = /^## (.+)$/.exec(line);
  if (op) section = OPS.has(op[1]) ? `spat.${op[1]}` : null;
  else if (intro) {
    const slug = intro[1].toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/-$/, '');
    section = INTRO.has(slug) ? slug : null;
  }
  if (section && line.trim() === '```') {
    const code = [];
    for (i++; i < lines.length && lines[i].trim() !== '```'; i++) code.push(lines[i]);
    const text = code.join('\n');
    // Only examples that mention no other ops' definitions (skip %w = arith.constant lines).
    const kept = code.filter((l) => !/^%\w+ = arith\.constant/.test(l)).join('\n');
    if (/spat\./.test(text)) out.push({ section, within: FRAGMENTS.get(section) ?? section, code: kept });
  }
}
const target = path.resolve(here, '../test/fixtures/reference/examples.json');
fs.writeFileSync(target, JSON.stringify(out, null, 2) + '\n');
console.log(`wrote ${out.length} examples to ${path.relative(process.cwd(), target)}`);
