import { join } from 'node:path';
import { createRollupConfig } from '../../tools/rollup/create-rollup-config.mjs';

export default createRollupConfig(import.meta.dirname, {
  entries: { bin: join(import.meta.dirname, 'src/bin.ts') },
  // bin.ts loads node:tty on demand with `require`
  requireInEsm: true,
});
