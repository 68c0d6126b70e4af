/**
 * Every message text emitted by the compact list helpers, in one place.
 */
export const CompactAsmMessages = {
  /** `T x0` or a repetition above the limit. */
  badRepeatCount: (count: number, max: number): string =>
    `type repetition count must be between 1 and ${max}, got ${count}`,
  /** `[3 to 1]`. */
  emptyIntegerRange: (lo: number, hi: number): string =>
    `integer range '${lo} to ${hi}' is empty: the upper bound is inclusive and must be >= the lower bound`,
  /** A list element that is not an integer. */
  expectedIntegerOrRange: 'expected an integer or an inclusive range `a to b` in integer list',
  /** A type list element that is not a type. */
  expectedTypeInList: 'expected a type (optionally followed by a repetition `xN`) in type list',
  /** `%lane = 2 to 0`. */
  badLaneRange: (lo: number, hi: number): string =>
    `lane range '${lo} to ${hi}' must have lower bound < upper bound (the upper bound is exclusive)`,
  /** A binding whose argument list and value list differ in length. */
  bindingCountMismatch: (what: string, args: number, values: number): string =>
    `${what} binding declares ${args} argument(s) but binds ${values} value(s)`,
  /** A binding type list that does not match the bound values. */
  bindingTypeCountMismatch: (what: string, types: number, values: number): string =>
    `${what} binding has ${types} type(s) for ${values} value(s)`,
} as const;
