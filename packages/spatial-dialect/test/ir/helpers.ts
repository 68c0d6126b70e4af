/** Test helpers: a context with every dialect Spatial programs use, parse + verify. */
import { dialectTestHelpers } from '../../../../tools/test-support/dialect-test-helpers';
import { registerSpatialDialect } from '../../src';

export { expectConsecutiveLines, expectedModuleLines, printCustom, printGeneric, unindentedLines } from '../../../../tools/test-support/dialect-test-helpers';

/** Parse/verify helpers in a context with spat, builtin/func/arith, affine, tensor, scf and memref. */
export const { makeContext, tryParse, parseVerified, parseRetained } = dialectTestHelpers(registerSpatialDialect);
