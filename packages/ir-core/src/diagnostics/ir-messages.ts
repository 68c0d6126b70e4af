/**
 * Every message text emitted by the IR model (operations, verifier, traits, op definitions,
 * symbol tables, rewriter, pass manager, interpreter), worded as MLIR words it so diagnostics
 * match `mlir-opt`'s. One place, so wording changes are reviewed together.
 */
export const M = {
  // ------------------------------------------------------------------ operation
  /** Prefix of `emitOpError`. */
  opPrefix: (name: string) => `'${name}' op `,
  /** Note attached when printing the op on diagnostics is enabled. */
  seeCurrentOperation: (printed: string) => `see current operation: ${printed}`,

  // ------------------------------------------------------------------ counts (OpDefinition.cpp)
  requiresZeroOperands: 'requires zero operands',
  requiresSingleOperand: 'requires a single operand',
  expectedNOperands: (n: number, found: number) => `expected ${n} operands, but found ${found}`,
  expectedAtLeastNOperands: (n: number, found: number) => `expected ${n} or more operands, but found ${found}`,
  requiresZeroResults: 'requires zero results',
  requiresOneResult: 'requires one result',
  expectedNResults: (n: number) => `expected ${n} results`,
  expectedAtLeastNResults: (n: number) => `expected ${n} or more results`,
  requiresZeroRegions: 'requires zero regions',
  requiresOneRegion: 'requires one region',
  expectedNRegions: (n: number) => `expected ${n} regions`,
  expectedAtLeastNRegions: (n: number) => `expected ${n} or more regions`,
  requiresNSuccessors: (n: number, found: number) =>
    n === 1 ? `requires 1 successor but found ${found}` : `requires ${n} successors but found ${found}`,
  requiresAtLeastNSuccessors: (n: number, found: number) => `requires at least ${n} successors but found ${found}`,
  referenceToBlockInAnotherRegion: 'reference to block defined in another region',

  // ------------------------------------------------------------------ segments
  requiresDenseI32ArrayAttr: (attr: string) => `requires dense i32 array attribute '${attr}'`,
  segmentAttrNegative: (attr: string) => `'${attr}' attribute cannot have negative elements`,
  segmentCountMismatch: (group: string, expected: number, total: number, attr: string) =>
    `${group} count (${expected}) does not match with the total size (${total}) specified in attribute '${attr}'`,
  segmentAttrWrongLength: (attr: string, group: string, n: number, got: number) =>
    `'${attr}' attribute for specifying ${group} segments must have ${n} elements, but got ${got}`,
  optionalGroupTooLarge: (group: string, start: number, found: number) =>
    `${group} group starting at #${start} requires 0 or 1 element, but found ${found}`,

  // ------------------------------------------------------------------ attributes / properties
  requiresAttribute: (name: string) => `requires attribute '${name}'`,
  attributeConstraint: (name: string, description: string) =>
    `attribute '${name}' failed to satisfy constraint: ${description}`,
  propertyConstraint: (name: string, description: string) =>
    `property '${name}' failed to satisfy constraint: ${description}`,

  // ------------------------------------------------------------------ type constraints
  operandTypeConstraint: (index: number, description: string, got: string) =>
    `operand #${index} must be ${description}, but got '${got}'`,
  resultTypeConstraint: (index: number, description: string, got: string) =>
    `result #${index} must be ${description}, but got '${got}'`,
  regionConstraint: (index: number, name: string, description: string) =>
    `region #${index}${name ? ` ('${name}')` : ''} failed to verify constraint: ${description}`,

  // ------------------------------------------------------------------ traits
  mustBeLastInBlock: 'must be the last operation in the parent block',
  expectsParentOp: (names: readonly string[]) =>
    names.length === 1
      ? `expects parent op '${names[0]}'`
      : `expects parent op to be one of '${names.join("', '")}'`,
  expectsRegionZeroOrOneBlock: (i: number) => `expects region #${i} to have 0 or 1 blocks`,
  expectsGraphRegionZeroOrOneBlock: (i: number) => `expects graph region #${i} to have 0 or 1 blocks`,
  expectsNonEmptyBlock: 'expects a non-empty block',
  expectsRegionsToEndWith: (term: string, found: string) =>
    `expects regions to end with '${term}', found '${found}'`,
  implicitTerminatorNote: (term: string) =>
    `in custom textual format, the absence of terminator implies '${term}'`,
  usingValueDefinedOutside: 'using value defined outside the region',
  requiredByIsolation: 'required by region isolation constraints',
  sameOperandsAndResultType: 'requires the same type for all operands and results',
  sameTypeOperands: 'requires all operands to have the same type',
  sameOperandsElementType: 'requires the same element type for all operands',
  sameOperandsAndResultElementType: 'requires the same element type for all operands and results',
  sameOperandsAndResultShape: 'requires the same shape for all operands and results',
  regionShouldHaveNoArguments: 'region should have no arguments',
  regionNShouldHaveNoArguments: (i: number) => `region #${i} should have no arguments`,

  // ------------------------------------------------------------------ symbols
  symbolTableOneRegion: "Operations with a 'SymbolTable' must have exactly one region",
  symbolTableOneBlock: "Operations with a 'SymbolTable' must have exactly one block",
  requiresStringAttr: (name: string) => `requires string attribute '${name}'`,
  redefinitionOfSymbol: (name: string) => `redefinition of symbol named '${name}'`,
  seeExistingSymbol: 'see existing symbol definition here',
  visibilityMustBeString: (name: string) => `requires visibility attribute '${name}' to be a string attribute`,
  visibilityInvalid: (got: string) =>
    `visibility expected to be one of ["public", "private", "nested"], but got "${got}"`,
  symbolNotFound: (name: string) => `'${name}' does not reference a valid symbol`,

  // ------------------------------------------------------------------ verifier (Verifier.cpp)
  emptyBlockNeedsTerminator: 'empty block: expect at least a terminator',
  successorsMustTerminate: 'operation with block successors must terminate its parent block',
  branchToOtherRegion: 'branching to block of a different region',
  blockWithNoTerminator: (printed: string) => `block with no terminator, has ${printed}`,
  entryBlockHasPredecessors: 'entry block of region may not have predecessors',
  unregisteredDialect:
    'created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used',
  unregisteredOpInDialect: (name: string, ns: string) =>
    `unregistered operation '${name}' found in dialect ('${ns}') that does not allow unknown operations`,
  operandDoesNotDominate: (i: number) => `operand #${i} does not dominate this use`,
  operandDefinedHere: (where: string) => `operand defined here (${where})`,
  operandDefinedAsBlockArgument: (index: number, where: string) =>
    `operand defined as a block argument (block #${index} ${where})`,
  operandUnlinked: "operation's operand is unlinked",
  successorArgCount: (i: number, given: number, expected: number) =>
    `branch has ${given} operands for successor #${i}, but target block has ${expected}`,
  successorArgType: (operandIndex: number, i: number, given: string, expected: string) =>
    `type mismatch for bb argument #${operandIndex} of successor #${i}: '${given}' vs '${expected}'`,

  // ------------------------------------------------------------------ rewriting
  greedyDidNotConverge: (maxIterations: number) =>
    `greedy pattern rewriter did not converge after ${maxIterations} iterations`,
  constantMaterializationFailed: (name: string) => `failed to materialize a constant for the folded result of '${name}'`,

  // ------------------------------------------------------------------ dialect conversion
  failedToLegalize: (name: string) => `failed to legalize operation '${name}'`,
  failedToLegalizeIllegal: (name: string) => `failed to legalize operation '${name}' that was explicitly marked illegal`,
  unresolvedMaterialization: (from: string, to: string) =>
    `failed to legalize unresolved materialization from (${from}) to (${to}) that remained live after conversion`,
  seeLiveUser: 'see existing live user here',

  // ------------------------------------------------------------------ passes
  unknownPass: (name: string) => `'${name}' does not refer to a registered pass or pass pipeline`,
  unknownPassOption: (pass: string, option: string) => `no such option '${option}' for pass '${pass}'`,
  badPassOptionValue: (pass: string, option: string, value: string, expected: string) =>
    `invalid value '${value}' for option '${option}' of pass '${pass}': expected ${expected}`,
  pipelineSyntax: (detail: string) => `invalid pass pipeline: ${detail}`,
  passAnchorMismatch: (pass: string, anchor: string, opName: string) =>
    `can't run '${pass}' pass (anchored on '${anchor}') on '${opName}'`,
  passFailed: (pass: string) => `pass '${pass}' failed`,
  verificationAfterPassFailed: (pass: string) => `verification failed after running pass '${pass}'`,

  // ------------------------------------------------------------------ interpreter
  noInterpreterRule: (name: string) => `no interpreter rule for op '${name}'`,
  interpreterSymbolNotFound: (name: string) => `symbol '@${name}' not found`,
  interpreterFailure: (name: string, detail: string) => `'${name}' op failed to execute: ${detail}`,
  interpreterStepLimit: (limit: number) => `interpreter step limit of ${limit} operations exceeded`,
  interpreterNoTerminatorResult: 'region finished without a terminator yielding values',
} as const;
