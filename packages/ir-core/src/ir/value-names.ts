import type { Value } from './value';

/**
 * Source names of SSA values (`%lane`, `%w`), kept beside the IR instead of on every value: a
 * parse without `retainIdentifierNames` stores nothing and costs nothing, and an entry goes
 * away with its value (weak keys).
 */
const retainedNames = new WeakMap<Value, string>();

/**
 * Records `name` (without `%`) as the name `value` was written with. The parser calls it for
 * every non-numeric name it defines when `ParseOptions.retainIdentifierNames` is set; a pass
 * may call it to suggest a name for a value it creates. Printing with
 * `PrintOptions.useRetainedNames` then prints the value as `%name` (uniqued as MLIR uniques
 * suggested names: `%name_0`, ... on a conflict). An empty `name` removes the entry.
 *
 * @example
 * setRetainedName(op.results[0], 'sum');
 * printOperation(module, { useRetainedNames: true }); // ... %sum = ...
 */
export function setRetainedName(value: Value, name: string): void {
  if (name) retainedNames.set(value, name);
  else retainedNames.delete(value);
}

/** The name recorded for `value` by {@link setRetainedName}, if any. */
export function getRetainedName(value: Value): string | undefined {
  return retainedNames.get(value);
}
