/** Registration of the codegen passes in a pass registry (the compiler calls it). */
import type { PassRegistry } from '@raptor-pim/ir-core';
import { AllocateArrayGroupsPass } from './transforms/pim-allocate-array-groups';
import { EmitPass } from './transforms/pim-emit';
import { VerifyCodegenPass } from './transforms/pim-verify-codegen';
import type { TargetLike } from './target';

/**
 * Registers `pim-verify-codegen`, `pim-allocate-array-groups` and `pim-emit` in `registry`.
 * `target` is the machine the passes use (default: pim-target's `defaultTarget()`).
 */
export function registerCodegenPasses(registry: PassRegistry, target?: TargetLike): void {
  registry.registerPass(() => new VerifyCodegenPass(target));
  registry.registerPass(() => new AllocateArrayGroupsPass(target));
  registry.registerPass(() => new EmitPass(target));
}
