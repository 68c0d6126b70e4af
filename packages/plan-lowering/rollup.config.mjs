import { createRollupConfig } from '../../tools/rollup/create-rollup-config.mjs';

export default createRollupConfig(import.meta.dirname);
