/**
 * The interfaces between the generic parser/printer and per-op custom assembly (MLIR's
 * OpAsmParser / OpAsmPrinter) and per-dialect type/attribute syntax (DialectAsmParser /
 * DialectAsmPrinter).
 *
 * Result conventions (no exceptions on user input):
 * - `parseX()` returns the value, or `undefined` after emitting a diagnostic.
 * - `parseOptionalX()` returns the value, `null` when X is not there (nothing consumed, no
 *   diagnostic), or `undefined` when X started but was malformed (diagnostic emitted).
 * - Punctuation: `parseX()` returns `true` on success (`false` = diagnostic emitted);
 *   `parseOptionalX()` returns whether it consumed the token.
 */
import type { Attribute, Location, Type } from '../ir/attribute';
import type { MLIRContext } from '../ir/context';
import type { Diagnostic } from '../diagnostics/diagnostic';
import type { NamedAttribute } from '../ir/builtin-attributes';
import type { FunctionType } from '../ir/builtin-types';
import type { Value, BlockArgument } from '../ir/value';
import type { Block } from '../ir/block';
import type { Region } from '../ir/region';
import type { Operation, OperationState } from '../ir/operation';

/** A value of a parse that may fail: `undefined` means a diagnostic was emitted. */
export type ParseResult<T> = T | undefined;
/** An optional parse: `null` = absent (nothing consumed), `undefined` = failed (diagnosed). */
export type OptionalParseResult<T> = T | null | undefined;

/** `%name` or `%name#3` as written, before it is resolved to a {@link Value}. */
export interface UnresolvedOperand {
  /** The name without `%` (e.g. `arg0`, `0`). */
  readonly name: string;
  /** The result number after `#` (0 when absent). */
  readonly number: number;
  /** Where it was written. */
  readonly location: Location;
}

/** A region/block argument being declared: `%x : i32 {attrs} loc(...)`. */
export interface OpAsmArgument {
  readonly ssaName: UnresolvedOperand;
  /** The type, when parsed with types. */
  type?: Type;
  /** Argument attributes (`{...}` after the type), when allowed. */
  attributes?: readonly NamedAttribute[];
  /** An explicit `loc(...)`, when allowed. */
  location?: Location;
}

/** Delimiters around a list, as MLIR's `AsmParser::Delimiter`. */
export type Delimiter =
  | 'none'
  | 'paren'
  | 'square'
  | 'less-greater'
  | 'braces'
  | 'optional-paren'
  | 'optional-square'
  | 'optional-less-greater'
  | 'optional-braces';

/** The token-level parsing shared by op, dialect type and dialect attribute parsers. */
export interface AsmParser {
  readonly context: MLIRContext;
  /** The location of the next token. */
  getCurrentLocation(): Location;
  /** Emits an error at `location` (default: the next token) and returns it. */
  emitError(message: string, location?: Location): Diagnostic;

  parseArrow(): boolean;
  parseOptionalArrow(): boolean;
  parseColon(): boolean;
  parseOptionalColon(): boolean;
  parseComma(): boolean;
  parseOptionalComma(): boolean;
  parseEqual(): boolean;
  parseOptionalEqual(): boolean;
  parseLParen(): boolean;
  parseOptionalLParen(): boolean;
  parseRParen(): boolean;
  parseOptionalRParen(): boolean;
  parseLSquare(): boolean;
  parseOptionalLSquare(): boolean;
  parseRSquare(): boolean;
  parseOptionalRSquare(): boolean;
  parseLBrace(): boolean;
  parseOptionalLBrace(): boolean;
  parseRBrace(): boolean;
  parseOptionalRBrace(): boolean;
  parseLess(): boolean;
  parseOptionalLess(): boolean;
  parseGreater(): boolean;
  parseOptionalGreater(): boolean;
  parseQuestion(): boolean;
  parseOptionalQuestion(): boolean;
  parseStar(): boolean;
  parseOptionalStar(): boolean;
  parsePlus(): boolean;
  parseOptionalPlus(): boolean;
  parseMinus(): boolean;
  parseOptionalMinus(): boolean;
  parseVerticalBar(): boolean;
  parseOptionalVerticalBar(): boolean;
  parseEllipsis(): boolean;
  parseOptionalEllipsis(): boolean;

  /** Parses the bare keyword `keyword`. */
  parseKeyword(keyword: string): boolean;
  /** Consumes and returns one of `keywords` if the next token is that bare identifier. */
  parseOptionalKeyword(keywords: string | readonly string[]): string | null;
  /** Parses any bare identifier (keyword) and returns it. */
  parseKeywordName(): ParseResult<string>;
  parseOptionalKeywordName(): string | null;
  /** A bare identifier or a string literal. */
  parseKeywordOrString(): ParseResult<string>;

  /** A (possibly negative) integer literal as a safe JS number. */
  parseInteger(): ParseResult<number>;
  parseOptionalInteger(): OptionalParseResult<number>;
  /** A (possibly negative) integer literal of any size. */
  parseBigInteger(): ParseResult<bigint>;
  parseOptionalBigInteger(): OptionalParseResult<bigint>;
  /** A float (or integer) literal, possibly negative. */
  parseFloat(): ParseResult<number>;
  /** A string literal (escapes decoded). */
  parseString(): ParseResult<string>;
  parseOptionalString(): string | null;
  /** `@name` or `@"name"`; returns the name without `@`. */
  parseSymbolName(): ParseResult<string>;
  parseOptionalSymbolName(): string | null;

  parseType(): ParseResult<Type>;
  parseOptionalType(): OptionalParseResult<Type>;
  /** `: type`. */
  parseColonType(): ParseResult<Type>;
  /** `: type, type` (at least one). */
  parseColonTypeList(): ParseResult<Type[]>;
  /** `: type, type` when a colon follows, else an empty list. */
  parseOptionalColonTypeList(): ParseResult<Type[]>;
  /** `type, type, ...` (at least one). */
  parseTypeList(): ParseResult<Type[]>;
  /** `-> type` or `-> (type, ...)`. */
  parseArrowTypeList(): ParseResult<Type[]>;
  /** As {@link parseArrowTypeList} when `->` follows, else an empty list. */
  parseOptionalArrowTypeList(): ParseResult<Type[]>;
  /** `(T, ...) -> (T, ...)` or `(T) -> T`. */
  parseFunctionType(): ParseResult<FunctionType>;

  /** Any attribute; with `type`, an untyped literal takes that type (`42` -> `42 : i32`). */
  parseAttribute(type?: Type): ParseResult<Attribute>;
  parseOptionalAttribute(type?: Type): OptionalParseResult<Attribute>;
  /** `{a = 1, b}` if present (empty list if absent). Duplicate names are diagnosed. */
  parseOptionalAttrDict(): ParseResult<NamedAttribute[]>;
  /** `attributes {a = 1}` if the keyword is present (empty list if absent). */
  parseOptionalAttrDictWithKeyword(): ParseResult<NamedAttribute[]>;
  /** A comma-separated list of elements with `delimiter`; `parseElement` returns success. */
  parseCommaSeparatedList(delimiter: Delimiter, parseElement: () => boolean, contextMessage?: string): boolean;
  /** `loc(...)` if present. */
  parseOptionalLocationSpecifier(): OptionalParseResult<Location>;
}

/** The parser handed to an operation's custom `parse` hook. */
export interface OpAsmParser extends AsmParser {
  /** Location of the operation name. */
  getNameLocation(): Location;
  /** `%name` or `%name#N`. */
  parseOperand(): ParseResult<UnresolvedOperand>;
  parseOptionalOperand(): OptionalParseResult<UnresolvedOperand>;
  /** A comma-separated operand list; `requiredCount` (if >= 0) checks the number. */
  parseOperandList(delimiter?: Delimiter, requiredCount?: number): ParseResult<UnresolvedOperand[]>;
  /** Resolves one operand to a value of `type` (diagnoses undefined values and type mismatches). */
  resolveOperand(operand: UnresolvedOperand, type: Type, result: Value[]): boolean;
  /**
   * Resolves operands with one type each (a list of the same length) or all with one type.
   * `location` is used for a count mismatch diagnostic.
   */
  resolveOperands(
    operands: readonly UnresolvedOperand[],
    types: Type | readonly Type[],
    result: Value[],
    location?: Location,
  ): boolean;
  /** A region argument `%x` (with `: type` when `allowType`, attributes when `allowAttrs`). */
  parseArgument(allowType?: boolean, allowAttrs?: boolean): ParseResult<OpAsmArgument>;
  parseOptionalArgument(allowType?: boolean, allowAttrs?: boolean): OptionalParseResult<OpAsmArgument>;
  /** A delimited list of region arguments. */
  parseArgumentList(delimiter?: Delimiter, allowType?: boolean, allowAttrs?: boolean): ParseResult<OpAsmArgument[]>;
  /**
   * `{ ... }` into `region`, with `args` as the entry block's arguments (they must have types).
   * With `args` given, the entry block has no label of its own.
   */
  parseRegion(region: Region, args?: readonly OpAsmArgument[], enableNameShadowing?: boolean): boolean;
  /** As {@link parseRegion} when the next token is `{`; returns null otherwise. */
  parseOptionalRegion(region: Region, args?: readonly OpAsmArgument[]): boolean | null;
  /** `^bb1`: a successor block of the enclosing region (may be a forward reference). */
  parseSuccessor(): ParseResult<Block>;
  parseOptionalSuccessor(): OptionalParseResult<Block>;
  /** `^bb1(%a, %b : i32, i32)` or `^bb1`: the block and its resolved operands appended to `operands`. */
  parseSuccessorAndUseList(operands: Value[]): ParseResult<Block>;
}

/** The printing shared by op, dialect type and dialect attribute printers. */
export interface AsmPrinter {
  readonly context: MLIRContext;
  /** Appends raw text. */
  print(text: string): void;
  printType(type: Type): void;
  printAttribute(attr: Attribute): void;
  /** Prints an attribute without its `: type` suffix (e.g. `42` for `42 : i32`). */
  printAttributeWithoutType(attr: Attribute): void;
  /** A bare identifier if valid, else a quoted string. */
  printKeywordOrString(keyword: string): void;
  /** A quoted string with MLIR's escapes. */
  printString(value: string): void;
  /** `@name` (quoted when needed). */
  printSymbolName(name: string): void;
  /** `T` or `(T, U)`: the arrow-side type list (without the arrow). */
  printOptionalArrowTypeList(types: readonly Type[]): void;
  /** `(T, U) -> V` / `(T) -> (U, V)`. */
  printFunctionalType(inputs: readonly Type[], results: readonly Type[]): void;
}

/** The printer handed to an operation's custom `print` hook. */
export interface OpAsmPrinter extends AsmPrinter {
  /** `%name` (or `%name#N`) of a value, as numbered by the printer's SSA name state. */
  printOperand(value: Value): void;
  /**
   * The name `value` prints with (`%arg0`, `%x#1`, `%lane`): lets a custom printer that leaves
   * region arguments implicit check that the printed names are the ones its parser declares.
   */
  getValueName(value: Value): string;
  /** Comma-separated operands. */
  printOperands(values: readonly Value[]): void;
  /** Comma-separated types. */
  printTypes(types: readonly Type[]): void;
  /** The op's operand and result types as `(T, U) -> V`. */
  printFunctionalTypeOf(op: Operation): void;
  /**
   * ` {a = 1}` for the attributes not in `elidedNames` (nothing when none remain). Sorted by
   * name, as MLIR prints dictionaries.
   */
  printOptionalAttrDict(attributes: Iterable<NamedAttribute> | ReadonlyMap<string, Attribute>, elidedNames?: readonly string[]): void;
  /** As {@link printOptionalAttrDict} but with ` attributes` before the dictionary. */
  printOptionalAttrDictWithKeyword(
    attributes: Iterable<NamedAttribute> | ReadonlyMap<string, Attribute>,
    elidedNames?: readonly string[],
  ): void;
  /**
   * `{\n ... \n}`. `printEntryBlockArgs` prints the entry block's label and arguments (when it
   * has any); `printBlockTerminators` false omits terminators of blocks (as ops with implicit
   * terminators do); `printEmptyBlock` prints an empty entry block's label.
   */
  printRegion(region: Region, printEntryBlockArgs?: boolean, printBlockTerminators?: boolean, printEmptyBlock?: boolean): void;
  /** `%arg0: i32` with argument attributes and location when debug info is on. */
  printRegionArgument(arg: BlockArgument, attributes?: readonly NamedAttribute[]): void;
  /** `^bb1`. */
  printSuccessor(block: Block): void;
  /** `^bb1(%a, %b : i32, i32)` or `^bb1`. */
  printSuccessorAndUseList(block: Block, operands: readonly Value[]): void;
  /** Prints a nested operation (generic or custom, as the printer is configured). */
  printOperation(op: Operation): void;
  /** A newline followed by the current indentation. */
  printNewline(): void;
  increaseIndent(): void;
  decreaseIndent(): void;
  /** ` loc(...)` when debug info is printed. */
  printOptionalLocationSpecifier(location: Location): void;
}

/** The parser given to a dialect's type/attribute parser, positioned after the mnemonic. */
export type DialectAsmParser = AsmParser;
/** The printer given to a dialect's type/attribute printer. */
export type DialectAsmPrinter = AsmPrinter;

/**
 * The custom-assembly hooks an op definition may provide (to be included by the op
 * definition type of the IR model).
 *
 * `parse` reads everything after the op name (and after `%res = `) and fills `state`
 * (operands, resultTypes, attributes, properties, regions, successors); it returns false after
 * emitting a diagnostic. `print` writes everything after the op name. `getAsmResultNames`
 * suggests SSA names for results (`%c0`, `%cst`); `defaultDialect` lets nested ops drop their
 * dialect prefix (as `func.func` bodies print `return`).
 */
export interface OpAssemblyHooks {
  parse?(parser: OpAsmParser, state: OperationState): boolean;
  print?(op: Operation, printer: OpAsmPrinter): void;
  getAsmResultNames?(op: Operation, setName: SetValueNameFn): void;
  getAsmBlockArgumentNames?(op: Operation, region: Region, setName: SetValueNameFn): void;
  defaultDialect?: string;
}

/** Callback of {@link OpAssemblyHooks.getAsmResultNames}: suggests a name (without `%`). */
export type SetValueNameFn = (value: Value, name: string) => void;

/**
 * Dialect hooks for types and attributes in the `!dialect.mnemonic<...>` and
 * `#dialect.mnemonic<...>` forms (to be included by the dialect type of the IR model). When a
 * dialect lacks a hook, its types/attributes are kept verbatim as OpaqueType/OpaqueAttr.
 */
export interface DialectAsmHooks {
  /**
   * Parses the body after `!dialect.` (the parser's next token is the mnemonic). Returns the
   * type, or undefined after emitting a diagnostic.
   */
  parseType?(parser: DialectAsmParser): ParseResult<Type>;
  /** Prints the body after `!dialect.` (mnemonic and parameters); false if not its type. */
  printType?(type: Type, printer: DialectAsmPrinter): boolean;
  parseAttribute?(parser: DialectAsmParser, type?: Type): ParseResult<Attribute>;
  printAttribute?(attr: Attribute, printer: DialectAsmPrinter): boolean;
  /** An alias name (`#name`/`!name` at top level) for an attribute/type, if the dialect wants one. */
  getAlias?(value: Attribute | Type): string | undefined;
}

/**
 * Types and attributes defined by a dialect declare their namespace so the printer can find
 * the dialect's {@link DialectAsmHooks}.
 */
export interface DialectOwned {
  readonly dialectNamespace: string;
}

/** True when `value` declares a dialect namespace. */
export function isDialectOwned(value: object): value is DialectOwned {
  return typeof (value as { dialectNamespace?: unknown }).dialectNamespace === 'string';
}
