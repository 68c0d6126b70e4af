/**
 * Every message text of the builtin, func and arith dialects (verifiers, custom assembly,
 * interpreter), worded as MLIR words them so diagnostics match `mlir-opt`'s.
 */
export const DM = {
  // ------------------------------------------------------------------ custom assembly
  expectedFlagKeyword: (enumName: string, allowed: readonly string[]) => `expected ::mlir::arith::${enumName} to be one of: ${allowed.join(', ')}`,
  expectedEnumKeyword: (attr: string, allowed: readonly string[]) =>
    `expected string or keyword containing one of the following enum values for attribute '${attr}' [${allowed.join(', ')}]`,
  expectedConstantValue: 'expected constant value attribute',
  expectedVisibilityOrName: 'expected valid \'@\'-identifier for symbol name',
  argNamesMixed: 'expected SSA identifier',
  externalArgNamed: 'expected arguments without names in an external function declaration',
  duplicateArgName: (name: string) => `redefinition of SSA value '%${name}'`,
  expectedRoundingMode: 'expected rounding mode',

  // ------------------------------------------------------------------ builtin
  castNeedsResults: 'expected at least one result for cast operation',

  // ------------------------------------------------------------------ func
  functionTypeAttr: "requires a 'function_type' attribute of function type",
  entryBlockArgCount: (n: number) => `entry block must have ${n} arguments to match function signature`,
  entryBlockArgType: (i: number, actual: string, expected: string) =>
    `type of entry block argument #${i}(${actual}) must match the type of the corresponding argument in function signature(${expected})`,
  argAttrsCount: (attr: string, expected: number, actual: number) =>
    `expects ${attr} to have ${expected} elements, but got ${actual}`,
  argAttrsDict: (attr: string) => `expects ${attr} to be an array of dictionaries`,
  externalPublic: "symbol declaration cannot have public visibility",
  returnCount: (got: number, fn: string, want: number) =>
    `has ${got} operands, but enclosing function (@${fn}) returns ${want}`,
  returnType: (i: number, got: string, want: string, fn: string) =>
    `type of return operand ${i} ('${got}') doesn't match function result type ('${want}') in function @${fn}`,
  calleeNotFunction: (name: string) => `'${name}' does not reference a valid function`,
  calleeMissingAttr: "requires a 'callee' symbol reference attribute",
  callOperandCount: 'incorrect number of operands for callee',
  callOperandType: (want: string, got: string, i: number) =>
    `operand type mismatch: expected operand type '${want}', but provided '${got}' for operand number ${i}`,
  callResultCount: 'incorrect number of results for callee',
  callResultType: (i: number) => `result type mismatch at index ${i}`,
  callOpResultTypes: (types: string) => `      op result types: ${types}`,
  callFunctionResultTypes: (types: string) => `function result types: ${types}`,
  indirectCalleeType: 'callee must have function type',

  // ------------------------------------------------------------------ arith
  constantValueKind: 'value must be an integer, float, or elements attribute',
  constantTypeMismatch: 'failed to verify that all of {value, result} have same type',
  constantIntegerSignless: 'integer return type must be signless',
  constantShapedStatic: 'intializing a shaped type constant requires a static shape',
  castIncompatible: (from: string, to: string) => `operand type '${from}' and result type '${to}' are cast incompatible`,
  castShapeMismatch: "all of {in, out} must have the same shape (compatible shapes)",
  compareResultType: 'result type must be i1 or a shaped type of i1 with the operand shape',
  selectConditionShape: "expected condition type to have the same shape as the result type",
  selectConditionType: 'expected condition to be a signless i1',

  // ------------------------------------------------------------------ interpreter
  undefinedBehavior: (op: string, what: string) => `'${op}' op has undefined behavior: ${what}`,
  resourceConstantWithoutData: (handle: string) =>
    `'arith.constant' op value dense_resource<${handle}> has no element data to interpret (resource blobs are kept as handles only)`,
  unsupportedRuntimeValue: (op: string) => `'${op}' op is not supported by the interpreter on these operand types`,
} as const;
