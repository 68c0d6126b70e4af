#!/usr/bin/env node
// Creates packages/<name> in the workspace's package shape:
//   npm run new-package -- <name> "<one-line description>" [--dep other-pkg ...] [--stage]
// Writes package.json, tsconfigs, jest/rollup configs, README, src/index.ts, test/, and refuses
// to overwrite an existing package. With --stage, a pipeline stage (STYLE.md "A pipeline
// stage"): src/transforms/ (one pass per file), src/conversion/, src/diagnostics.ts, an index
// exporting register<Stage>Passes(registry), and test/fixtures/ with the golden and
// expected-error harness (tools/test-support/stage-fixtures.ts) wired in test/fixtures.test.ts.
// Add the stage to packages/compiler/src/stages.ts (one line) so the compiler registers it.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const name = args[0];
const description = args[1] ?? '';
const deps = [];
let stage = false;
let badArg;
for (let i = 2; i < args.length; i++) {
  if (args[i] === '--dep' && args[i + 1] !== undefined) deps.push(args[++i]);
  else if (args[i] === '--stage') stage = true;
  else badArg ??= args[i];
}

if (!name || !/^[a-z][a-z0-9-]*$/.test(name) || !description || badArg !== undefined) {
  if (badArg !== undefined) console.error(`new-package: unexpected argument '${badArg}'`);
  console.error('usage: new-package <kebab-name> "<description>" [--dep <package-folder> ...] [--stage]');
  process.exit(1);
}
// A stage builds on ir-core and reads/writes the Raptor dialects (ARCHITECTURE.md: stages
// depend on foundations and dialects, never on the compiler).
if (stage) for (const d of ['ir-core', 'spatial-dialect', 'pim-dialect', 'pim-target']) if (!deps.includes(d)) deps.push(d);
for (const d of deps) {
  if (!existsSync(join(root, 'packages', d, 'package.json'))) {
    console.error(`new-package: --dep ${d}: no packages/${d}`);
    process.exit(1);
  }
}
const pascal = name.replace(/(^|-)([a-z0-9])/g, (_m, _d, c) => c.toUpperCase());
const dir = join(root, 'packages', name);
if (existsSync(dir)) {
  console.error(`packages/${name} already exists`);
  process.exit(1);
}
const write = (rel, text) => {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), text);
};
const json = (v) => JSON.stringify(v, null, 2) + '\n';

write('package.json', json({
  name: `@raptor-pim/${name}`,
  version: '0.1.0',
  description,
  license: 'MIT',
  type: 'module',
  main: './dist/index.cjs',
  module: './dist/index.js',
  types: './dist/index.d.ts',
  exports: {
    '.': {
      '@raptor-pim/source': './src/index.ts',
      import: { types: './dist/index.d.ts', default: './dist/index.js' },
      require: { types: './dist/index.d.cts', default: './dist/index.cjs' },
    },
    './package.json': './package.json',
  },
  files: ['dist'],
  sideEffects: false,
  dependencies: Object.fromEntries(deps.map((d) => [`@raptor-pim/${d}`, '^0.1.0'])),
  nx: { name, tags: ['raptor'], targets: { typecheck: {} } },
}));
write('tsconfig.json', json({
  extends: '../../tsconfig.base.json',
  compilerOptions: { noEmit: true, types: ['jest', 'node'] },
  include: ['src/**/*.ts', 'test/**/*.ts'],
}));
write('tsconfig.lib.json', json({
  extends: '../../tsconfig.base.json',
  compilerOptions: { rootDir: 'src', outDir: 'dist', types: ['node'] },
  include: ['src/**/*.ts'],
  exclude: ['src/**/*.test.ts'],
}));
write('tsconfig.spec.json', json({
  extends: '../../tsconfig.base.json',
  compilerOptions: { module: 'commonjs', moduleResolution: 'node10', ignoreDeprecations: '6.0', types: ['jest', 'node'], isolatedModules: true },
  include: ['src/**/*.ts', 'test/**/*.ts'],
}));
write('jest.config.ts', `export default {
  displayName: '${name}',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
};
`);
write('rollup.config.mjs', `import { createRollupConfig } from '../../tools/rollup/create-rollup-config.mjs';

export default createRollupConfig(import.meta.dirname);
`);
if (stage) writeStage();
else {
write('README.md', `# @raptor-pim/${name}

${description}

## Example

\`\`\`ts
import {} from '@raptor-pim/${name}';
\`\`\`

## Public API

(document every export here)

## Known limits
`);
write('src/index.ts', `/**
 * @packageDocumentation
 * ${description}
 */
export {};
`);
write('test/.gitkeep', '');
}
console.log(`created packages/${name}; run npm install --no-audit --no-fund so the workspace links it`);
if (stage) console.log(`then add { name: '${name}', packageName: '@raptor-pim/${name}', register: (r) => register${pascal}Passes(r), pipeline: 'PASSES' } to RAPTOR_STAGES in packages/compiler/src/stages.ts`);

function writeStage() {
  write('README.md', `# @raptor-pim/${name}

${description}

A pipeline stage: its passes are registered by \`register${pascal}Passes(registry)\`, which
\`@raptor-pim/compiler\` calls for its pass registry (\`packages/compiler/src/stages.ts\`).

## Example

\`\`\`ts
import { PassRegistry } from '@raptor-pim/ir-core';
import { register${pascal}Passes } from '@raptor-pim/${name}';

const registry = new PassRegistry();
register${pascal}Passes(registry);
\`\`\`

## Public API

- \`register${pascal}Passes(registry)\`: registers every pass of the stage.
- \`${pascal}Messages\`: every message text the stage emits.

## Layout

- \`src/transforms/\`: one pass per file, named after the pass (\`spat-plan-layouts.ts\`).
- \`src/conversion/\`: conversion patterns (one \`OpConversionPattern\` per op family).
- \`src/diagnostics.ts\`: every message text.
- \`test/fixtures/*.mlir\`: each names its pipeline on its first line (\`// pipeline: builtin.module(...)\`);
  \`NAME.mlir\` is checked against \`NAME.golden.mlir\` (regenerate with
  \`UPDATE_GOLDEN=1 npx jest -c packages/${name}/jest.config.ts\`), \`NAME-invalid.mlir\` holds
  expected-error cases split by \`// -----\`. Every registered pass must be run by a fixture.

## Known limits
`);
  write('src/index.ts', `/**
 * @packageDocumentation
 * ${description}
 */
import type { PassRegistry } from '@raptor-pim/ir-core';

export { ${pascal}Messages } from './diagnostics';

/**
 * Registers every pass of this stage in \`registry\` (one \`registry.registerPass(() => new XPass())\`
 * per file of src/transforms/). The compiler calls it for its pass registry.
 */
export function register${pascal}Passes(registry: PassRegistry): void {
  void registry;
}
`);
  write('src/diagnostics.ts', `/** Every message text the ${name} stage emits, in one place. */
export const ${pascal}Messages = {} as const;
`);
  write('src/transforms/.gitkeep', '');
  write('src/conversion/.gitkeep', '');
  write('test/fixtures/.gitkeep', '');
  write('test/fixtures.test.ts', `// The stage's fixtures (test/fixtures/*.mlir): goldens, expected-error files, pass coverage.
import * as path from 'node:path';
import { MLIRContext, registerCorePasses } from '@raptor-pim/ir-core';
import { registerPimDialect } from '@raptor-pim/pim-dialect';
import { registerSpatialDialect } from '@raptor-pim/spatial-dialect';
import { register${pascal}Passes } from '../src';
import { describeStageFixtures } from '../../../tools/test-support/stage-fixtures';

function makeContext(): MLIRContext {
  const ctx = new MLIRContext();
  registerSpatialDialect(ctx);
  registerPimDialect(ctx);
  return ctx;
}

describeStageFixtures('${name} fixtures', {
  fixturesDir: path.join(__dirname, 'fixtures'),
  makeContext,
  register: register${pascal}Passes,
  registerOthers: registerCorePasses,
});
`);
}
