// One rollup configuration for every package: ESM + CJS bundles and one bundled .d.ts/.d.cts.
// Paths are absolute (the nx plugin loads configs from the workspace root).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import typescript from '@rollup/plugin-typescript';
import dts from 'rollup-plugin-dts';

// The ES module build of a package that loads dependencies on demand with a synchronous
// `require` (the compiler's stage packages) defines `require` the way Node documents it.
const ESM_REQUIRE_BANNER = "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);";

/**
 * @param {string} packageDir absolute path of the package (pass `import.meta.dirname`)
 * @param {{ entries?: Record<string, string>, requireInEsm?: boolean }} [options] extra entry
 *   points (e.g. a CLI bin); `requireInEsm`: the ES module bundles get a module-level `require`
 *   (from `createRequire`) for code that loads packages on demand with `require`
 */
export function createRollupConfig(packageDir, options = {}) {
  const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const deps = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})];
  const external = (id) => id.startsWith('node:') || deps.some((d) => id === d || id.startsWith(`${d}/`));
  const input = { index: join(packageDir, 'src/index.ts'), ...(options.entries ?? {}) };
  const tsPlugin = () =>
    typescript({
      tsconfig: join(packageDir, 'tsconfig.lib.json'),
      declaration: false,
      declarationMap: false,
      sourceMap: true,
      outDir: join(packageDir, 'dist'),
      noEmitOnError: true,
    });
  return [
    {
      input,
      external,
      plugins: [tsPlugin()],
      output: [
        {
          dir: join(packageDir, 'dist'),
          format: 'es',
          entryFileNames: '[name].js',
          chunkFileNames: 'chunks/[name]-[hash].js',
          sourcemap: true,
          ...(options.requireInEsm ? { banner: ESM_REQUIRE_BANNER } : {}),
        },
      ],
    },
    {
      input,
      external,
      plugins: [tsPlugin()],
      output: [
        {
          dir: join(packageDir, 'dist'),
          format: 'cjs',
          entryFileNames: '[name].cjs',
          chunkFileNames: 'chunks/[name]-[hash].cjs',
          sourcemap: true,
          exports: 'named',
          // `await import('@raptor-pim/x')` becomes a require: a CommonJS bundle that imported
          // a dependency would load its ES build, a second copy of its classes and registries.
          dynamicImportInCjs: false,
        },
      ],
    },
    {
      input: join(packageDir, 'src/index.ts'),
      external,
      plugins: [dts({ tsconfig: join(packageDir, 'tsconfig.lib.json') })],
      output: [
        { file: join(packageDir, 'dist/index.d.ts'), format: 'es' },
        { file: join(packageDir, 'dist/index.d.cts'), format: 'es' },
      ],
    },
  ];
}
