/** Test helpers: a context with pim and every dialect its programs use; parse + verify. */
import { dialectTestHelpers } from '../../../tools/test-support/dialect-test-helpers';
import { registerPimDialect } from '../src';

export { expectConsecutiveLines, expectedModuleLines, printCustom, printGeneric, unindentedLines } from '../../../tools/test-support/dialect-test-helpers';

/** Parse/verify helpers in a context with pim, builtin/func/arith, affine, tensor, scf and memref. */
export const { makeContext, tryParse, parseVerified, parseRetained } = dialectTestHelpers(registerPimDialect);
