/** The parser's shared state and its lowest layer (one layer of the parser split by concern; see `parser.ts`). */
import { Attribute, Location, Type } from '../ir/attribute';
import type { MLIRContext } from '../ir/context';
import { Diagnostic } from '../diagnostics/diagnostic';
import { FileLineColLoc } from '../ir/location';
import { type Value } from '../ir/value';
import { Lexer } from './lexer';
import { TokenKind, tokenSpelling } from './token';
import { SourceFile } from './source';
import { M } from './syntax-messages';
import type { AsmParser, Delimiter, OptionalParseResult, ParseResult } from './op-asm';
import type { DeferredLocation, ParseOptions, ParsedSourceInfo } from './parser-state';
import { BlockEntry, IsolatedScope } from './ssa-scopes';

/** Thrown internally to unwind after the first error (never escapes the parser). */
export class ParseAbort {}

/** A type memoized by its spelling (see `TypeParser.parseMemoizedType`). */
export interface MemoizedType {
  key: string;
  type: Type;
  /** Nesting depth the type's parse needed beyond the current one. */
  depth: number;
}

/** Bounds of the integers read as numbers rather than bigints. */
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

/**
 * The state every layer of the parser shares (lexer, source, nesting, aliases, SSA scopes) and
 * the token, diagnostic and scalar `OpAsmParser` helpers (punctuation, keywords, integers,
 * strings), as MLIR's `Parser` base over its `ParserState`.
 *
 * One layer of the parser: each concern's parser extends the previous one and they share
 * one parser state (the fields of {@link BaseParser}); `Parser` is the operation parser on top.
 */
export abstract class BaseParser {
  // Implemented by the layers above (an attribute may hold a type, a type an attribute).
  /** Parses an attribute or fails (the attribute parser). */
  protected abstract parseAttributeOrFail(type?: Type): Attribute;
  /** The text of a dialect attribute or type body `<...>` at `pos` (the attribute parser). */
  protected abstract scanDialectBody(prefix: string, pos: number): string;
  /** This parser as the `AsmParser` a dialect's type and attribute hooks receive. */
  protected abstract get asmParser(): AsmParser;

  protected readonly lex: Lexer;
  protected readonly source: SourceFile;
  protected readonly allowUnregistered: boolean;
  protected readonly maxNesting: number;
  /** `ParseOptions.retainIdentifierNames`: record source names of SSA values. */
  protected readonly retainNames: boolean;
  protected depth = 0;
  /** The last generic op name read without escapes (reused by the next identical one). */
  protected lastOpName = '';
  /** Op names that passed `checkRegistration` (dialects do not change while parsing). */
  protected readonly acceptedOpNames = new Set<string>();
  /** Deepest `depth` reached (for the nesting a memoized type needs). */
  protected peakDepth = 0;
  protected readonly typeMemo = new Map<string, MemoizedType>();
  protected lastType: MemoizedType | undefined;
  protected failed = false;
  protected readonly attrAliases = new Map<string, Attribute>();
  protected readonly typeAliases = new Map<string, Type>();
  protected readonly resources: string[] = [];
  protected readonly deferredLocs: DeferredLocation[] = [];
  /** A forward location alias after the op being parsed (see `parseOpTrailingLocation`). */
  protected pendingOpLocation: { name: string; offset: number } | undefined;
  protected readonly scopes: IsolatedScope[] = [new IsolatedScope()];
  protected readonly blockScopes: Map<string, BlockEntry>[] = [];
  protected readonly forwardRefs = new Map<Value, number>();
  protected readonly defaultDialectStack: string[] = ['builtin'];
  protected nameOffset = 0;
  protected readonly fileNameAttr: string;

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

  /** Aliases and resources seen (after {@link parseModule}). */
  get info(): ParsedSourceInfo {
    return {
      attributeAliases: this.attrAliases,
      typeAliases: this.typeAliases,
      resources: this.resources,
      deferredLocations: this.deferredLocs.length,
    };
  }

  protected expectEOF(): boolean {
    if (this.lex.kind !== TokenKind.EOF) {
      this.fail(M.expected('end of input'));
      return false;
    }
    return true;
  }

  protected guard<T>(body: () => T | undefined): T | undefined {
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

  protected emitAt(offset: number, message: string): Diagnostic {
    const d = new Diagnostic('error', this.locationOf(offset), message);
    if (!this.failed) {
      this.failed = true;
      this.context.diagnostics.emit(d);
    }
    return d;
  }

  /** Emits `message` at the current token, and aborts parsing. */
  protected fail(message: string, offset = this.lex.start): never {
    if (this.lex.kind === TokenKind.Error && offset === this.lex.start) message = this.lex.errorMessage;
    else if (offset === this.lex.start && message.startsWith('expected')) offset = this.wrongTokenOffset(offset);
    this.emitAt(offset, message);
    throw new ParseAbort();
  }

  /**
   * MLIR's `emitWrongTokenError` placement: a token at the start of a line (or EOF) is
   * reported at the end of the previous line with content, before any `//` comment.
   */
  protected wrongTokenOffset(offset: number): number {
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

  protected enter(): void {
    if (++this.depth > this.maxNesting) this.fail(M.nestingTooDeep(this.maxNesting));
    if (this.depth > this.peakDepth) this.peakDepth = this.depth;
  }
  protected leave(): void {
    this.depth--;
  }

  // ------------------------------------------------------------------ token helpers

  protected tok(): TokenKind {
    return this.lex.kind;
  }
  protected consume(): void {
    this.lex.next();
  }
  protected consumeIf(kind: TokenKind): boolean {
    if (this.lex.kind !== kind) return false;
    this.lex.next();
    return true;
  }
  protected expect(kind: TokenKind, message?: string): void {
    if (this.lex.kind !== kind) this.fail(message ?? M.expectedToken(tokenSpelling(kind)));
    this.lex.next();
  }
  protected isKeyword(kw: string): boolean {
    return this.lex.kind === TokenKind.BareIdentifier && this.lex.tokenText === kw;
  }
  protected consumeKeyword(kw: string): boolean {
    if (!this.isKeyword(kw)) return false;
    this.lex.next();
    return true;
  }

  protected symbolText(): string {
    const t = this.lex.tokenText;
    if (t.charCodeAt(1) === 34) return this.lex.stringValue();
    return t.substring(1);
  }

  protected parseUnsignedOrFail(what: string): number {
    if (this.tok() !== TokenKind.Integer) this.fail(M.expected(what));
    const v = Number(this.lex.tokenText);
    this.consume();
    return v;
  }

  // ------------------------------------------------------------------ OpAsmParser: punctuation

  protected optionalPunct(kind: TokenKind): boolean {
    if (this.failed || this.lex.kind !== kind) return false;
    this.lex.next();
    return true;
  }
  protected requiredPunct(kind: TokenKind): boolean {
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
  protected soft<T>(body: () => T): T | undefined {
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
}
