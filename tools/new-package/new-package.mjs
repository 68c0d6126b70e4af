#!/usr/bin/env node
// Creates packages/<name> in the workspace's package shape:
//   node tools/new-package/new-package.mjs <name> "<one-line description>" [--dep other-pkg ...]
// Writes package.json, tsconfigs, jest/rollup configs, README, src/index.ts, test/, and refuses
// to overwrite an existing package.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const name = args[0];
const description = args[1] ?? '';
const deps = [];
for (let i = 2; i < args.length; i++) if (args[i] === '--dep') deps.push(args[++i]);

if (!name || !/^[a-z][a-z0-9-]*$/.test(name) || !description) {
  console.error('usage: new-package <kebab-name> "<description>" [--dep <package-folder> ...]');
  process.exit(1);
}
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
console.log(`created packages/${name}; run npm install so the workspace links it`);
