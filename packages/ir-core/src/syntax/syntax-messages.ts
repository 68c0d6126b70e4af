/**
 * Every message text of the parser, printer and verify-diagnostics checker, worded as MLIR
 * words them where MLIR has the same diagnostic.
 */
const q = (s: string): string => `'${s}'`;

export const M = {
  // lexer
  unexpectedCharacter: (c: string) => `unexpected character '${c}'`,
  unterminatedString: `expected '"' in string literal`,
  unknownEscape: 'unknown escape in string literal',
  expectedSymbolName: "@ identifier expected to start with letter or '_'",
  invalidTypeIdentifier: "expected identifier after '!'",
  invalidSuffixIdentifier: (prefix: string) => `invalid SSA name or identifier after '${prefix}'`,

  // generic
  expected: (what: string) => `expected ${what}`,
  expectedToken: (tok: string) => `expected '${tok}'`,
  expectedTokenIn: (tok: string, where: string) => `expected '${tok}' in ${where}`,
  expectedEndOf: (tok: string, what: string) => `expected '${tok}' to end ${what}`,
  expectedToClose: (tok: string, what: string) => `expected '${tok}' to close ${what}`,
  expectedCommaOr: (tok: string) => `expected ',' or '${tok}'`,
  missingRightOperand: 'missing right operand of binary operator',
  nestingTooDeep: (limit: number) =>
    `nesting is too deep: more than ${limit} nested regions, attributes or types (unsupported by this parser)`,
  internalParserError: (msg: string) => `internal parser error: ${msg}`,

  // values and blocks
  undeclaredValue: 'use of undeclared SSA value name',
  redefinedValue: (name: string) => `redefinition of SSA value '${name}'`,
  previouslyDefinedHere: 'previously defined here',
  useTypeMismatch: (name: string, type: string, prior: string) =>
    `use of value '${name}' expects different type than prior uses: '${type}' vs '${prior}'`,
  priorUseHere: 'prior use here',
  definitionTypeMismatch: (name: string, type: string) => `definition of SSA value '${name}' has type '${type}'`,
  previouslyUsedWithType: (type: string) => `previously used here with type '${type}'`,
  resultCountMismatch: (defined: number, bound: number) =>
    `operation defines ${defined} results but was provided ${bound} to bind`,
  undefinedBlock: 'reference to an undefined block',
  redefinedBlock: (name: string) => `redefinition of block '${name}'`,
  entryBlockHasLabel: 'entry block of region may not have predecessors',
  blockArgTypeMismatch: (name: string) => `argument and block argument type mismatch for '${name}'`,
  // MLIR prints two spaces after the singular 'type'.
  operandCountMismatch: (expected: number, got: number) =>
    `expected ${expected} operand type${expected === 1 ? ' ' : 's'} but had ${got}`,
  resultTypeCountMismatch: (expected: number, got: number) =>
    `expected ${expected} result type${expected === 1 ? '' : 's'} but had ${got}`,
  expectedOperandCount: (expected: number, got: number) => `expected ${expected} operands but found ${got}`,
  invalidResultNumber: (name: string, n: number) => `result number #${n} of '${name}' is invalid`,

  // operations
  expectedOpName: 'expected operation name in quotes',
  expectedColonOpType: "expected ':' followed by operation type",
  unregisteredOp: (name: string) =>
    `operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used (op '${name}')`,
  unknownCustomOp: (name: string, tried?: string) =>
    tried ? `custom op '${name}' is unknown (tried '${tried}' as well)` : `custom op '${name}' is unknown`,
  dialectNotFoundForCustomOp: (dialect: string, name: string) => `Dialect \`${dialect}' not found for custom op '${name}' `,
  expectedFunctionTypeForOp: 'expected function type',
  emptyOpName: 'empty operation name is invalid',
  expectedTopLevel: "expected operation, alias definition ('#name = ...' or '!name = ...') or '{-#'",
  moduleExpectedRegion: "expected '{' to begin the module body",

  // aliases and locations
  undefinedAttributeAlias: (name: string) => `undefined symbol alias id '${name}'`,
  undefinedTypeAlias: (name: string) => `undefined symbol alias id '${name}'`,
  redefinedAlias: (name: string) => `redefinition of alias id '${name}'`,
  aliasNameReserved: (name: string) => `attribute names with a '.' are reserved for dialect-defined names: '${name}'`,
  locationAliasNeverDefined: 'operation location alias was never defined',
  expectedLocation: 'expected location instance',
  expectedLocationAliasToBeLocation: (name: string) => `expected location, but found '${name}'`,
  unknownLocation: (kw: string) => `expected location, got keyword '${kw}'`,

  // attributes
  duplicateDictKey: (name: string) => `duplicate key '${name}' in dictionary attribute`,
  expectedAttribute: 'expected attribute value',
  expectedAttrName: 'expected attribute name',
  integerOutOfRange: 'integer constant out of range for attribute',
  integerOutOfRangeForType: (type: string) => `integer constant out of range for type ${q(type)}`,
  negativeUnsigned: 'negative integer literal not valid for unsigned integer type',
  floatNotValidForType: 'floating point value not valid for specified type',
  expectedIntegerOrFloatType: 'expected integer or float type',
  hexFloatWidth: (type: string) => `hexadecimal float constant out of range for type '${type}'`,
  hexFloatNegative: 'hexadecimal float literal should not have a leading minus',
  boolNotInteger: 'expected i1 type for boolean literal',
  denseShapeMismatch: (inferred: string, expected: string) =>
    `inferred shape of elements literal ([${inferred}]) does not match type ([${expected}])`,
  denseRanksInconsistent: 'tensor literal is invalid; ranks are not consistent between elements',
  denseExpectedInt: 'expected integer elements, but parsed floating-point',
  denseExpectedBool: 'expected integer elements, but parsed a boolean',
  denseHexSize: (type: string) => `elements hex data size is invalid for provided type: '${type}'`,
  denseUnsupportedElement: (type: string) => `dense elements of element type '${type}' are not supported by this parser`,
  denseExpectedShapedType: 'elements literal must be a shaped type',
  denseDynamicShape: (type: string) => `elements literal type must have static shape: '${type}'`,
  denseExpectedHex: 'expected string containing hex digits starting with `0x`',
  denseComplexUnsupported: 'complex dense elements are not supported by this parser',
  denseArrayElementType: (type: string) => `expected integer or float type, got: ${type}`,
  expectedTypeAfterColon: 'expected type',
  stridedExpectedStrides: "expected 'strides' list",
  invalidHexData: 'expected hex digits after 0x',
  unbalancedDialectBody: (c: string) => `unbalanced '${c}' character in pretty dialect name`,
  unknownBuiltinAttribute: (kw: string) => `unknown attribute '${kw}'`,
  unsupportedResource: 'dense_resource blobs are kept as handles only',

  // types
  expectedType: 'expected non-function type',
  unknownType: (kw: string) => `unknown type '${kw}'`,
  invalidIntegerWidth: 'invalid integer width',
  expectedDimension: 'expected dimension size or ?',
  expectedX: "expected 'x' in dimension list",
  expectedElementType: 'expected element type',
  invalidTensorElementType: 'invalid tensor element type',
  invalidMemRefElementType: 'invalid memref element type',
  negativeDimension: 'invalid dimension',
  scalableDimensionNotAllowed: 'scalable dimension not allowed here',
  unrankedVector: 'vector types must have static shape',
  expectedMemorySpace: 'expected memory space',

  // affine
  nonAffineMul: 'non-affine expression: at least one of the multiply operands has to be either a constant or symbolic',
  nonAffineDiv: (op: string) => `non-affine expression: right operand of ${op} has to be either a constant or symbolic`,
  expectedAffineExpr: 'expected affine expression',
  unknownAffineIdentifier: (name: string) => `use of undeclared identifier '${name}'`,
  redeclaredAffineIdentifier: (name: string) => `redefinition of identifier '${name}'`,
  expectedAffineConstraint: "expected '== affine-expr' or '>= affine-expr' in affine constraint",
  affineConstantOverflow: 'constant too large for index',

  // verify-diagnostics
  unexpectedDiagnostic: (severity: string, message: string) => `unexpected ${severity}: ${message}`,
  expectedDiagnosticNotProduced: (severity: string, message: string) =>
    `expected ${severity} "${message}" was not produced`,
  expectedDiagnosticBadLine: (severity: string) => `expected-${severity} has invalid line offset`,
  expectedDiagnosticNoBelow: (severity: string) => `expected-${severity} with @below has no line below it`,
  invalidRegex: (re: string, err: string) => `invalid regex '${re}' in expected diagnostic: ${err}`,

  // printer notes
  seeCurrentOperation: (text: string) => `see current operation: ${text}`,
} as const;
