/** Registration of the `pim` interpreter rules. */
import { registerBuiltinInterpreterRules, type InterpreterRegistry, type InterpreterRule } from '@raptor-pim/ir-core';
import {
  AFFINE_INTERPRETER_RULES,
  SCF_INTERPRETER_RULES,
  TENSOR_INTERPRETER_RULES,
  registerMemRefInterpreterRules,
} from '@raptor-pim/upstream-dialects';
import { PIM_DATA_RULES } from './data-rules';
import { coreGroupRule, outsideCoreRule } from './machine';

/** Every `pim` rule by op name (stream-only ops fail outside a core; inside, the core machine runs them). */
export const PIM_INTERPRETER_RULES: Readonly<Record<string, InterpreterRule>> = {
  ...PIM_DATA_RULES,
  'pim.core': coreGroupRule,
  'pim.core_batch': coreGroupRule,
  'pim.send': outsideCoreRule,
  'pim.receive': outsideCoreRule,
  'pim.sync': outsideCoreRule,
  'pim.wait': outsideCoreRule,
  'pim.halt': outsideCoreRule,
};

/** Registers the `pim` rules in `registry`. */
export function registerPimInterpreterRules(registry: InterpreterRegistry): void {
  registry.registerAll(PIM_INTERPRETER_RULES);
}

/**
 * Registers ir-core's builtin/func/arith rules, the affine/tensor/scf/memref rules and every
 * `pim` rule in `registry`.
 *
 * @example
 * const rules = new InterpreterRegistry();
 * registerAllPimInterpreterRules(rules);
 * new Interpreter(rules).runFunction(module, 'main', [x]);
 */
export function registerAllPimInterpreterRules(registry: InterpreterRegistry): void {
  registerBuiltinInterpreterRules(registry);
  registry.registerAll(AFFINE_INTERPRETER_RULES).registerAll(TENSOR_INTERPRETER_RULES).registerAll(SCF_INTERPRETER_RULES);
  registerMemRefInterpreterRules(registry);
  registerPimInterpreterRules(registry);
}
