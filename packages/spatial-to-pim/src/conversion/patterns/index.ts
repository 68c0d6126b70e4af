/** Every conversion pattern of `spat-to-pim`, keyed by the op definition it converts. */
import type { AnyOpDefinition } from '@raptor-pim/ir-core';
import { COMMUNICATION_PATTERNS } from './communication';
import { DATA_MOVEMENT_PATTERNS } from './data-movement';
import { ELEMENTWISE_PATTERNS } from './elementwise';
import { WVMM_PATTERN } from './matrix';
import type { ScheduledOpPattern } from './pattern';

export type { ScheduledOpPattern } from './pattern';

/** All patterns, in reference order of their families. */
export const SPAT_TO_PIM_PATTERNS: readonly ScheduledOpPattern[] = [
  ...ELEMENTWISE_PATTERNS,
  WVMM_PATTERN,
  ...DATA_MOVEMENT_PATTERNS,
  ...COMMUNICATION_PATTERNS,
];

/** The patterns by root definition. */
export function patternTable(patterns: readonly ScheduledOpPattern[] = SPAT_TO_PIM_PATTERNS): ReadonlyMap<AnyOpDefinition, ScheduledOpPattern> {
  return new Map(patterns.map((p) => [p.root, p]));
}
