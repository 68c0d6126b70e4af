// The rule table of docs/scheduling-ops.md lists exactly the rules that have a negative case.
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../..');
const invalid = fs.readFileSync(path.join(root, 'test/fixtures/scheduling/invalid.mlir'), 'utf8');
const docs = fs.readFileSync(path.join(root, 'docs/scheduling-ops.md'), 'utf8');

it('every tested rule id is documented and every documented rule id is tested', () => {
  const tested = [...invalid.matchAll(/^\/\/ rule: \S+ (\S+)$/gm)].map((m) => m[1]!).sort();
  const documented = [...docs.matchAll(/^\|[^|]*\| ([A-Z]+\d+) \|/gm)].map((m) => m[1]!).sort();
  expect(documented).toEqual(tested);
  expect(tested.length).toBeGreaterThanOrEqual(60);
});
