import { createRollupConfig } from '../../tools/rollup/create-rollup-config.mjs';

// Stage packages are loaded on demand with require (src/stages.ts), in the ES build too.
export default createRollupConfig(import.meta.dirname, { requireInEsm: true });
