/** The `affine` dialect, reduced to `affine.apply` (affine maps live in ir-core). */
import { defineDialect, type Dialect } from '@raptor-pim/ir-core';
import { ApplyOp } from './ops';

/** Every affine op definition. */
export const AFFINE_OPERATIONS = [ApplyOp] as const;

/** The affine dialect (`affine.apply` only). */
export const AffineDialect: Dialect = defineDialect({ namespace: 'affine', operations: AFFINE_OPERATIONS });
