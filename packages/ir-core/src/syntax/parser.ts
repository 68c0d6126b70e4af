import { Attribute, Location, Type } from '../ir/attribute';
import type { MLIRContext } from '../ir/context';
import { Diagnostic } from '../diagnostics/diagnostic';
import {
  ComplexType,
  DYNAMIC,
  FloatType,
  FunctionType,
  IndexType,
  IntegerType,
  MemRefType,
  NoneType,
  OpaqueType,
  RankedTensorType,
  TupleType,
  UnrankedMemRefType,
  UnrankedTensorType,
  VectorType,
  getNumElements,
  isFloatKind,
  type Signedness,
} from '../ir/builtin-types';
import {
  AffineMapAttr,
  ArrayAttr,
  DenseArrayAttr,
  DenseElementsAttr,
  DenseResourceElementsAttr,
  DictionaryAttr,
  FloatAttr,
  IntegerAttr,
  IntegerSetAttr,
  OpaqueAttr,
  StridedLayoutAttr,
  StringAttr,
  SymbolRefAttr,
  TypeAttr,
  UnitAttr,
  createDenseStorage,
  isDenseElementType,
  setStorage,
  toBigInt,
  type NamedAttribute,
} from '../ir/builtin-attributes';
import { CallSiteLoc, FileLineColLoc, FusedLoc, NameLoc, UnknownLoc } from '../ir/location';
import { Operation, type OperationState } from '../ir/operation';
import { Block } from '../ir/block';
import { Region } from '../ir/region';
import { BlockArgument, type Value } from '../ir/value';
import { setRetainedName } from '../ir/value-names';
import { bitsToBf16, bitsToF16, bitsToF32, bitsToF64, roundToFloatKind } from '../ir/builtin-float-semantics';
import { AffineMap, IntegerSet } from '../affine/affine-map';
import {
  getAffineConstantExpr,
  getAffineDimExpr,
  getAffineSymbolExpr,
  type AffineExpr,
} from '../affine/affine-expr';
import { Lexer, isDigit } from './lexer';
import { TokenKind, tokenSpelling } from './token';
import { SourceFile } from './source';
import { M } from './messages';
import { decodeDenseHex } from './dense-hex';
import { printType as typeToString } from './printer';
import type {
  Delimiter,
  DialectAsmHooks,
  OpAsmArgument,
  OpAsmParser,
  OptionalParseResult,
  ParseResult,
  UnresolvedOperand,
} from './op-asm';
import type { DeferredLocation, ParseOptions, ParsedSourceInfo } from './parser-state';

/** Thrown internally to unwind after the first error (never escapes the parser). */
class ParseAbort {}

interface MemoizedType {
  key: string;
  type: Type;
  /** Nesting depth the type's parse needed beyond the current one. */
  depth: number;
}

const enum Ch {
  Tab = 9,
  LF = 10,
  CR = 13,
  Space = 32,
  Quote = 34,
  Dollar = 36,
  LParen = 40,
  RParen = 41,
  Minus = 45,
  Dot = 46,
  Digit0 = 48,
  Digit9 = 57,
  Less = 60,
  Greater = 62,
  UpperA = 65,
  UpperZ = 90,
  LBracket = 91,
  Backslash = 92,
  RBracket = 93,
  Underscore = 95,
  LowerA = 97,
  LowerZ = 122,
  LBrace = 123,
  RBrace = 125,
}

function isIdentChar(c: number): boolean {
  return (
    (c >= Ch.LowerA && c <= Ch.LowerZ) ||
    (c >= Ch.UpperA && c <= Ch.UpperZ) ||
    (c >= Ch.Digit0 && c <= Ch.Digit9) ||
    c === Ch.Underscore ||
    c === Ch.Dollar ||
    c === Ch.Dot
  );
}

function skipSpaces(text: string, pos: number): number {
  for (;;) {
    const c = text.charCodeAt(pos);
    if (c === Ch.Space || c === Ch.LF || c === Ch.Tab || c === Ch.CR) pos++;
    else return pos;
  }
}

/**
 * The offset just past the bracketed group opening at `pos` (`(`, `<`, `[` or `{`), skipping
 * strings and `->`; -1 when unbalanced.
 */
function scanBalanced(text: string, pos: number): number {
  let depth = 0;
  const len = text.length;
  for (; pos < len; pos++) {
    const c = text.charCodeAt(pos);
    if (c === Ch.LParen || c === Ch.Less || c === Ch.LBracket || c === Ch.LBrace) depth++;
    else if (c === Ch.RParen || c === Ch.Greater || c === Ch.RBracket || c === Ch.RBrace) {
      if (--depth === 0) return pos + 1;
    } else if (c === Ch.Minus && text.charCodeAt(pos + 1) === Ch.Greater) pos++;
    else if (c === Ch.Quote) {
      for (pos++; pos < len && text.charCodeAt(pos) !== Ch.Quote; pos++) if (text.charCodeAt(pos) === Ch.Backslash) pos++;
    } else if (c === Ch.LF) return -1;
  }
  return -1;
}

/**
 * The offset just past the type starting at `pos` (a builtin type `name<...>` or a function type
 * `(...) -> result`) by a character scan, or -1 when the text does not have that simple shape.
 */
function scanTypeEnd(text: string, pos: number): number {
  const c = text.charCodeAt(pos);
  if (c === Ch.LParen) {
    const close = scanBalanced(text, pos);
    if (close < 0) return -1;
    const arrow = skipSpaces(text, close);
    if (text.charCodeAt(arrow) !== Ch.Minus || text.charCodeAt(arrow + 1) !== Ch.Greater) return -1;
    const result = skipSpaces(text, arrow + 2);
    if (text.charCodeAt(result) === Ch.LParen) return scanBalanced(text, result);
    return isIdentChar(text.charCodeAt(result)) ? scanTypeEnd(text, result) : -1;
  }
  let p = pos;
  while (isIdentChar(text.charCodeAt(p))) p++;
  if (p === pos) return -1;
  return text.charCodeAt(p) === Ch.Less ? scanBalanced(text, p) : p;
}

interface ValueEntry {
  value: Value;
  offset: number;
}

/**
 * SSA names visible in one isolated-from-above scope. Result #0 of a name (the common case) is
 * kept in flat maps (no allocation per value); only `%x#N` groups (N >= 1) use entry arrays.
 */
class IsolatedScope {
  /** Name -> slot in `vals`/`offs` (one hash insertion per value). */
  private readonly index = new Map<string, number>();
  private readonly vals: Value[] = [];
  private readonly offs: number[] = [];
  /**
   * Canonical numeric names (`%0`, `%17`: what printers emit) index these arrays directly,
   * without hashing a fresh substring per use.
   */
  private numVals: (Value | undefined)[] = [];
  private numOffs: number[] = [];
  private numCount = 0;
  readonly groups = new Map<string, (ValueEntry | undefined)[]>();
  /** Per nested (non-isolated) region: the names defined there, removed when it closes. */
  readonly definitions: string[][] = [[]];

  /** Number of names with a result #0. */
  get size(): number {
    return this.index.size + this.numCount;
  }

  get(name: string, number: number): Value | undefined {
    if (number !== 0) return this.groups.get(name)?.[number]?.value;
    const n = numericName(name);
    if (n >= 0) return this.numVals[n];
    const i = this.index.get(name);
    return i === undefined ? undefined : this.vals[i];
  }

  offsetOf(name: string, number: number): number {
    if (number !== 0) return this.groups.get(name)?.[number]?.offset ?? 0;
    const n = numericName(name);
    if (n >= 0) return this.numOffs[n] ?? 0;
    const i = this.index.get(name);
    return i === undefined ? 0 : this.offs[i];
  }

  set(name: string, number: number, value: Value, offset: number): void {
    if (number === 0) {
      const n = numericName(name);
      if (n >= 0) {
        if (this.numVals[n] === undefined) this.numCount++;
        this.numVals[n] = value;
        this.numOffs[n] = offset;
        return;
      }
      const i = this.index.get(name);
      if (i !== undefined) {
        this.vals[i] = value;
        this.offs[i] = offset;
      } else {
        this.index.set(name, this.vals.length);
        this.vals.push(value);
        this.offs.push(offset);
      }
      return;
    }
    let entries = this.groups.get(name);
    if (!entries) this.groups.set(name, (entries = []));
    entries[number] = { value, offset };
  }

  clear(): void {
    this.index.clear();
    this.vals.length = 0;
    this.offs.length = 0;
    this.numVals = [];
    this.numOffs = [];
    this.numCount = 0;
  }

  /** Forgets `name` (its slot stays unused until the scope is cleared). */
  delete(name: string): void {
    const n = numericName(name);
    if (n >= 0) {
      if (this.numVals[n] !== undefined) {
        this.numVals[n] = undefined;
        this.numCount--;
      }
    } else this.index.delete(name);
    this.groups.delete(name);
  }
}

/** Largest numeric name kept in the arrays (larger ones use the map, bounding array size). */
const MAX_NUMERIC_NAME = 1 << 24;

/**
 * The value of a canonical decimal name (`0`, `17`; no sign, no leading zero) up to
 * {@link MAX_NUMERIC_NAME}, or -1 for any other name (`x`, `arg0`, `007`, `c42_i32`).
 */
function numericName(name: string): number {
  const len = name.length;
  if (len === 0 || len > 8) return -1;
  let v = 0;
  for (let i = 0; i < len; i++) {
    const c = name.charCodeAt(i) - 48;
    if (c < 0 || c > 9 || (c === 0 && i === 0 && len > 1)) return -1;
    v = v * 10 + c;
  }
  return v < MAX_NUMERIC_NAME ? v : -1;
}

interface BlockEntry {
  block: Block;
  defined: boolean;
  offset: number;
}

const FORWARD_REF = '__raptor.forward_ref';
// Shared empty lists for ops without successors, regions or attributes (never mutated).
/**
 * The state a custom op's parse hook fills. Its `location` (the position of the op name) is
 * built on first read only: most ops in generated text carry a trailing `loc(...)` instead.
 */
class CustomOpState implements OperationState {
  operands?: readonly Value[];
  resultTypes?: readonly Type[];
  properties?: ReadonlyMap<string, Attribute> | Readonly<Record<string, Attribute>>;
  attributes?: ReadonlyMap<string, Attribute> | Readonly<Record<string, Attribute>>;
  successors?: readonly Block[];
  regions?: number | readonly Region[];
  private loc: Location | undefined = undefined;
  constructor(
    readonly context: MLIRContext,
    readonly name: string,
    private readonly parser: { locationOf(offset: number): Location },
    private readonly offset: number,
  ) {}
  get location(): Location {
    return (this.loc ??= this.parser.locationOf(this.offset));
  }
  set location(l: Location) {
    this.loc = l;
  }
}

const MAX_SAFE_BIGINT = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE_BIGINT = BigInt(Number.MIN_SAFE_INTEGER);
/** Opening and closing tokens of each {@link Delimiter} (none for `none`). */
const DELIMITER_PAIRS: Readonly<Record<string, readonly [TokenKind, TokenKind] | undefined>> = {
  paren: [TokenKind.LParen, TokenKind.RParen],
  square: [TokenKind.LSquare, TokenKind.RSquare],
  'less-greater': [TokenKind.Less, TokenKind.Greater],
  braces: [TokenKind.LBrace, TokenKind.RBrace],
  'optional-paren': [TokenKind.LParen, TokenKind.RParen],
  'optional-square': [TokenKind.LSquare, TokenKind.RSquare],
  'optional-less-greater': [TokenKind.Less, TokenKind.Greater],
  'optional-braces': [TokenKind.LBrace, TokenKind.RBrace],
};
const NO_BLOCKS: Block[] = [];
const NO_REGIONS: Region[] = [];
const NO_ATTRIBUTES: NamedAttribute[] = [];

/**
 * A recursive-descent parser for MLIR's textual format (generic form, builtin custom forms and
 * registered ops' custom forms through their `parse` hook). It reports the first error as a
 * diagnostic and returns `undefined`; it never throws on user input.
 */
export class Parser implements OpAsmParser {
  private readonly lex: Lexer;
  private readonly source: SourceFile;
  private readonly allowUnregistered: boolean;
  private readonly maxNesting: number;
  /** `ParseOptions.retainIdentifierNames`: record source names of SSA values. */
  private readonly retainNames: boolean;
  private depth = 0;
  /** The last generic op name read without escapes (reused by the next identical one). */
  private lastOpName = '';
  /** Op names that passed `checkRegistration` (dialects do not change while parsing). */
  private readonly acceptedOpNames = new Set<string>();
  /** Deepest `depth` reached (for the nesting a memoized type needs). */
  private peakDepth = 0;
  private readonly typeMemo = new Map<string, MemoizedType>();
  private lastType: MemoizedType | undefined;
  private failed = false;
  private readonly attrAliases = new Map<string, Attribute>();
  private readonly typeAliases = new Map<string, Type>();
  private readonly resources: string[] = [];
  private readonly deferredLocs: DeferredLocation[] = [];
  /** A forward location alias after the op being parsed (see `parseOpTrailingLocation`). */
  private pendingOpLocation: { name: string; offset: number } | undefined;
  private readonly scopes: IsolatedScope[] = [new IsolatedScope()];
  private readonly blockScopes: Map<string, BlockEntry>[] = [];
  private readonly forwardRefs = new Map<Value, number>();
  private readonly defaultDialectStack: string[] = ['builtin'];
  private nameOffset = 0;
  private readonly fileNameAttr: string;

  constructor(
    readonly context: MLIRContext,
    text: string,
    options: ParseOptions = {},
  ) {
    this.fileNameAttr = options.filename ?? '-';
    this.source = new SourceFile(this.fileNameAttr, text, options.lineOffset ?? 0);
    this.lex = new Lexer(text);
    this.allowUnregistered = options.allowUnregisteredDialects ?? context.allowUnregisteredDialects;
    this.maxNesting = options.maxNesting ?? 1000;
    this.retainNames = options.retainIdentifierNames ?? false;
    this.lex.next();
  }

  // ------------------------------------------------------------------ entry points

  /** Parses a whole buffer into a module (implicitly wrapping top-level ops). */
  parseModule(): Operation | undefined {
    return this.guard(() => this.parseTopLevel());
  }

  /** Parses exactly one attribute filling the whole buffer. */
  parseStandaloneAttribute(): Attribute | undefined {
    return this.guard(() => {
      const a = this.parseAttribute();
      if (a === undefined) return undefined;
      if (!this.expectEOF()) return undefined;
      return a;
    });
  }

  /** Parses exactly one type filling the whole buffer. */
  parseStandaloneType(): Type | undefined {
    return this.guard(() => {
      const t = this.parseType();
      if (t === undefined) return undefined;
      if (!this.expectEOF()) return undefined;
      return t;
    });
  }

  /** Aliases and resources seen (after {@link parseModule}). */
  get info(): ParsedSourceInfo {
    return {
      attributeAliases: this.attrAliases,
      typeAliases: this.typeAliases,
      resources: this.resources,
      deferredLocations: this.deferredLocs.length,
    };
  }

  private expectEOF(): boolean {
    if (this.lex.kind !== TokenKind.EOF) {
      this.fail(M.expected('end of input'));
      return false;
    }
    return true;
  }

  private guard<T>(body: () => T | undefined): T | undefined {
    try {
      const r = body();
      return this.failed ? undefined : r;
    } catch (e) {
      if (e instanceof ParseAbort) return undefined;
      if (e instanceof RangeError && /call stack/i.test(e.message)) {
        if (!this.failed) this.emitAt(this.lex.start, M.nestingTooDeep(this.maxNesting));
        return undefined;
      }
      throw e;
    }
  }

  // ------------------------------------------------------------------ diagnostics

  /** The FileLineColLoc of a buffer offset. */
  locationOf(offset: number): FileLineColLoc {
    const { line, column } = this.source.lineAndColumn(offset);
    return FileLineColLoc.get(this.context, this.fileNameAttr, line, column);
  }

  private emitAt(offset: number, message: string): Diagnostic {
    const d = new Diagnostic('error', this.locationOf(offset), message);
    if (!this.failed) {
      this.failed = true;
      this.context.diagnostics.emit(d);
    }
    return d;
  }

  /** Emits `message` at the current token, and aborts parsing. */
  private fail(message: string, offset = this.lex.start): never {
    if (this.lex.kind === TokenKind.Error && offset === this.lex.start) message = this.lex.errorMessage;
    else if (offset === this.lex.start && message.startsWith('expected')) offset = this.wrongTokenOffset(offset);
    this.emitAt(offset, message);
    throw new ParseAbort();
  }

  /**
   * MLIR's `emitWrongTokenError` placement: a token at the start of a line (or EOF) is
   * reported at the end of the previous line with content, before any `//` comment.
   */
  private wrongTokenOffset(offset: number): number {
    const text = this.lex.text;
    let loc = offset;
    if (this.lex.kind === TokenKind.EOF && loc > 0) loc--;
    const original = loc;
    let end = loc;
    for (;;) {
      while (end > 0 && (text.charCodeAt(end - 1) === 32 || text.charCodeAt(end - 1) === 9)) end--;
      if (end === 0) return original;
      const c = text.charCodeAt(end - 1);
      if (c !== 10 && c !== 13) return end;
      end--;
      const lineStart = Math.max(text.lastIndexOf('\n', end - 1), text.lastIndexOf('\r', end - 1)) + 1;
      const comment = text.indexOf('//', lineStart);
      if (comment >= 0 && comment < end) end = comment;
    }
  }

  getCurrentLocation(): Location {
    return this.locationOf(this.lex.start);
  }
  getNameLocation(): Location {
    return this.locationOf(this.nameOffset);
  }
  emitError(message: string, location?: Location): Diagnostic {
    const d = new Diagnostic('error', location ?? this.getCurrentLocation(), message);
    if (!this.failed) {
      this.failed = true;
      this.context.diagnostics.emit(d);
    }
    return d;
  }

  private enter(): void {
    if (++this.depth > this.maxNesting) this.fail(M.nestingTooDeep(this.maxNesting));
    if (this.depth > this.peakDepth) this.peakDepth = this.depth;
  }
  private leave(): void {
    this.depth--;
  }

  // ------------------------------------------------------------------ token helpers

  private tok(): TokenKind {
    return this.lex.kind;
  }
  private consume(): void {
    this.lex.next();
  }
  private consumeIf(kind: TokenKind): boolean {
    if (this.lex.kind !== kind) return false;
    this.lex.next();
    return true;
  }
  private expect(kind: TokenKind, message?: string): void {
    if (this.lex.kind !== kind) this.fail(message ?? M.expectedToken(tokenSpelling(kind)));
    this.lex.next();
  }
  private isKeyword(kw: string): boolean {
    return this.lex.kind === TokenKind.BareIdentifier && this.lex.tokenText === kw;
  }
  private consumeKeyword(kw: string): boolean {
    if (!this.isKeyword(kw)) return false;
    this.lex.next();
    return true;
  }

  // ------------------------------------------------------------------ top level

  private parseTopLevel(): Operation | undefined {
    const topBlock = new Block();
    this.pushRegionScope(false);
    while (this.tok() !== TokenKind.EOF) {
      switch (this.tok()) {
        case TokenKind.HashIdentifier:
          this.parseAttributeAliasDef();
          break;
        case TokenKind.ExclamationIdentifier:
          this.parseTypeAliasDef();
          break;
        case TokenKind.FileMetadataBegin:
          this.parseFileMetadata();
          break;
        case TokenKind.PercentIdentifier:
        case TokenKind.String:
        case TokenKind.BareIdentifier:
          topBlock.push(this.parseOperation());
          break;
        default:
          this.fail(M.expectedOpName);
      }
    }
    this.popRegionScope();
    this.finalize();
    const ops = topBlock.operations;
    if (ops.length === 1 && ops[0].name === 'builtin.module' && ops[0].numResults === 0) {
      ops[0].remove();
      return ops[0];
    }
    const module = Operation.create({
      context: this.context,
      name: 'builtin.module',
      location: FileLineColLoc.get(this.context, this.fileNameAttr, 0, 0),
      regions: 1,
    });
    const body = new Block();
    module.regions[0].push(body);
    for (const op of ops) {
      op.remove();
      body.push(op);
    }
    return module;
  }

  private finalize(): void {
    for (const d of this.deferredLocs) {
      const a = this.attrAliases.get(d.name);
      if (!(a instanceof Location)) this.fail(M.locationAliasNeverDefined, d.offset);
      d.apply(a);
    }
    if (this.forwardRefs.size) {
      const offsets = [...this.forwardRefs.values()].sort((a, b) => a - b);
      this.fail(M.undeclaredValue, offsets[0]);
    }
  }

  private parseAttributeAliasDef(): void {
    const offset = this.lex.start;
    const name = this.lex.tokenText.substring(1);
    this.consume();
    if (!this.consumeIf(TokenKind.Equal)) {
      this.fail(M.expectedTokenIn('=', 'attribute alias definition'));
    }
    if (name.includes('.')) this.fail(M.aliasNameReserved(name), offset);
    if (this.attrAliases.has(name)) this.fail(M.redefinedAlias(name), offset);
    const attr = this.parseAttributeOrFail();
    this.attrAliases.set(name, attr);
  }

  private parseTypeAliasDef(): void {
    const offset = this.lex.start;
    const name = this.lex.tokenText.substring(1);
    this.consume();
    if (!this.consumeIf(TokenKind.Equal)) this.fail(M.expectedTokenIn('=', 'type alias definition'));
    if (name.includes('.')) this.fail(M.aliasNameReserved(name), offset);
    if (this.typeAliases.has(name)) this.fail(M.redefinedAlias(name), offset);
    const type = this.parseTypeOrFail();
    this.typeAliases.set(name, type);
  }

  private parseFileMetadata(): void {
    const start = this.lex.end;
    const text = this.lex.text;
    const end = text.indexOf('#-}', start);
    if (end < 0) this.fail(M.expectedToken('#-}'));
    this.resources.push(text.substring(start, end));
    this.lex.resetTo(end);
    this.consume();
    this.expect(TokenKind.FileMetadataEnd);
  }

  // ------------------------------------------------------------------ SSA scopes

  private get scope(): IsolatedScope {
    return this.scopes[this.scopes.length - 1];
  }

  private pushRegionScope(isolated: boolean): void {
    if (isolated) this.scopes.push(new IsolatedScope());
    else this.scope.definitions.push([]);
    this.blockScopes.push(new Map());
  }

  private popRegionScope(): void {
    const blocks = this.blockScopes.pop()!;
    for (const [, e] of blocks) if (!e.defined) this.fail(M.undefinedBlock, e.offset);
    const scope = this.scope;
    if (scope.definitions.length <= 1) {
      if (this.scopes.length > 1) this.scopes.pop();
      else scope.definitions.pop();
      return;
    }
    const names = scope.definitions.pop()!;
    // A region defining every name of the scope (a function body) clears the maps at once.
    // Names are recorded once each, so equal sizes mean the same set.
    if (scope.size === names.length && scope.groups.size === 0) scope.clear();
    else for (const name of names) scope.delete(name);
  }

  private resolveValue(op: UnresolvedOperand, type: Type, offset: number): Value {
    const scope = this.scope;
    const existing = scope.get(op.name, op.number);
    if (existing) {
      if (existing.type !== type) {
        const d = this.emitAt(offset, M.useTypeMismatch(fmtName(op), typeToString(type), typeToString(existing.type)));
        d.attachNote(M.priorUseHere, this.locationOf(scope.offsetOf(op.name, op.number)));
        throw new ParseAbort();
      }
      return existing;
    }
    const placeholder = Operation.create({
      context: this.context,
      name: FORWARD_REF,
      location: this.locationOf(offset),
      resultTypes: [type],
    });
    const value = placeholder.results[0];
    scope.set(op.name, op.number, value, offset);
    this.forwardRefs.set(value, offset);
    return value;
  }

  private defineValue(name: string, number: number, value: Value, offset: number): void {
    const scope = this.scope;
    const existing = scope.get(name, number);
    if (existing) {
      if (!this.forwardRefs.has(existing)) {
        const d = this.emitAt(offset, M.redefinedValue('%' + name));
        d.attachNote(M.previouslyDefinedHere, this.locationOf(scope.offsetOf(name, number)));
        throw new ParseAbort();
      }
      if (existing.type !== value.type) {
        const d = this.emitAt(offset, M.definitionTypeMismatch(`%${name}#${number}`, typeToString(value.type)));
        d.attachNote(M.previouslyUsedWithType(typeToString(existing.type)), this.locationOf(scope.offsetOf(name, number)));
        throw new ParseAbort();
      }
      existing.replaceAllUsesWith(value);
      this.forwardRefs.delete(existing);
      existing.definingOp?.erase();
    }
    scope.set(name, number, value, offset);
    // A name is recorded once: every definition (op results, block arguments) starts at #0.
    if (number === 0) {
      scope.definitions[scope.definitions.length - 1].push(name);
      // `%rows:2` names its group through result #0; a name starting with a digit is numeric.
      if (this.retainNames && !isDigit(name.charCodeAt(0))) setRetainedName(value, name);
    }
  }

  private getBlock(name: string, offset: number): Block {
    const blocks = this.blockScopes[this.blockScopes.length - 1];
    let e = blocks.get(name);
    if (!e) {
      e = { block: new Block(), defined: false, offset };
      blocks.set(name, e);
    }
    return e.block;
  }

  private defineBlock(name: string, offset: number, existing?: Block): Block {
    const blocks = this.blockScopes[this.blockScopes.length - 1];
    const e = blocks.get(name);
    if (e) {
      if (e.defined) this.fail(M.redefinedBlock('^' + name), offset);
      e.defined = true;
      e.offset = offset;
      return e.block;
    }
    const block = existing ?? new Block();
    blocks.set(name, { block, defined: true, offset });
    return block;
  }

  // ------------------------------------------------------------------ operations

  private parseOperation(): Operation {
    const opStart = this.lex.start;
    // The first result group (usually the only one) is kept in locals: no list per op.
    let firstName = '';
    let firstCount = 0;
    let firstOffset = 0;
    let rest: { name: string; count: number; offset: number }[] | undefined;
    let numExpected = 0;
    if (this.tok() === TokenKind.PercentIdentifier) {
      do {
        if (this.tok() !== TokenKind.PercentIdentifier) this.fail(M.expected('valid ssa identifier'));
        const offset = this.lex.start;
        const name = this.lex.tokenText.substring(1);
        this.consume();
        let count = 1;
        if (this.consumeIf(TokenKind.Colon)) {
          if (this.tok() !== TokenKind.Integer) this.fail(M.expected('integer number of results'));
          count = Number(this.lex.tokenText);
          if (!(count >= 1)) this.fail(M.expected('named operation to have at least 1 result'));
          this.consume();
        }
        if (firstCount === 0) {
          firstName = name;
          firstCount = count;
          firstOffset = offset;
        } else (rest ??= []).push({ name, count, offset });
        numExpected += count;
      } while (this.consumeIf(TokenKind.Comma));
      this.expect(TokenKind.Equal, M.expectedTokenIn('=', 'operation result list'));
    }
    let op: Operation;
    if (this.tok() === TokenKind.String) op = this.parseGenericOperation();
    else if (this.tok() === TokenKind.BareIdentifier) op = this.parseCustomOperation();
    else this.fail(M.expectedOpName);
    if (firstCount > 0) {
      if (op.numResults !== numExpected) this.fail(M.resultCountMismatch(op.numResults, numExpected), opStart);
      let idx = 0;
      for (let k = 0; k < firstCount; k++) this.defineValue(firstName, k, op.results[idx++], firstOffset);
      if (rest) {
        for (const r of rest) {
          for (let k = 0; k < r.count; k++) this.defineValue(r.name, k, op.results[idx++], r.offset);
        }
      }
    }
    return op;
  }

  private checkRegistration(name: string, offset: number): void {
    if (this.acceptedOpNames.has(name)) return;
    this.checkRegistrationSlow(name, offset);
    this.acceptedOpNames.add(name);
  }

  private checkRegistrationSlow(name: string, offset: number): void {
    const dot = name.indexOf('.');
    const ns = dot < 0 ? '' : name.substring(0, dot);
    const dialect = this.context.getDialect(ns);
    if (dialect?.getOperationDefinition?.(name)) return;
    if (this.allowUnregistered || dialect?.allowsUnknownOperations) return;
    if (name === 'builtin.module') return;
    this.fail(M.unregisteredOp(name), offset);
  }

  private parseGenericOperation(): Operation {
    const nameOffset = this.lex.start;
    this.nameOffset = nameOffset;
    // Consecutive ops usually share a name: reuse the previous string when the raw text (without
    // escapes) is the same.
    const last = this.lastOpName;
    const rawLen = this.lex.end - nameOffset - 2;
    let name: string;
    if (rawLen === last.length && rawLen > 0 && this.lex.text.startsWith(last, nameOffset + 1)) name = last;
    else {
      name = this.lex.stringValue();
      if (name.length === rawLen && name.indexOf('\\') < 0) this.lastOpName = name;
    }
    if (name.length === 0) this.fail(M.emptyOpName);
    this.consume();
    this.checkRegistration(name, this.lex.start);
    const operands: UnresolvedOperand[] = [];
    this.expect(TokenKind.LParen, M.expectedTokenIn('(', 'operand list'));
    if (!this.consumeIf(TokenKind.RParen)) {
      do operands.push(this.parseOperandOrFail());
      while (this.consumeIf(TokenKind.Comma));
      this.expect(TokenKind.RParen, M.expectedEndOf(')', 'operand list'));
    }
    let successors: Block[] = NO_BLOCKS;
    if (this.consumeIf(TokenKind.LSquare)) {
      successors = [];
      do {
        if (this.tok() !== TokenKind.CaretIdentifier) this.fail(M.expected('block name'));
        successors.push(this.getBlock(this.lex.tokenText.substring(1), this.lex.start));
        this.consume();
      } while (this.consumeIf(TokenKind.Comma));
      this.expect(TokenKind.RSquare, M.expectedCommaOr(']'));
    }
    let properties: readonly NamedAttribute[] | undefined;
    if (this.tok() === TokenKind.Less) {
      const offset = this.lex.start;
      this.consume();
      const p = this.parseAttributeOrFail();
      if (!(p instanceof DictionaryAttr)) this.fail(M.expected('properties to be a dictionary attribute'), offset);
      properties = p.entries;
      this.expect(TokenKind.Greater, M.expectedToClose('>', 'properties'));
    }
    let regions: Region[] = NO_REGIONS;
    if (this.consumeIf(TokenKind.LParen)) {
      regions = [];
      do {
        const r = new Region();
        this.parseRegionInto(r, undefined, false);
        regions.push(r);
      } while (this.consumeIf(TokenKind.Comma));
      this.expect(TokenKind.RParen, M.expectedEndOf(')', 'region list'));
    }
    let attributes: NamedAttribute[] = NO_ATTRIBUTES;
    if (this.tok() === TokenKind.LBrace) attributes = this.parseAttrDictBody();
    this.expect(TokenKind.Colon, M.expectedColonOpType);
    const typeOffset = this.lex.start;
    const fnType = this.parseTypeOrFail();
    if (!(fnType instanceof FunctionType)) this.fail(M.expectedFunctionTypeForOp, typeOffset);
    if (fnType.inputs.length !== operands.length) this.fail(M.operandCountMismatch(operands.length, fnType.inputs.length), typeOffset);
    const values = operands.map((o, i) => this.resolveValue(o, fnType.inputs[i], offsetOfLoc(o)));
    // The op's location: its trailing `loc(...)` when written (the usual case for generated
    // text), else the position of its name; no position location is built when unused.
    const trailing = this.parseOpTrailingLocation();
    const state: OperationState = {
      context: this.context,
      name,
      location: trailing ?? this.locationOf(nameOffset),
      operands: values,
      resultTypes: fnType.results,
      successors,
      regions,
      attributes: attributes.length ? toRecord(attributes) : undefined,
      properties: properties ? toRecord(properties) : undefined,
    };
    this.moveInherentAttributes(state);
    const op = Operation.create(state);
    this.applyPendingOpLocation(op);
    return op;
  }

  /**
   * Parses an op's trailing `loc(...)` before the op is created: the location, or undefined
   * when none is written or it is a forward alias (`loc(#loc3)` defined later), which
   * {@link applyPendingOpLocation} then records for the created op.
   */
  private parseOpTrailingLocation(): Location | undefined {
    if (!this.isKeyword('loc')) return undefined;
    this.consume();
    this.expect(TokenKind.LParen, M.expectedTokenIn('(', 'location'));
    let loc: Location | undefined;
    if (this.tok() === TokenKind.HashIdentifier) {
      const name = this.lex.tokenText.substring(1);
      const offset = this.lex.start;
      this.consume();
      const a = this.attrAliases.get(name);
      if (a === undefined) this.pendingOpLocation = { name, offset };
      else if (a instanceof Location) loc = a;
      else this.fail(M.expectedLocationAliasToBeLocation(name), offset);
    } else loc = this.parseLocationInstance();
    this.expect(TokenKind.RParen, M.expectedTokenIn(')', 'location'));
    return loc;
  }

  /** Defers the forward location alias seen by {@link parseOpTrailingLocation} to `op`. */
  private applyPendingOpLocation(op: Operation): void {
    const p = this.pendingOpLocation;
    if (!p) return;
    this.pendingOpLocation = undefined;
    this.deferredLocs.push({ name: p.name, offset: p.offset, apply: (l) => (op.location = l) });
  }

  /** For registered ops, inherent attributes written in the attribute dictionary become properties. */
  private moveInherentAttributes(state: OperationState): void {
    if (!state.attributes) return;
    const dot = state.name.indexOf('.');
    const def = this.context.getDialect(dot < 0 ? '' : state.name.substring(0, dot))?.getOperationDefinition?.(state.name);
    const names = def?.inherentAttrNames;
    if (!names || !names.size || !state.attributes) return;
    const attrs = { ...(state.attributes as Record<string, Attribute>) };
    const props = { ...((state.properties as Record<string, Attribute> | undefined) ?? {}) };
    let moved = false;
    for (const n of Object.keys(attrs)) {
      if (names.has(n) && !(n in props)) {
        props[n] = attrs[n];
        delete attrs[n];
        moved = true;
      }
    }
    if (moved) {
      state.attributes = attrs;
      state.properties = props;
    }
  }

  private parseCustomOperation(): Operation {
    const nameOffset = this.lex.start;
    this.nameOffset = nameOffset;
    const written = this.lex.tokenText;
    let name = written;
    let def = this.lookupDef(name);
    const dflt = this.defaultDialectStack[this.defaultDialectStack.length - 1];
    if (!def && !written.includes('.')) {
      name = `${dflt}.${written}`;
      def = this.lookupDef(name);
    }
    if (!def?.parse) {
      if (name === 'builtin.module' && !def) {
        this.consume();
        return this.parseModuleCustom(this.locationOf(nameOffset));
      }
      if (written.includes('.')) {
        const ns = written.substring(0, written.indexOf('.'));
        if (!this.context.getDialect(ns)) this.fail(M.dialectNotFoundForCustomOp(ns, written), nameOffset);
        this.fail(M.unknownCustomOp(written), nameOffset);
      }
      this.fail(M.unknownCustomOp(written, name), nameOffset);
    }
    this.consume();
    const state = new CustomOpState(this.context, name, this, nameOffset);
    this.defaultDialectStack.push(def.defaultDialect ?? '');
    let ok: boolean;
    try {
      ok = def.parse(this, state);
    } finally {
      this.defaultDialectStack.pop();
    }
    if (!ok || this.failed) {
      if (!this.failed) this.emitAt(nameOffset, M.expected(`custom assembly of '${name}'`));
      throw new ParseAbort();
    }
    const trailing = this.parseOpTrailingLocation();
    if (trailing) state.location = trailing;
    this.moveInherentAttributes(state);
    const op = Operation.create(state);
    this.applyPendingOpLocation(op);
    return op;
  }

  private lookupDef(name: string): ReturnType<NonNullable<import('../ir/dialect').Dialect['getOperationDefinition']>> {
    const dot = name.indexOf('.');
    if (dot < 0) return undefined;
    return this.context.getDialect(name.substring(0, dot))?.getOperationDefinition?.(name);
  }

  private parseModuleCustom(loc: Location): Operation {
    const props: Record<string, Attribute> = {};
    if (this.tok() === TokenKind.AtIdentifier) {
      props.sym_name = StringAttr.get(this.context, this.symbolText());
      this.consume();
    }
    const attrs = this.parseOptionalAttrDictWithKeywordOrFail();
    const attributes: Record<string, Attribute> = {};
    for (const a of attrs) {
      if (a.name === 'sym_name' || a.name === 'sym_visibility') props[a.name] = a.value;
      else attributes[a.name] = a.value;
    }
    const region = new Region();
    if (this.tok() !== TokenKind.LBrace) this.fail(M.moduleExpectedRegion);
    this.defaultDialectStack.push('builtin');
    try {
      this.parseRegionInto(region, undefined, true);
    } finally {
      this.defaultDialectStack.pop();
    }
    if (region.empty) region.push(new Block());
    const op = Operation.create({
      context: this.context,
      name: 'builtin.module',
      location: loc,
      regions: [region],
      properties: Object.keys(props).length ? props : undefined,
      attributes,
    });
    this.parseTrailingLocation(op);
    return op;
  }

  private symbolText(): string {
    const t = this.lex.tokenText;
    if (t.charCodeAt(1) === 34) return this.lex.stringValue();
    return t.substring(1);
  }

  private parseTrailingLocation(op: Operation): void {
    if (!this.isKeyword('loc')) return;
    this.parseLocationSpecifier((l) => (op.location = l));
  }

  /** `loc(...)`; `apply` receives the location (later, for a forward alias). */
  private parseLocationSpecifier(apply: (l: Location) => void): void {
    this.consume();
    this.expect(TokenKind.LParen, M.expectedTokenIn('(', 'location'));
    if (this.tok() === TokenKind.HashIdentifier) {
      const name = this.lex.tokenText.substring(1);
      const offset = this.lex.start;
      this.consume();
      const a = this.attrAliases.get(name);
      if (a === undefined) this.deferredLocs.push({ name, offset, apply });
      else if (a instanceof Location) apply(a);
      else this.fail(M.expectedLocationAliasToBeLocation(name), offset);
    } else apply(this.parseLocationInstance());
    this.expect(TokenKind.RParen, M.expectedTokenIn(')', 'location'));
  }

  private parseLocationInstance(): Location {
    this.enter();
    try {
      const ctx = this.context;
      if (this.tok() === TokenKind.HashIdentifier) {
        const name = this.lex.tokenText.substring(1);
        const a = this.attrAliases.get(name);
        if (!(a instanceof Location)) this.fail(a ? M.expectedLocationAliasToBeLocation(name) : M.undefinedAttributeAlias(name));
        this.consume();
        return a;
      }
      if (this.tok() === TokenKind.String) {
        const str = this.lex.stringValue();
        this.consume();
        if (this.consumeIf(TokenKind.Colon)) {
          const line = this.parseUnsignedOrFail('line number');
          let col = 0;
          if (this.consumeIf(TokenKind.Colon)) col = this.parseUnsignedOrFail('column number');
          if (this.consumeKeyword('to')) {
            if (this.consumeIf(TokenKind.Colon)) {
              const endCol = this.parseUnsignedOrFail('column number');
              return FileLineColLoc.getRange(ctx, str, line, col, line, endCol);
            }
            const endLine = this.parseUnsignedOrFail('line number');
            let endCol = 0;
            if (this.consumeIf(TokenKind.Colon)) endCol = this.parseUnsignedOrFail('column number');
            return FileLineColLoc.getRange(ctx, str, line, col, endLine, endCol);
          }
          return FileLineColLoc.get(ctx, str, line, col);
        }
        if (this.consumeIf(TokenKind.LParen)) {
          const child = this.parseLocationInstance();
          this.expect(TokenKind.RParen, M.expectedTokenIn(')', 'name location'));
          return NameLoc.get(ctx, str, child);
        }
        return NameLoc.get(ctx, str);
      }
      if (this.consumeKeyword('unknown')) return UnknownLoc.get(ctx);
      if (this.consumeKeyword('callsite')) {
        this.expect(TokenKind.LParen);
        const callee = this.parseLocationInstance();
        if (!this.consumeKeyword('at')) this.fail(M.expectedToken('at'));
        const caller = this.parseLocationInstance();
        this.expect(TokenKind.RParen);
        return CallSiteLoc.get(callee, caller);
      }
      if (this.consumeKeyword('fused')) {
        let metadata: Attribute | undefined;
        if (this.consumeIf(TokenKind.Less)) {
          metadata = this.parseAttributeOrFail();
          this.expect(TokenKind.Greater);
        }
        this.expect(TokenKind.LSquare);
        const locs: Location[] = [];
        if (!this.consumeIf(TokenKind.RSquare)) {
          do locs.push(this.parseLocationInstance());
          while (this.consumeIf(TokenKind.Comma));
          this.expect(TokenKind.RSquare);
        }
        return FusedLoc.getRaw(ctx, locs, metadata);
      }
      if (this.tok() === TokenKind.BareIdentifier) this.fail(M.unknownLocation(this.lex.tokenText));
      this.fail(M.expectedLocation);
    } finally {
      this.leave();
    }
  }

  private parseUnsignedOrFail(what: string): number {
    if (this.tok() !== TokenKind.Integer) this.fail(M.expected(what));
    const v = Number(this.lex.tokenText);
    this.consume();
    return v;
  }

  // ------------------------------------------------------------------ regions and blocks

  private parseRegionInto(region: Region, args: readonly OpAsmArgument[] | undefined, isolated: boolean): void {
    const lbrace = this.lex.start;
    this.expect(TokenKind.LBrace, M.expectedToken('{') + ' to begin a region');
    this.enter();
    try {
      if (args && args.length && this.tok() === TokenKind.CaretIdentifier) this.fail(M.expected('no block name in region with named arguments'));
      if ((args && args.length) || this.tok() !== TokenKind.RBrace) {
        this.pushRegionScope(isolated);
        const entry = new Block();
        region.push(entry);
        if (args) {
          for (const a of args) {
            if (!a.type) this.fail(M.expected('type for region argument'), offsetOfLoc(a.ssaName));
            const arg = entry.addArgument(a.type, a.location ?? a.ssaName.location);
            this.defineValue(a.ssaName.name, 0, arg, offsetOfLoc(a.ssaName));
          }
        }
        // Entry block (label optional).
        if (this.tok() === TokenKind.CaretIdentifier) this.parseBlockLabel(entry, true);
        this.parseBlockBody(entry);
        while (this.tok() === TokenKind.CaretIdentifier) {
          const b = this.parseBlockLabel(undefined, false);
          region.push(b);
          this.parseBlockBody(b);
        }
        if (this.tok() !== TokenKind.RBrace) this.fail(M.expectedToken('}') + ' to end a region');
        this.popRegionScope();
      }
      void lbrace;
      this.expect(TokenKind.RBrace);
    } finally {
      this.leave();
    }
  }

  /** Parses `^name(args):`; for the entry block, `entry` is the already created block. */
  private parseBlockLabel(entry: Block | undefined, isEntry: boolean): Block {
    const offset = this.lex.start;
    const name = this.lex.tokenText.substring(1);
    this.consume();
    let block: Block;
    if (isEntry && entry) {
      block = this.defineBlock(name, offset, entry);
      if (block !== entry) this.fail(M.entryBlockHasLabel, offset);
    } else block = this.defineBlock(name, offset);
    if (this.consumeIf(TokenKind.LParen)) {
      if (!this.consumeIf(TokenKind.RParen)) {
        do {
          if (this.tok() !== TokenKind.PercentIdentifier) this.fail(M.expected('SSA identifier'));
          const argOffset = this.lex.start;
          const argName = this.lex.tokenText.substring(1);
          this.consume();
          this.expect(TokenKind.Colon, M.expectedTokenIn(':', 'block argument'));
          const type = this.parseTypeOrFail();
          const arg = block.addArgument(type, this.locationOf(argOffset));
          if (this.isKeyword('loc')) this.parseLocationSpecifier((l) => (arg.loc = l));
          this.defineValue(argName, 0, arg, argOffset);
        } while (this.consumeIf(TokenKind.Comma));
        this.expect(TokenKind.RParen, M.expectedTokenIn(')', 'block argument list'));
      }
    }
    this.expect(TokenKind.Colon, M.expectedTokenIn(':', 'block label'));
    return block;
  }

  private parseBlockBody(block: Block): void {
    while (this.tok() !== TokenKind.CaretIdentifier && this.tok() !== TokenKind.RBrace) {
      if (this.tok() === TokenKind.EOF) this.fail(M.expectedOpName);
      block.push(this.parseOperation());
    }
  }

  // ------------------------------------------------------------------ operands

  private parseOperandOrFail(): UnresolvedOperand {
    if (this.tok() !== TokenKind.PercentIdentifier) this.fail(M.expected('SSA operand'));
    const offset = this.lex.start;
    const name = this.lex.tokenText.substring(1);
    this.consume();
    let number = 0;
    if (this.tok() === TokenKind.HashIdentifier) {
      const t = this.lex.tokenText.substring(1);
      if (!/^[0-9]+$/.test(t)) this.fail(M.expected('result number'));
      number = Number(t);
      this.consume();
    }
    return new LazyOperand(name, number, offset, this);
  }

  // ------------------------------------------------------------------ attributes

  private parseAttributeOrFail(type?: Type): Attribute {
    const a = this.parseOptionalAttributeImpl(type);
    if (a === null) this.fail(M.expectedAttribute);
    return a;
  }

  private parseAttrDictBody(): NamedAttribute[] {
    this.expect(TokenKind.LBrace);
    // Duplicate names: a linear scan of the (usually short) list, a set past 16 entries.
    let seen: Set<string> | undefined;
    const list: NamedAttribute[] = [];
    if (this.consumeIf(TokenKind.RBrace)) return list;
    do {
      const offset = this.lex.start;
      let name: string;
      if (this.tok() === TokenKind.BareIdentifier) name = this.lex.tokenText;
      else if (this.tok() === TokenKind.String) name = this.lex.stringValue();
      else this.fail(M.expectedAttrName);
      if (name.length === 0) this.fail(M.expectedAttrName);
      this.consume();
      if (list.length >= 16 && !seen) seen = new Set(list.map((e) => e.name));
      let duplicate = seen ? seen.has(name) : false;
      if (!seen) for (let i = 0; i < list.length && !duplicate; i++) duplicate = list[i]!.name === name;
      if (duplicate) this.fail(M.duplicateDictKey(name), offset);
      seen?.add(name);
      if (this.consumeIf(TokenKind.Equal)) list.push({ name, value: this.parseAttributeOrFail() });
      else list.push({ name, value: UnitAttr.get(this.context) });
    } while (this.consumeIf(TokenKind.Comma));
    this.expect(TokenKind.RBrace, M.expectedTokenIn('}', 'attribute dictionary'));
    return list;
  }

  private parseOptionalAttributeImpl(type?: Type): Attribute | null {
    const ctx = this.context;
    const start = this.lex.start;
    switch (this.tok()) {
      case TokenKind.LSquare: {
        this.enter();
        this.consume();
        const elems: Attribute[] = [];
        if (!this.consumeIf(TokenKind.RSquare)) {
          do elems.push(this.parseAttributeOrFail());
          while (this.consumeIf(TokenKind.Comma));
          this.expect(TokenKind.RSquare, M.expectedCommaOr(']'));
        }
        this.leave();
        return ArrayAttr.get(ctx, elems);
      }
      case TokenKind.LBrace: {
        this.enter();
        const list = this.parseAttrDictBody();
        this.leave();
        return DictionaryAttr.get(ctx, list);
      }
      case TokenKind.AtIdentifier: {
        const root = this.symbolText();
        this.consume();
        const nested: string[] = [];
        while (this.tok() === TokenKind.Colon && this.lex.text.charCodeAt(this.lex.end) === 58) {
          this.consume();
          this.consume();
          if (this.tok() !== TokenKind.AtIdentifier) this.fail(M.expected('nested symbol reference identifier'));
          nested.push(this.symbolText());
          this.consume();
        }
        return SymbolRefAttr.get(ctx, root, nested);
      }
      case TokenKind.String: {
        const value = this.lex.stringValue();
        this.consume();
        if (this.consumeIf(TokenKind.Colon)) return StringAttr.get(ctx, value, this.parseTypeOrFail());
        return StringAttr.get(ctx, value, type);
      }
      case TokenKind.HashIdentifier:
        return this.parseHashAttribute(type);
      case TokenKind.Minus:
      case TokenKind.Integer:
      case TokenKind.Float:
        return this.parseNumberAttribute(type);
      case TokenKind.BareIdentifier: {
        const kw = this.lex.tokenText;
        switch (kw) {
          case 'true':
          case 'false':
            this.consume();
            return IntegerAttr.bool(ctx, kw === 'true');
          case 'unit':
            this.consume();
            return UnitAttr.get(ctx);
          case 'affine_map':
            return this.parseAffineMapAttr();
          case 'affine_set':
            return this.parseAffineSetAttr();
          case 'array':
            return this.parseDenseArray();
          case 'dense':
            return this.parseDenseElements(type);
          case 'dense_resource':
            return this.parseDenseResource(type);
          case 'strided':
            return this.parseStrided();
          case 'loc': {
            let result: Location | undefined;
            this.parseLocationSpecifier((l) => (result = l));
            if (!result) this.fail(M.locationAliasNeverDefined, start);
            return result;
          }
          case 'sparse':
          case 'distinct':
          case 'opaque':
            this.fail(M.unknownBuiltinAttribute(kw));
        }
        const t = this.parseOptionalTypeImpl();
        if (t === null) return null;
        return TypeAttr.get(t);
      }
      default: {
        const t = this.parseOptionalTypeImpl();
        if (t === null) return null;
        return TypeAttr.get(t);
      }
    }
  }

  private parseHashAttribute(type?: Type): Attribute {
    const text = this.lex.tokenText.substring(1);
    const offset = this.lex.start;
    const afterName = this.lex.end;
    const nextIsLess = this.lex.text.charCodeAt(afterName) === 60;
    if (!text.includes('.') && !nextIsLess) {
      const a = this.attrAliases.get(text);
      if (!a) this.fail(M.undefinedAttributeAlias(text), offset);
      this.consume();
      return a;
    }
    // Dialect attribute.
    const dot = text.indexOf('.');
    const ns = dot < 0 ? text : text.substring(0, dot);
    const dialect = this.context.getDialect(ns) as DialectAsmHooks | undefined;
    if (dialect?.parseAttribute) {
      // Position the parser at the mnemonic: re-lex after '#ns.'.
      this.lex.resetTo(dot < 0 ? afterName : offset + 2 + dot);
      this.consume();
      this.enter();
      const a = dialect.parseAttribute(this, type);
      this.leave();
      if (a === undefined || this.failed) throw new ParseAbort();
      return a;
    }
    const data = this.scanDialectBody(dot < 0 ? '' : text.substring(dot + 1), afterName);
    let attrType: Type | undefined;
    if (this.tok() === TokenKind.Colon) {
      this.consume();
      attrType = this.parseTypeOrFail();
    }
    return OpaqueAttr.get(this.context, ns, data, attrType);
  }

  /**
   * Captures `prefix<...>` verbatim from the raw text starting at `pos` (balanced `<>`, `()`,
   * `[]`, `{}`, strings), as MLIR keeps unknown dialect attributes/types; moves past it.
   */
  private scanDialectBody(prefix: string, pos: number): string {
    const text = this.lex.text;
    if (text.charCodeAt(pos) !== 60) {
      this.lex.resetTo(pos);
      this.consume();
      return prefix;
    }
    const stack: number[] = [];
    const openAt: number[] = [];
    let p = pos;
    const len = text.length;
    const closerOf: Record<number, number> = { 60: 62, 40: 41, 91: 93, 123: 125 };
    for (; p < len; p++) {
      const c = text.charCodeAt(p);
      if (c === 34) {
        p++;
        while (p < len && text.charCodeAt(p) !== 34 && text.charCodeAt(p) !== 10) {
          if (text.charCodeAt(p) === 92) p++;
          p++;
        }
        if (p >= len || text.charCodeAt(p) !== 34) this.fail(M.unterminatedString, p);
        continue;
      }
      if (c === 60 || c === 40 || c === 91 || c === 123) {
        stack.push(c);
        openAt.push(p);
      } else if (c === 62 || c === 41 || c === 93 || c === 125) {
        // '->' inside a body is an arrow, not a closing '>'.
        if (c === 62 && text.charCodeAt(p - 1) === 45) continue;
        const top = stack[stack.length - 1];
        if (closerOf[top] !== c) this.fail(M.unbalancedDialectBody(String.fromCharCode(top)), openAt[openAt.length - 1]);
        stack.pop();
        openAt.pop();
      }
      if (stack.length === 0) break;
    }
    if (stack.length) this.fail(M.unbalancedDialectBody(String.fromCharCode(stack[stack.length - 1])), openAt[openAt.length - 1]);
    const body = text.substring(pos + 1, p);
    this.lex.resetTo(p + 1);
    this.consume();
    return prefix ? `${prefix}<${body}>` : body;
  }

  private parseNumberAttribute(type?: Type): Attribute {
    const ctx = this.context;
    const negOffset = this.lex.start;
    const negative = this.consumeIf(TokenKind.Minus);
    const numOffset = this.lex.start;
    const kind = this.tok();
    if (kind !== TokenKind.Integer && kind !== TokenKind.Float) this.fail(M.expected('integer or floating point literal'));
    const text = this.lex.tokenText;
    this.consume();
    let attrType = type;
    let typeOffset = this.lex.start;
    if (this.consumeIf(TokenKind.Colon)) {
      typeOffset = this.lex.start;
      attrType = this.parseTypeOrFail();
    }
    if (kind === TokenKind.Float) {
      const ft = attrType ?? FloatType.f64(ctx);
      if (!(ft instanceof FloatType)) this.fail(M.floatNotValidForType, typeOffset);
      const v = parseFloat(text);
      return FloatAttr.get(ft, negative ? -v : v);
    }
    const t = attrType ?? IntegerType.get(ctx, 64);
    if (t instanceof FloatType) {
      if (text.startsWith('0x')) {
        if (negative) this.fail(M.hexFloatNegative, negOffset);
        const bits = BigInt(text);
        const v = floatFromBits(t.kind, bits);
        if (v === undefined) this.fail(M.hexFloatWidth(typeToString(t)), numOffset);
        return FloatAttr.get(t, v);
      }
      const v = Number(text);
      return FloatAttr.get(t, negative ? -v : v);
    }
    if (!(t instanceof IntegerType || t instanceof IndexType)) this.fail(M.expectedIntegerOrFloatType, typeOffset);
    let value = BigInt(text);
    if (negative) value = -value;
    if (!integerFits(t, value)) {
      if (t instanceof IntegerType && t.isUnsigned && negative) this.fail(M.negativeUnsigned, numOffset);
      this.fail(M.integerOutOfRange, numOffset);
    }
    return IntegerAttr.get(t, value);
  }

  private parseDenseArray(): Attribute {
    this.consume();
    this.expect(TokenKind.Less);
    const typeOffset = this.lex.start;
    const et = this.parseTypeOrFail();
    if (!(et instanceof IntegerType || et instanceof FloatType)) this.fail(M.denseArrayElementType(typeToString(et)), typeOffset);
    const ints: bigint[] = [];
    const floats: number[] = [];
    if (this.consumeIf(TokenKind.Colon)) {
      do {
        if (et instanceof IntegerType && et.width === 1 && (this.isKeyword('true') || this.isKeyword('false'))) {
          ints.push(this.lex.tokenText === 'true' ? 1n : 0n);
          this.consume();
          continue;
        }
        const neg = this.consumeIf(TokenKind.Minus);
        const offset = this.lex.start;
        if (this.tok() === TokenKind.Integer) {
          // Short literals (below 2^53) go through a number: small values share one bigint.
          let v = this.lex.end - this.lex.start <= 15 ? toBigInt(Number(this.lex.tokenText)) : BigInt(this.lex.tokenText);
          if (neg) v = -v;
          if (et instanceof IntegerType) {
            if (!integerFits(et, v)) this.fail(M.integerOutOfRange, offset);
            ints.push(v);
          } else if (this.lex.tokenText.startsWith('0x')) {
            // Hex literal: the bit pattern of the float (as MLIR prints non-round-tripping values).
            if (neg) this.fail(M.hexFloatNegative, offset);
            const f = floatFromBits(et.kind, v);
            if (f === undefined) this.fail(M.hexFloatWidth(typeToString(et)), offset);
            floats.push(f);
          } else floats.push(Number(v));
        } else if (this.tok() === TokenKind.Float && et instanceof FloatType) {
          const v = parseFloat(this.lex.tokenText);
          floats.push(neg ? -v : v);
        } else this.fail(et instanceof IntegerType ? M.expected('integer value') : M.expected('float value'));
        this.consume();
      } while (this.consumeIf(TokenKind.Comma));
    }
    this.expect(TokenKind.Greater, M.expectedToClose('>', 'an array attribute'));
    return et instanceof IntegerType ? DenseArrayAttr.getInts(et, ints) : DenseArrayAttr.getFloats(et, floats);
  }

  private parseStrided(): Attribute {
    this.consume();
    this.expect(TokenKind.Less);
    this.expect(TokenKind.LSquare, M.stridedExpectedStrides);
    const strides: number[] = [];
    const parseDim = (): number => {
      if (this.consumeIf(TokenKind.Question)) return DYNAMIC;
      const neg = this.consumeIf(TokenKind.Minus);
      if (this.tok() !== TokenKind.Integer) this.fail(M.expected("integer or '?'"));
      const v = Number(this.lex.tokenText);
      this.consume();
      return neg ? -v : v;
    };
    if (!this.consumeIf(TokenKind.RSquare)) {
      do strides.push(parseDim());
      while (this.consumeIf(TokenKind.Comma));
      this.expect(TokenKind.RSquare);
    }
    let offset = 0;
    if (this.consumeIf(TokenKind.Comma)) {
      if (!this.consumeKeyword('offset')) this.fail(M.expectedToken('offset'));
      this.expect(TokenKind.Colon);
      offset = parseDim();
    }
    this.expect(TokenKind.Greater);
    return StridedLayoutAttr.get(this.context, offset, strides);
  }

  private parseDenseResource(type?: Type): Attribute {
    this.consume();
    this.expect(TokenKind.Less);
    if (this.tok() !== TokenKind.BareIdentifier && this.tok() !== TokenKind.String) this.fail(M.expected('resource handle'));
    const handle = this.lex.tokenText;
    this.consume();
    this.expect(TokenKind.Greater);
    let t = type;
    if (this.consumeIf(TokenKind.Colon)) t = this.parseTypeOrFail();
    if (!t) this.fail(M.expectedToken(':'));
    return DenseResourceElementsAttr.get(t, handle);
  }

  private parseDenseElements(type?: Type): Attribute {
    const ctx = this.context;
    const denseOffset = this.lex.start;
    this.consume();
    this.expect(TokenKind.Less);
    // Literal: hex string, empty, or nested list of numbers.
    let hex: string | undefined;
    let hexOffset = 0;
    const values: { text: string; neg: boolean; kind: 'int' | 'float' | 'bool'; offset: number }[] = [];
    let shape: number[] = [];
    let empty = false;
    if (this.tok() === TokenKind.String) {
      hexOffset = this.lex.start;
      hex = this.lex.stringValue();
      this.consume();
    } else if (this.tok() === TokenKind.Greater) {
      empty = true;
    } else {
      shape = this.parseTensorLiteral(values, 0);
    }
    this.expect(TokenKind.Greater, M.expectedTokenIn('>', 'dense elements literal'));
    let t = type;
    if (this.consumeIf(TokenKind.Colon)) {
      const typeOffset = this.lex.start;
      t = this.parseTypeOrFail();
      if (!(t instanceof RankedTensorType || t instanceof VectorType)) this.fail(M.denseExpectedShapedType, typeOffset);
    }
    if (!(t instanceof RankedTensorType || t instanceof VectorType)) this.fail(M.denseExpectedShapedType, denseOffset);
    const n = getNumElements(t.shape);
    if (n === undefined) this.fail(M.denseDynamicShape(typeToString(t)), denseOffset);
    const et = t.elementType;
    if (et instanceof ComplexType) this.fail(M.denseComplexUnsupported, denseOffset);
    if (!isDenseElementType(et)) this.fail(M.denseUnsupportedElement(typeToString(et)), denseOffset);
    if (hex !== undefined) {
      if (!hex.startsWith('0x')) this.fail(M.denseExpectedHex, hexOffset);
      const bytes = decodeHexDigits(hex, 2);
      if (!bytes) this.fail(M.denseExpectedHex, hexOffset);
      const a = decodeDenseHex(t, bytes);
      if (!a) this.fail(M.denseHexSize(typeToString(t)), denseOffset);
      return a;
    }
    if (empty) {
      if (n !== 0) this.fail(M.denseShapeMismatch('0', t.shape.join(', ')), denseOffset);
      return DenseElementsAttr.get(t, createDenseStorage(et, 0));
    }
    const splat = shape.length === 0 && values.length === 1;
    if (!splat && shape.join(',') !== t.shape.join(',')) {
      this.fail(M.denseShapeMismatch(shape.join(', '), t.shape.join(', ')), denseOffset);
    }
    const storage = createDenseStorage(et, values.length);
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (et instanceof FloatType) {
        if (v.kind === 'bool') this.fail(M.expected('floating point elements, but parsed a boolean'), v.offset);
        let x: number;
        if (v.kind === 'int' && v.text.startsWith('0x')) {
          const f = floatFromBits(et.kind, BigInt(v.text));
          if (f === undefined) this.fail(M.hexFloatWidth(typeToString(et)), v.offset);
          x = f;
        } else x = Number(v.text);
        storage[i] = roundToFloatKind(et.kind, v.neg ? -x : x);
      } else {
        if (v.kind === 'float') this.fail(M.denseExpectedInt, v.offset);
        let big: bigint;
        if (v.kind === 'bool') {
          if (!(et instanceof IntegerType && et.width === 1)) this.fail(M.denseExpectedBool, v.offset);
          big = v.text === 'true' ? 1n : 0n;
        } else {
          big = BigInt(v.text);
          if (v.neg) big = -big;
          if (!integerFits(et, big)) {
            if (et instanceof IntegerType && et.isUnsigned && v.neg) this.fail(M.negativeUnsigned, v.offset);
            this.fail(M.integerOutOfRangeForType(typeToString(et)), v.offset);
          }
        }
        const width = et instanceof IndexType ? 64 : (et as IntegerType).width;
        const wrapped = et instanceof IntegerType && (et.isUnsigned || (et.width === 1 && et.isSignless)) ? BigInt.asUintN(width, big) : BigInt.asIntN(width, big);
        setStorage(storage, i, wrapped);
      }
    }
    void ctx;
    return DenseElementsAttr.get(t, storage);
  }

  /** Parses a (nested) tensor literal, returning its shape; elements are appended to `values`. */
  private parseTensorLiteral(
    values: { text: string; neg: boolean; kind: 'int' | 'float' | 'bool'; offset: number }[],
    depth: number,
  ): number[] {
    if (this.tok() !== TokenKind.LSquare) {
      const offset = this.lex.start;
      if (this.isKeyword('true') || this.isKeyword('false')) {
        values.push({ text: this.lex.tokenText, neg: false, kind: 'bool', offset });
        this.consume();
        return [];
      }
      if (this.tok() === TokenKind.LParen) this.fail(M.denseComplexUnsupported);
      const neg = this.consumeIf(TokenKind.Minus);
      if (this.tok() !== TokenKind.Integer && this.tok() !== TokenKind.Float) this.fail(M.expected('element literal of primitive type'));
      values.push({ text: this.lex.tokenText, neg, kind: this.tok() === TokenKind.Float ? 'float' : 'int', offset: this.lex.start });
      this.consume();
      return [];
    }
    this.enter();
    this.consume();
    let shape: number[] | undefined;
    let count = 0;
    if (this.tok() !== TokenKind.RSquare) {
      do {
        const sub = this.parseTensorLiteral(values, depth + 1);
        if (shape === undefined) shape = sub;
        else if (shape.join(',') !== sub.join(',')) this.fail(M.denseRanksInconsistent);
        count++;
      } while (this.consumeIf(TokenKind.Comma));
    }
    this.expect(TokenKind.RSquare);
    this.leave();
    return [count, ...(shape ?? [])];
  }

  // ------------------------------------------------------------------ affine

  private parseAffineMapAttr(): Attribute {
    this.consume();
    this.expect(TokenKind.Less);
    const r = this.parseAffineMapOrSet(false);
    this.expect(TokenKind.Greater, M.expectedTokenIn('>', 'affine map'));
    return AffineMapAttr.get(r as AffineMap);
  }

  private parseAffineSetAttr(): Attribute {
    this.consume();
    this.expect(TokenKind.Less);
    const r = this.parseAffineMapOrSet(true);
    this.expect(TokenKind.Greater, M.expectedTokenIn('>', 'integer set'));
    return IntegerSetAttr.get(r as IntegerSet);
  }

  /** `(d0, d1)[s0] -> (exprs)` or `(d0)[s0] : (constraints)`. */
  parseAffineMapOrSet(isSet: boolean): AffineMap | IntegerSet {
    const ctx = this.context;
    const names = new Map<string, AffineExpr>();
    const parseIdList = (close: TokenKind, isDim: boolean): number => {
      let n = 0;
      if (this.consumeIf(close)) return 0;
      do {
        if (this.tok() !== TokenKind.BareIdentifier) this.fail(M.expected('identifier'));
        const name = this.lex.tokenText;
        if (names.has(name)) this.fail(M.redeclaredAffineIdentifier(name));
        names.set(name, isDim ? getAffineDimExpr(ctx, n) : getAffineSymbolExpr(ctx, n));
        n++;
        this.consume();
      } while (this.consumeIf(TokenKind.Comma));
      this.expect(close);
      return n;
    };
    this.expect(TokenKind.LParen, M.expectedTokenIn('(', 'dimensional identifier list'));
    const numDims = parseIdList(TokenKind.RParen, true);
    let numSymbols = 0;
    if (this.consumeIf(TokenKind.LSquare)) numSymbols = parseIdList(TokenKind.RSquare, false);
    if (isSet) {
      this.expect(TokenKind.Colon);
      this.expect(TokenKind.LParen);
      const cons: AffineExpr[] = [];
      const eq: boolean[] = [];
      if (!this.consumeIf(TokenKind.RParen)) {
        do {
          const lhs = this.parseAffineExpr(names);
          let isEq: boolean;
          let swap = false;
          if (this.tok() === TokenKind.Greater && this.peekIsEqual()) {
            this.consume();
            this.consume();
            isEq = false;
          } else if (this.tok() === TokenKind.Less && this.peekIsEqual()) {
            this.consume();
            this.consume();
            isEq = false;
            swap = true;
          } else if (this.tok() === TokenKind.Equal && this.peekIsEqual()) {
            this.consume();
            this.consume();
            isEq = true;
          } else this.fail(M.expectedAffineConstraint);
          const rhs = this.parseAffineExpr(names);
          cons.push(swap ? rhs.sub(lhs) : lhs.sub(rhs));
          eq.push(isEq);
        } while (this.consumeIf(TokenKind.Comma));
        this.expect(TokenKind.RParen);
      }
      // `0 == 0` is MLIR's spelling of the empty set; keep the constraint as parsed.
      return IntegerSet.get(ctx, numDims, numSymbols, cons, eq);
    }
    this.expect(TokenKind.Arrow, M.expectedToken('->'));
    this.expect(TokenKind.LParen);
    const results: AffineExpr[] = [];
    if (!this.consumeIf(TokenKind.RParen)) {
      do results.push(this.parseAffineExpr(names));
      while (this.consumeIf(TokenKind.Comma));
      this.expect(TokenKind.RParen);
    }
    return AffineMap.get(ctx, numDims, numSymbols, results);
  }

  private peekIsEqual(): boolean {
    return this.lex.text.charCodeAt(this.lex.end) === 61;
  }

  /** Parses an affine expression with `names` bound to dims/symbols (precedence climbing). */
  parseAffineExpr(names: ReadonlyMap<string, AffineExpr>): AffineExpr {
    this.enter();
    let lhs = this.parseAffineProduct(names);
    for (;;) {
      if (this.tok() === TokenKind.Plus) {
        this.consume();
        this.checkAffineOperand();
        lhs = lhs.add(this.parseAffineProduct(names));
      } else if (this.tok() === TokenKind.Minus) {
        this.consume();
        this.checkAffineOperand();
        lhs = lhs.sub(this.parseAffineProduct(names));
      } else break;
    }
    this.leave();
    return lhs;
  }

  private checkAffineOperand(): void {
    const k = this.tok();
    if (k === TokenKind.RParen || k === TokenKind.Comma || k === TokenKind.EOF || k === TokenKind.Greater) this.fail(M.missingRightOperand);
  }

  private parseAffineProduct(names: ReadonlyMap<string, AffineExpr>): AffineExpr {
    let lhs = this.parseAffineOperand(names);
    for (;;) {
      const offset = this.lex.start;
      if (this.tok() === TokenKind.Star) {
        this.consume();
        const rhs = this.parseAffineOperand(names);
        if (!lhs.isSymbolicOrConstant && !rhs.isSymbolicOrConstant) this.fail(M.nonAffineMul, offset);
        lhs = lhs.mul(rhs);
      } else if (this.isKeyword('floordiv') || this.isKeyword('ceildiv') || this.isKeyword('mod')) {
        const op = this.lex.tokenText;
        this.consume();
        const rhs = this.parseAffineOperand(names);
        if (!rhs.isSymbolicOrConstant) this.fail(M.nonAffineDiv(op), offset);
        lhs = op === 'floordiv' ? lhs.floorDiv(rhs) : op === 'ceildiv' ? lhs.ceilDiv(rhs) : lhs.mod(rhs);
      } else return lhs;
    }
  }

  private parseAffineOperand(names: ReadonlyMap<string, AffineExpr>): AffineExpr {
    const ctx = this.context;
    if (this.consumeIf(TokenKind.Minus)) {
      if (this.tok() === TokenKind.Integer) {
        const v = this.parseAffineConstant(true);
        return getAffineConstantExpr(ctx, v);
      }
      return this.parseAffineOperand(names).neg();
    }
    if (this.tok() === TokenKind.Integer) return getAffineConstantExpr(ctx, this.parseAffineConstant(false));
    if (this.tok() === TokenKind.LParen) {
      this.consume();
      const e = this.parseAffineExpr(names);
      this.expect(TokenKind.RParen);
      return e;
    }
    if (this.tok() === TokenKind.BareIdentifier) {
      const name = this.lex.tokenText;
      const e = names.get(name);
      if (!e) this.fail(M.unknownAffineIdentifier(name));
      this.consume();
      return e;
    }
    this.fail(M.expectedAffineExpr);
  }

  private parseAffineConstant(negative: boolean): number {
    const v = BigInt(this.lex.tokenText) * (negative ? -1n : 1n);
    if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < BigInt(Number.MIN_SAFE_INTEGER)) this.fail(M.affineConstantOverflow);
    this.consume();
    return Number(v);
  }

  // ------------------------------------------------------------------ types

  private parseTypeOrFail(): Type {
    const kind = this.tok();
    if (kind === TokenKind.LParen || kind === TokenKind.BareIdentifier) return this.parseMemoizedType();
    const t = this.parseOptionalTypeImpl();
    if (t === null) this.fail(M.expectedType);
    return t;
  }

  /**
   * Builtin and function types are memoized by their source text (a file repeats the same few
   * types on every op): the extent of the type is found with a character scan, and a text seen
   * before gives its type without re-parsing. Only successful parses are recorded.
   */
  private parseMemoizedType(): Type {
    const text = this.lex.text;
    const start = this.lex.start;
    const end = scanTypeEnd(text, start);
    if (end > start) {
      const len = end - start;
      let key: string | undefined;
      let hit: MemoizedType | undefined;
      if (this.lastType && this.lastType.key.length === len && text.startsWith(this.lastType.key, start)) hit = this.lastType;
      else hit = this.typeMemo.get((key = text.substring(start, end)));
      if (hit && this.depth + hit.depth <= this.maxNesting) {
        this.lastType = hit;
        this.lex.resetTo(end);
        this.consume();
        return hit.type;
      }
      const savedPeak = this.peakDepth;
      this.peakDepth = this.depth;
      const depth = this.depth;
      const t = this.parseOptionalTypeImpl();
      const innerDepth = this.peakDepth - depth;
      if (savedPeak > this.peakDepth) this.peakDepth = savedPeak;
      if (t === null) this.fail(M.expectedType);
      // Record only when the parse consumed exactly the scanned text.
      if (!hit && this.lex.start === skipSpaces(text, end)) {
        const entry: MemoizedType = { key: key ?? text.substring(start, end), type: t, depth: innerDepth };
        this.typeMemo.set(entry.key, entry);
        this.lastType = entry;
      }
      return t;
    }
    const t = this.parseOptionalTypeImpl();
    if (t === null) this.fail(M.expectedType);
    return t;
  }

  private parseOptionalTypeImpl(): Type | null {
    const ctx = this.context;
    switch (this.tok()) {
      case TokenKind.LParen: {
        this.enter();
        this.consume();
        const inputs: Type[] = [];
        if (!this.consumeIf(TokenKind.RParen)) {
          do inputs.push(this.parseTypeOrFail());
          while (this.consumeIf(TokenKind.Comma));
          this.expect(TokenKind.RParen);
        }
        this.expect(TokenKind.Arrow, M.expectedToken('->') + ' in function type');
        const results = this.parseFunctionResultTypes();
        this.leave();
        return FunctionType.get(ctx, inputs, results);
      }
      case TokenKind.ExclamationIdentifier:
        return this.parseExclamationType();
      case TokenKind.BareIdentifier:
        return this.parseBuiltinType();
      default:
        return null;
    }
  }

  private parseFunctionResultTypes(): Type[] {
    if (this.tok() === TokenKind.LParen) {
      // `(T, U)` result list, or a function type as the single result: `((i32) -> i32)`.
      this.consume();
      const results: Type[] = [];
      if (!this.consumeIf(TokenKind.RParen)) {
        do results.push(this.parseTypeOrFail());
        while (this.consumeIf(TokenKind.Comma));
        this.expect(TokenKind.RParen, M.expectedTokenIn(')', 'function result list'));
      }
      return results;
    }
    return [this.parseTypeOrFail()];
  }

  private parseExclamationType(): Type {
    const text = this.lex.tokenText.substring(1);
    const offset = this.lex.start;
    const afterName = this.lex.end;
    const nextIsLess = this.lex.text.charCodeAt(afterName) === 60;
    if (!text.includes('.') && !nextIsLess) {
      const t = this.typeAliases.get(text);
      if (!t) this.fail(M.undefinedTypeAlias(text), offset);
      this.consume();
      return t;
    }
    const dot = text.indexOf('.');
    const ns = dot < 0 ? text : text.substring(0, dot);
    const dialect = this.context.getDialect(ns) as DialectAsmHooks | undefined;
    if (dialect?.parseType) {
      this.lex.resetTo(dot < 0 ? afterName : offset + 2 + dot);
      this.consume();
      this.enter();
      const t = dialect.parseType(this);
      this.leave();
      if (t === undefined || this.failed) throw new ParseAbort();
      return t;
    }
    const data = this.scanDialectBody(dot < 0 ? '' : text.substring(dot + 1), afterName);
    return OpaqueType.get(this.context, ns, data);
  }

  private parseBuiltinType(): Type | null {
    const ctx = this.context;
    const text = this.lex.tokenText;
    const m = /^(s|u)?i([0-9]+)$/.exec(text);
    if (m) {
      const width = Number(m[2]);
      if (width > 16777215 || (width === 0 && m[1] === undefined && false)) this.fail(M.invalidIntegerWidth);
      this.consume();
      const signedness: Signedness = m[1] === 's' ? 'signed' : m[1] === 'u' ? 'unsigned' : 'signless';
      return IntegerType.get(ctx, width, signedness);
    }
    if (isFloatKind(text)) {
      this.consume();
      return FloatType.get(ctx, text);
    }
    switch (text) {
      case 'index':
        this.consume();
        return IndexType.get(ctx);
      case 'none':
        this.consume();
        return NoneType.get(ctx);
      case 'tensor':
        return this.parseTensorType();
      case 'memref':
        return this.parseMemRefType();
      case 'vector':
        return this.parseVectorType();
      case 'complex': {
        this.consume();
        this.enter();
        this.expect(TokenKind.Less);
        const et = this.parseTypeOrFail();
        this.expect(TokenKind.Greater);
        this.leave();
        return ComplexType.get(ctx, et);
      }
      case 'tuple': {
        this.consume();
        this.enter();
        this.expect(TokenKind.Less);
        const types: Type[] = [];
        if (!this.consumeIf(TokenKind.Greater)) {
          do types.push(this.parseTypeOrFail());
          while (this.consumeIf(TokenKind.Comma));
          this.expect(TokenKind.Greater);
        }
        this.leave();
        return TupleType.get(ctx, types);
      }
      default:
        return null;
    }
  }

  /**
   * Parses `4x?x[8]x` dimension prefixes, splitting tokens like `x4xf32` as MLIR does.
   * Returns the dims (and scalable flags), leaving the lexer on the element type.
   */
  private parseDimensionList(allowDynamic: boolean, allowScalable: boolean): { shape: number[]; scalable: boolean[] } {
    const shape: number[] = [];
    const scalable: boolean[] = [];
    for (;;) {
      let dim: number | undefined;
      let isScalable = false;
      if (this.tok() === TokenKind.Question) {
        if (!allowDynamic) this.fail(M.unrankedVector);
        this.consume();
        dim = DYNAMIC;
      } else if (this.tok() === TokenKind.LSquare && allowScalable) {
        this.consume();
        dim = this.parseDimInteger();
        this.expect(TokenKind.RSquare);
        isScalable = true;
      } else if (this.tok() === TokenKind.Integer) {
        dim = this.parseDimInteger();
      } else break;
      // Expect 'x' (possibly the start of a bare identifier like `xf32`).
      if (this.tok() !== TokenKind.BareIdentifier || this.lex.text.charCodeAt(this.lex.start) !== 120) this.fail(M.expectedX);
      this.lex.resetTo(this.lex.start + 1);
      this.consume();
      shape.push(dim);
      scalable.push(isScalable);
    }
    return { shape, scalable };
  }

  private parseDimInteger(): number {
    const text = this.lex.tokenText;
    if (text.startsWith('0x')) {
      // `0xf32` is `0`, `x`, `f32`.
      this.lex.resetTo(this.lex.start + 1);
      this.consume();
      return 0;
    }
    const v = Number(text);
    if (!Number.isSafeInteger(v)) this.fail(M.negativeDimension);
    this.consume();
    return v;
  }

  private parseTensorType(): Type {
    const ctx = this.context;
    this.consume();
    this.enter();
    this.expect(TokenKind.Less, M.expectedTokenIn('<', 'tensor type'));
    if (this.consumeIf(TokenKind.Star)) {
      if (this.tok() !== TokenKind.BareIdentifier || this.lex.text.charCodeAt(this.lex.start) !== 120) this.fail(M.expectedX);
      this.lex.resetTo(this.lex.start + 1);
      this.consume();
      const et = this.parseTypeOrFail();
      this.expect(TokenKind.Greater);
      this.leave();
      return UnrankedTensorType.get(ctx, et);
    }
    const { shape } = this.parseDimensionList(true, false);
    const etOffset = this.lex.start;
    const et = this.parseOptionalTypeImpl();
    if (!et) this.fail(M.expectedElementType, etOffset);
    if (et instanceof FunctionType || et instanceof NoneType) this.fail(M.invalidTensorElementType, etOffset);
    let encoding: Attribute | undefined;
    if (this.consumeIf(TokenKind.Comma)) encoding = this.parseAttributeOrFail();
    this.expect(TokenKind.Greater, M.expectedTokenIn('>', 'tensor type'));
    this.leave();
    return RankedTensorType.get(ctx, shape, et, encoding);
  }

  private parseVectorType(): Type {
    const ctx = this.context;
    this.consume();
    this.enter();
    this.expect(TokenKind.Less, M.expectedTokenIn('<', 'vector type'));
    const { shape, scalable } = this.parseDimensionList(false, true);
    const etOffset = this.lex.start;
    const et = this.parseOptionalTypeImpl();
    if (!et) this.fail(M.expectedElementType, etOffset);
    this.expect(TokenKind.Greater, M.expectedTokenIn('>', 'vector type'));
    this.leave();
    return VectorType.get(ctx, shape, et, scalable);
  }

  private parseMemRefType(): Type {
    const ctx = this.context;
    this.consume();
    this.enter();
    this.expect(TokenKind.Less, M.expectedTokenIn('<', 'memref type'));
    if (this.consumeIf(TokenKind.Star)) {
      if (this.tok() !== TokenKind.BareIdentifier || this.lex.text.charCodeAt(this.lex.start) !== 120) this.fail(M.expectedX);
      this.lex.resetTo(this.lex.start + 1);
      this.consume();
      const et = this.parseTypeOrFail();
      let space: Attribute | undefined;
      if (this.consumeIf(TokenKind.Comma)) space = this.parseAttributeOrFail();
      this.expect(TokenKind.Greater);
      this.leave();
      return UnrankedMemRefType.get(ctx, et, space);
    }
    const { shape } = this.parseDimensionList(true, false);
    const etOffset = this.lex.start;
    const et = this.parseOptionalTypeImpl();
    if (!et) this.fail(M.expectedElementType, etOffset);
    if (et instanceof FunctionType || et instanceof NoneType) this.fail(M.invalidMemRefElementType, etOffset);
    let layout: Attribute | undefined;
    let space: Attribute | undefined;
    while (this.consumeIf(TokenKind.Comma)) {
      const a = this.parseAttributeOrFail();
      const isLayout = a instanceof AffineMapAttr || a instanceof StridedLayoutAttr;
      if (isLayout && !layout && !space) layout = a;
      else if (!space) space = a;
      else this.fail(M.expectedToken('>'));
    }
    this.expect(TokenKind.Greater, M.expectedTokenIn('>', 'memref type'));
    this.leave();
    if (layout instanceof AffineMapAttr && layout.value.isIdentity) layout = undefined;
    return MemRefType.get(ctx, shape, et, layout, space);
  }

  // ------------------------------------------------------------------ OpAsmParser: punctuation

  private optionalPunct(kind: TokenKind): boolean {
    if (this.failed || this.lex.kind !== kind) return false;
    this.lex.next();
    return true;
  }
  private requiredPunct(kind: TokenKind): boolean {
    if (this.failed) return false;
    if (this.lex.kind !== kind) {
      this.emitAt(this.lex.start, M.expectedToken(tokenSpelling(kind)));
      return false;
    }
    this.lex.next();
    return true;
  }
  parseArrow(): boolean {
    return this.requiredPunct(TokenKind.Arrow);
  }
  parseOptionalArrow(): boolean {
    return this.optionalPunct(TokenKind.Arrow);
  }
  parseColon(): boolean {
    return this.requiredPunct(TokenKind.Colon);
  }
  parseOptionalColon(): boolean {
    return this.optionalPunct(TokenKind.Colon);
  }
  parseComma(): boolean {
    return this.requiredPunct(TokenKind.Comma);
  }
  parseOptionalComma(): boolean {
    return this.optionalPunct(TokenKind.Comma);
  }
  parseEqual(): boolean {
    return this.requiredPunct(TokenKind.Equal);
  }
  parseOptionalEqual(): boolean {
    return this.optionalPunct(TokenKind.Equal);
  }
  parseLParen(): boolean {
    return this.requiredPunct(TokenKind.LParen);
  }
  parseOptionalLParen(): boolean {
    return this.optionalPunct(TokenKind.LParen);
  }
  parseRParen(): boolean {
    return this.requiredPunct(TokenKind.RParen);
  }
  parseOptionalRParen(): boolean {
    return this.optionalPunct(TokenKind.RParen);
  }
  parseLSquare(): boolean {
    return this.requiredPunct(TokenKind.LSquare);
  }
  parseOptionalLSquare(): boolean {
    return this.optionalPunct(TokenKind.LSquare);
  }
  parseRSquare(): boolean {
    return this.requiredPunct(TokenKind.RSquare);
  }
  parseOptionalRSquare(): boolean {
    return this.optionalPunct(TokenKind.RSquare);
  }
  parseLBrace(): boolean {
    return this.requiredPunct(TokenKind.LBrace);
  }
  parseOptionalLBrace(): boolean {
    return this.optionalPunct(TokenKind.LBrace);
  }
  parseRBrace(): boolean {
    return this.requiredPunct(TokenKind.RBrace);
  }
  parseOptionalRBrace(): boolean {
    return this.optionalPunct(TokenKind.RBrace);
  }
  parseLess(): boolean {
    return this.requiredPunct(TokenKind.Less);
  }
  parseOptionalLess(): boolean {
    return this.optionalPunct(TokenKind.Less);
  }
  parseGreater(): boolean {
    return this.requiredPunct(TokenKind.Greater);
  }
  parseOptionalGreater(): boolean {
    return this.optionalPunct(TokenKind.Greater);
  }
  parseQuestion(): boolean {
    return this.requiredPunct(TokenKind.Question);
  }
  parseOptionalQuestion(): boolean {
    return this.optionalPunct(TokenKind.Question);
  }
  parseStar(): boolean {
    return this.requiredPunct(TokenKind.Star);
  }
  parseOptionalStar(): boolean {
    return this.optionalPunct(TokenKind.Star);
  }
  parsePlus(): boolean {
    return this.requiredPunct(TokenKind.Plus);
  }
  parseOptionalPlus(): boolean {
    return this.optionalPunct(TokenKind.Plus);
  }
  parseMinus(): boolean {
    return this.requiredPunct(TokenKind.Minus);
  }
  parseOptionalMinus(): boolean {
    return this.optionalPunct(TokenKind.Minus);
  }
  parseVerticalBar(): boolean {
    return this.requiredPunct(TokenKind.VerticalBar);
  }
  parseOptionalVerticalBar(): boolean {
    return this.optionalPunct(TokenKind.VerticalBar);
  }
  parseEllipsis(): boolean {
    return this.requiredPunct(TokenKind.Ellipsis);
  }
  parseOptionalEllipsis(): boolean {
    return this.optionalPunct(TokenKind.Ellipsis);
  }

  // ------------------------------------------------------------------ OpAsmParser: values

  /** Runs `body`, converting an abort into `undefined` (for hook-facing methods). */
  private soft<T>(body: () => T): T | undefined {
    if (this.failed) return undefined;
    try {
      return body();
    } catch (e) {
      if (e instanceof ParseAbort) return undefined;
      throw e;
    }
  }

  parseKeyword(keyword: string): boolean {
    if (this.failed) return false;
    if (!this.isKeyword(keyword)) {
      this.emitAt(this.lex.start, M.expectedToken(keyword));
      return false;
    }
    this.consume();
    return true;
  }
  parseOptionalKeyword(keywords: string | readonly string[]): string | null {
    if (this.failed || this.tok() !== TokenKind.BareIdentifier) return null;
    const t = this.lex.tokenText;
    if (typeof keywords === 'string' ? t === keywords : keywords.includes(t)) {
      this.consume();
      return t;
    }
    return null;
  }
  parseKeywordName(): ParseResult<string> {
    const k = this.parseOptionalKeywordName();
    if (k === null) {
      if (!this.failed) this.emitAt(this.lex.start, M.expected('keyword'));
      return undefined;
    }
    return k;
  }
  parseOptionalKeywordName(): string | null {
    if (this.failed || this.tok() !== TokenKind.BareIdentifier) return null;
    const t = this.lex.tokenText;
    this.consume();
    return t;
  }
  parseKeywordOrString(): ParseResult<string> {
    if (this.tok() === TokenKind.String) return this.parseString();
    return this.parseKeywordName();
  }
  parseInteger(): ParseResult<number> {
    const v = this.parseOptionalInteger();
    if (v === null) {
      this.emitAt(this.lex.start, M.expected('integer value'));
      return undefined;
    }
    return v;
  }
  parseOptionalInteger(): OptionalParseResult<number> {
    // Fast path: a short literal (at most 15 characters, so below 2^53 in decimal or hex) is
    // read as a number directly, without the bigint round trip.
    if (!this.failed && this.tok() === TokenKind.Integer && this.lex.end - this.lex.start <= 15) {
      const v = Number(this.lex.tokenText);
      this.consume();
      return v;
    }
    const v = this.parseOptionalBigInteger();
    if (v === null || v === undefined) return v;
    if (v > MAX_SAFE_BIGINT || v < MIN_SAFE_BIGINT) {
      this.emitAt(this.lex.start, M.integerOutOfRange);
      return undefined;
    }
    return Number(v);
  }
  parseBigInteger(): ParseResult<bigint> {
    const v = this.parseOptionalBigInteger();
    if (v === null) {
      this.emitAt(this.lex.start, M.expected('integer value'));
      return undefined;
    }
    return v;
  }
  parseOptionalBigInteger(): OptionalParseResult<bigint> {
    if (this.failed) return undefined;
    const save = this.lex.start;
    if (this.tok() === TokenKind.Minus) {
      this.consume();
      if (this.tok() !== TokenKind.Integer) {
        this.lex.resetTo(save);
        this.consume();
        return null;
      }
      const v = -BigInt(this.lex.tokenText);
      this.consume();
      return v;
    }
    if (this.tok() !== TokenKind.Integer) return null;
    const v = BigInt(this.lex.tokenText);
    this.consume();
    return v;
  }
  parseFloat(): ParseResult<number> {
    if (this.failed) return undefined;
    const neg = this.consumeIf(TokenKind.Minus);
    if (this.tok() !== TokenKind.Float && this.tok() !== TokenKind.Integer) {
      this.emitAt(this.lex.start, M.expected('floating point value'));
      return undefined;
    }
    const v = Number(this.lex.tokenText);
    this.consume();
    return neg ? -v : v;
  }
  parseString(): ParseResult<string> {
    const s = this.parseOptionalString();
    if (s === null) {
      if (!this.failed) this.emitAt(this.lex.start, M.expected('string'));
      return undefined;
    }
    return s;
  }
  parseOptionalString(): string | null {
    if (this.failed || this.tok() !== TokenKind.String) return null;
    const s = this.lex.stringValue();
    this.consume();
    return s;
  }
  parseSymbolName(): ParseResult<string> {
    const s = this.parseOptionalSymbolName();
    if (s === null) {
      if (!this.failed) this.emitAt(this.lex.start, M.expected('valid @-identifier for symbol name'));
      return undefined;
    }
    return s;
  }
  parseOptionalSymbolName(): string | null {
    if (this.failed || this.tok() !== TokenKind.AtIdentifier) return null;
    const s = this.symbolText();
    this.consume();
    return s;
  }
  parseType(): ParseResult<Type> {
    return this.soft(() => this.parseTypeOrFail());
  }
  parseOptionalType(): OptionalParseResult<Type> {
    return this.soft(() => this.parseOptionalTypeImpl());
  }
  parseColonType(): ParseResult<Type> {
    if (!this.parseColon()) return undefined;
    return this.parseType();
  }
  parseColonTypeList(): ParseResult<Type[]> {
    if (!this.parseColon()) return undefined;
    return this.parseTypeList();
  }
  parseOptionalColonTypeList(): ParseResult<Type[]> {
    if (!this.parseOptionalColon()) return this.failed ? undefined : [];
    return this.parseTypeList();
  }
  parseTypeList(): ParseResult<Type[]> {
    return this.soft(() => {
      const list: Type[] = [];
      do list.push(this.parseTypeOrFail());
      while (this.consumeIf(TokenKind.Comma));
      return list;
    });
  }
  parseArrowTypeList(): ParseResult<Type[]> {
    if (!this.parseArrow()) return undefined;
    return this.soft(() => this.parseFunctionResultTypes());
  }
  parseOptionalArrowTypeList(): ParseResult<Type[]> {
    if (!this.parseOptionalArrow()) return this.failed ? undefined : [];
    return this.soft(() => this.parseFunctionResultTypes());
  }
  parseFunctionType(): ParseResult<FunctionType> {
    return this.soft(() => {
      const offset = this.lex.start;
      const t = this.parseTypeOrFail();
      if (!(t instanceof FunctionType)) this.fail(M.expectedFunctionTypeForOp, offset);
      return t;
    });
  }
  parseAttribute(type?: Type): ParseResult<Attribute> {
    return this.soft(() => this.parseAttributeOrFail(type));
  }
  parseOptionalAttribute(type?: Type): OptionalParseResult<Attribute> {
    return this.soft(() => this.parseOptionalAttributeImpl(type));
  }
  parseOptionalAttrDict(): ParseResult<NamedAttribute[]> {
    return this.soft(() => (this.tok() === TokenKind.LBrace ? this.parseAttrDictBody() : []));
  }
  private parseOptionalAttrDictWithKeywordOrFail(): NamedAttribute[] {
    if (!this.consumeKeyword('attributes')) return [];
    return this.parseAttrDictBody();
  }
  parseOptionalAttrDictWithKeyword(): ParseResult<NamedAttribute[]> {
    return this.soft(() => this.parseOptionalAttrDictWithKeywordOrFail());
  }
  parseCommaSeparatedList(delimiter: Delimiter, parseElement: () => boolean): boolean {
    if (this.failed) return false;
    const optional = delimiter.startsWith('optional-');
    const pair = DELIMITER_PAIRS[delimiter];
    if (pair) {
      if (this.tok() !== pair[0]) {
        if (optional) return true;
        this.emitAt(this.lex.start, M.expectedToken(tokenSpelling(pair[0])));
        return false;
      }
      this.consume();
      if (this.tok() === pair[1]) {
        this.consume();
        return true;
      }
    }
    do if (!parseElement() || this.failed) return false;
    while (this.optionalPunct(TokenKind.Comma));
    if (pair) return this.requiredPunct(pair[1]);
    return true;
  }
  parseOptionalLocationSpecifier(): OptionalParseResult<Location> {
    if (this.failed) return undefined;
    if (!this.isKeyword('loc')) return null;
    return this.soft(() => {
      let result: Location | undefined;
      this.parseLocationSpecifier((l) => (result = l));
      return result ?? UnknownLoc.get(this.context);
    });
  }

  parseOperand(): ParseResult<UnresolvedOperand> {
    return this.soft(() => this.parseOperandOrFail());
  }
  parseOptionalOperand(): OptionalParseResult<UnresolvedOperand> {
    if (this.failed) return undefined;
    if (this.tok() !== TokenKind.PercentIdentifier) return null;
    return this.parseOperand();
  }
  parseOperandList(delimiter: Delimiter = 'none', requiredCount = -1): ParseResult<UnresolvedOperand[]> {
    const list: UnresolvedOperand[] = [];
    const start = this.lex.start;
    if (delimiter === 'none' && this.tok() !== TokenKind.PercentIdentifier) {
      if (requiredCount > 0) {
        this.emitAt(start, M.expectedOperandCount(requiredCount, 0));
        return undefined;
      }
      return list;
    }
    const ok = this.parseCommaSeparatedList(delimiter, () => {
      if (this.tok() !== TokenKind.PercentIdentifier && delimiter !== 'none') return false;
      const o = this.parseOperand();
      if (!o) return false;
      list.push(o);
      return true;
    });
    if (!ok) {
      if (!this.failed) this.emitAt(this.lex.start, M.expected('SSA operand'));
      return undefined;
    }
    if (requiredCount >= 0 && list.length !== requiredCount) {
      this.emitAt(start, M.expectedOperandCount(requiredCount, list.length));
      return undefined;
    }
    return list;
  }
  resolveOperand(operand: UnresolvedOperand, type: Type, result: Value[]): boolean {
    const v = this.soft(() => this.resolveValue(operand, type, offsetOfLoc(operand)));
    if (!v) return false;
    result.push(v);
    return true;
  }
  resolveOperands(
    operands: readonly UnresolvedOperand[],
    types: Type | readonly Type[],
    result: Value[],
    location?: Location,
  ): boolean {
    if (types instanceof Type) {
      for (const o of operands) if (!this.resolveOperand(o, types, result)) return false;
      return true;
    }
    const list = types as readonly Type[];
    if (list.length !== operands.length) {
      this.emitError(M.operandCountMismatch(operands.length, list.length), location);
      return false;
    }
    for (let i = 0; i < operands.length; i++) if (!this.resolveOperand(operands[i], list[i], result)) return false;
    return true;
  }
  parseArgument(allowType = false, allowAttrs = false): ParseResult<OpAsmArgument> {
    return this.soft(() => {
      const ssaName = this.parseOperandOrFail();
      const arg: OpAsmArgument = { ssaName };
      if (allowType) {
        this.expect(TokenKind.Colon);
        arg.type = this.parseTypeOrFail();
      }
      if (allowAttrs && this.tok() === TokenKind.LBrace) arg.attributes = this.parseAttrDictBody();
      if (this.isKeyword('loc')) this.parseLocationSpecifier((l) => (arg.location = l));
      return arg;
    });
  }
  parseOptionalArgument(allowType = false, allowAttrs = false): OptionalParseResult<OpAsmArgument> {
    if (this.failed) return undefined;
    if (this.tok() !== TokenKind.PercentIdentifier) return null;
    return this.parseArgument(allowType, allowAttrs);
  }
  parseArgumentList(delimiter: Delimiter = 'none', allowType = false, allowAttrs = false): ParseResult<OpAsmArgument[]> {
    const list: OpAsmArgument[] = [];
    if (delimiter === 'none' && this.tok() !== TokenKind.PercentIdentifier) return list;
    const ok = this.parseCommaSeparatedList(delimiter, () => {
      const a = this.parseArgument(allowType, allowAttrs);
      if (!a) return false;
      list.push(a);
      return true;
    });
    return ok ? list : undefined;
  }
  parseRegion(region: Region, args?: readonly OpAsmArgument[], enableNameShadowing = false): boolean {
    const r = this.soft(() => {
      this.parseRegionInto(region, args, enableNameShadowing);
      return true;
    });
    return r === true;
  }
  parseOptionalRegion(region: Region, args?: readonly OpAsmArgument[]): boolean | null {
    if (this.failed) return false;
    if (this.tok() !== TokenKind.LBrace) return null;
    return this.parseRegion(region, args);
  }
  parseSuccessor(): ParseResult<Block> {
    const b = this.parseOptionalSuccessor();
    if (b === null) {
      this.emitAt(this.lex.start, M.expected('block name'));
      return undefined;
    }
    return b;
  }
  parseOptionalSuccessor(): OptionalParseResult<Block> {
    if (this.failed) return undefined;
    if (this.tok() !== TokenKind.CaretIdentifier) return null;
    const b = this.getBlock(this.lex.tokenText.substring(1), this.lex.start);
    this.consume();
    return b;
  }
  parseSuccessorAndUseList(operands: Value[]): ParseResult<Block> {
    const b = this.parseSuccessor();
    if (!b) return undefined;
    if (this.optionalPunct(TokenKind.LParen)) {
      const ops = this.parseOperandList('none');
      if (!ops) return undefined;
      const types = this.parseColonTypeList();
      if (!types) return undefined;
      if (!this.parseRParen()) return undefined;
      if (!this.resolveOperands(ops, types, operands)) return undefined;
    }
    return b;
  }
}

// ------------------------------------------------------------------ helpers

/** An unresolved operand whose `location` is computed only when asked for (most never are). */
class LazyOperand implements UnresolvedOperand {
  private loc: Location | undefined;
  constructor(
    readonly name: string,
    readonly number: number,
    readonly offset: number,
    private readonly parser: Parser,
  ) {}
  get location(): Location {
    return (this.loc ??= this.parser.locationOf(this.offset));
  }
}

function fmtName(op: UnresolvedOperand): string {
  return op.number ? `%${op.name}#${op.number}` : `%${op.name}`;
}

function offsetOfLoc(op: UnresolvedOperand): number {
  return (op as UnresolvedOperand & { offset?: number }).offset ?? 0;
}

function toRecord(list: readonly NamedAttribute[]): Record<string, Attribute> {
  const r: Record<string, Attribute> = {};
  for (const e of list) r[e.name] = e.value;
  return r;
}

const rangeCache = new WeakMap<Type, { min: bigint; max: bigint }>();

/** The accepted literal range of an integer type (signless accepts signed and unsigned values, as MLIR). */
function integerRange(type: IntegerType | IndexType): { min: bigint; max: bigint } {
  let r = rangeCache.get(type);
  if (r) return r;
  const width = type instanceof IndexType ? 64 : type.width;
  if (width === 0) r = { min: 0n, max: 0n };
  else {
    const w = BigInt(width);
    const smin = -(1n << (w - 1n));
    const smax = (1n << (w - 1n)) - 1n;
    const umax = (1n << w) - 1n;
    if (type instanceof IntegerType && type.isUnsigned) r = { min: 0n, max: umax };
    else if (type instanceof IntegerType && type.isSigned) r = { min: smin, max: smax };
    else r = { min: smin, max: umax };
  }
  rangeCache.set(type, r);
  return r;
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

/** Decodes hex digit pairs of `text` from `start` into bytes (undefined on odd length or a bad digit). */
function decodeHexDigits(text: string, start: number): Uint8Array | undefined {
  const n = text.length - start;
  if (n % 2) return undefined;
  const bytes = new Uint8Array(n / 2);
  for (let i = 0, p = start; i < bytes.length; i++, p += 2) {
    const hi = hexValue(text.charCodeAt(p));
    const lo = hexValue(text.charCodeAt(p + 1));
    if (hi < 0 || lo < 0) return undefined;
    bytes[i] = (hi << 4) | lo;
  }
  return bytes;
}

/** True when `value` is representable in `type` as MLIR's parser accepts it. */
function integerFits(type: IntegerType | IndexType, value: bigint): boolean {
  const r = integerRange(type);
  return value >= r.min && value <= r.max;
}

function floatFromBits(kind: string, bits: bigint): number | undefined {
  switch (kind) {
    case 'f16':
      return bits < 0x10000n ? bitsToF16(Number(bits)) : undefined;
    case 'bf16':
      return bits < 0x10000n ? bitsToBf16(Number(bits)) : undefined;
    case 'f32':
      return bits < 0x100000000n ? bitsToF32(Number(bits)) : undefined;
    case 'f64':
      return bits < 1n << 64n ? bitsToF64(bits) : undefined;
    default:
      return undefined;
  }
}

// ------------------------------------------------------------------ public API

/**
 * Parses MLIR text into a module operation. Top-level operations other than a single
 * `builtin.module` are wrapped in an implicit module located at `file:0:0`. Errors are
 * emitted to `context.diagnostics` (the first error stops parsing) and `undefined` is
 * returned; the parser never throws on user input.
 *
 * @example
 * const module = parseSourceString(ctx, '"t.a"() : () -> ()', { filename: 'x.mlir', allowUnregisteredDialects: true });
 */
export function parseSourceString(context: MLIRContext, text: string, options: ParseOptions = {}): Operation | undefined {
  return new Parser(context, text, options).parseModule();
}

/** Parses one attribute (e.g. `dense<[1, 2]> : tensor<2xi32>`); diagnostics as {@link parseSourceString}. */
export function parseAttribute(context: MLIRContext, text: string, options: ParseOptions = {}): Attribute | undefined {
  return new Parser(context, text, options).parseStandaloneAttribute();
}

/** Parses one type (e.g. `memref<4x?xf32, strided<[?, 1]>>`). */
export function parseType(context: MLIRContext, text: string, options: ParseOptions = {}): Type | undefined {
  return new Parser(context, text, options).parseStandaloneType();
}

void BlockArgument;
