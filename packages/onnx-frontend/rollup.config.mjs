import { createRollupConfig } from '../../tools/rollup/create-rollup-config.mjs';

// src/io/npy.ts loads pim-target on demand with `require`
export default createRollupConfig(import.meta.dirname, { requireInEsm: true });
