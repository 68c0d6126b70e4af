/** Registration of the affine, tensor and scf interpreter rules. */
import type { InterpreterRegistry } from '@raptor-pim/ir-core';
import { AFFINE_INTERPRETER_RULES } from './affine-rules';
import { SCF_INTERPRETER_RULES } from './scf-rules';
import { TENSOR_INTERPRETER_RULES } from './tensor-rules';

/**
 * Registers the rules of `affine.apply`, the tensor ops and the scf ops (combine with ir-core's
 * `registerBuiltinInterpreterRules` for func/arith).
 *
 * @example
 * ```ts
 * const registry = new InterpreterRegistry();
 * registerBuiltinInterpreterRules(registry);
 * registerTensorScfAffineInterpreterRules(registry);
 * const r = new Interpreter(registry).runFunction(module, 'main', [input]);
 * ```
 */
export function registerTensorScfAffineInterpreterRules(registry: InterpreterRegistry): void {
  registry.registerAll(AFFINE_INTERPRETER_RULES);
  registry.registerAll(TENSOR_INTERPRETER_RULES);
  registry.registerAll(SCF_INTERPRETER_RULES);
}
