import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import typescript from '@rollup/plugin-typescript';
import { createRollupConfig } from '../../tools/rollup/create-rollup-config.mjs';

const here = import.meta.dirname;

/**
 * Resolves `@raptor-pim/*` to the package's ES module build (its `exports` `import` target, from
 * the importing file as Node would), so that the standalone bundle inlines it: those builds are
 * made before this one (`build` depends on `^build`).
 */
function inlineWorkspacePackages() {
  return {
    name: 'inline-workspace-packages',
    resolveId(source, importer) {
      if (!source.startsWith('@raptor-pim/') || importer === undefined) return null;
      const manifest = createRequire(importer).resolve(`${source}/package.json`);
      const target = JSON.parse(readFileSync(manifest, 'utf8')).exports?.['.']?.import?.default;
      if (typeof target !== 'string') throw new Error(`${source}: no ES module build in its package.json exports`);
      return join(dirname(manifest), target);
    },
  };
}

/**
 * The packages' ES module builds that load dependencies on demand with `require` define it with
 * `createRequire(import.meta.url)` (tools/rollup); in a CommonJS bundle the module's own
 * `require` does that, so the definition is dropped.
 */
function dropEsmRequireDefinition() {
  const definition = /^import \{ createRequire as __createRequire \} from 'node:module';\nconst require = __createRequire\(import\.meta\.url\);\n/;
  return {
    name: 'drop-esm-require-definition',
    transform(code, id) {
      if (!id.endsWith('.js') || !definition.test(code)) return null;
      return { code: code.replace(definition, '\n\n'), map: null };
    },
  };
}

export default [
  ...createRollupConfig(here, {
    entries: { bin: join(here, 'src/bin.ts') },
    // bin.ts loads node:tty on demand with `require`
    requireInEsm: true,
  }),
  // `raptor import` without --run and --const-input as one self-contained CommonJS file (the
  // launcher runs it for those arguments): the Raptor packages it uses are inlined, only what it
  // reaches is kept, and nothing is loaded on demand (no second copy of a package can appear).
  {
    input: { 'import-bin': join(here, 'src/import-bin.ts') },
    external: (id) => id.startsWith('node:'),
    plugins: [
      inlineWorkspacePackages(),
      dropEsmRequireDefinition(),
      typescript({
        tsconfig: join(here, 'tsconfig.lib.json'),
        declaration: false,
        declarationMap: false,
        sourceMap: true,
        outDir: join(here, 'dist'),
        noEmitOnError: true,
      }),
    ],
    output: {
      dir: join(here, 'dist'),
      format: 'cjs',
      entryFileNames: '[name].cjs',
      sourcemap: true,
      inlineDynamicImports: true,
      dynamicImportInCjs: false,
    },
  },
];
