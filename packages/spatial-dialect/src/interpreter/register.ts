/** One call registering every rule a Spatial program needs. */
import { registerBuiltinInterpreterRules, type InterpreterRegistry } from '@raptor-pim/ir-core';
import { AFFINE_INTERPRETER_RULES, SCF_INTERPRETER_RULES, TENSOR_INTERPRETER_RULES } from '@raptor-pim/upstream-dialects';
import { registerSpatialInterpreterRules } from './rules';
import { registerSchedulingInterpreterRules } from './scheduling';

/**
 * Registers ir-core's builtin/func/arith rules, the affine/tensor/scf rules and every `spat`
 * rule (plans, compute, element-wise, scheduling) in `registry`.
 *
 * @example
 * const rules = new InterpreterRegistry();
 * registerAllSpatialInterpreterRules(rules);
 * new Interpreter(rules).runFunction(module, 'main', [x]);
 */
export function registerAllSpatialInterpreterRules(registry: InterpreterRegistry): void {
  registerBuiltinInterpreterRules(registry);
  registry.registerAll(AFFINE_INTERPRETER_RULES).registerAll(TENSOR_INTERPRETER_RULES).registerAll(SCF_INTERPRETER_RULES);
  registerSpatialInterpreterRules(registry);
  registerSchedulingInterpreterRules(registry);
}
