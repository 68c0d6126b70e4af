/** Type parsing (one layer of the parser split by concern; see `parser.ts`). */
import {
  CH_BACKSLASH,
  CH_CR,
  CH_DQUOTE,
  CH_GT,
  CH_LBRACE,
  CH_LF,
  CH_LPAREN,
  CH_LSQUARE,
  CH_LT,
  CH_MINUS,
  CH_RBRACE,
  CH_RPAREN,
  CH_RSQUARE,
  CH_SPACE,
  CH_TAB,
  isBareIdChar,
} from './lexer';
import { Attribute, Type } from '../ir/attribute';
import { ComplexType, DYNAMIC, FloatType, FunctionType, IndexType, IntegerType, MemRefType, NoneType, OpaqueType, RankedTensorType, TupleType, UnrankedMemRefType, UnrankedTensorType, VectorType, isFloatKind, type Signedness } from '../ir/builtin-types';
import { AffineMapAttr, StridedLayoutAttr } from '../ir/builtin-attributes';
import { TokenKind } from './token';
import { M } from './syntax-messages';
import type { DialectAsmHooks, OptionalParseResult, ParseResult } from './op-asm';
import { AffineParser } from './affine-parser';
import { BaseParser, MemoizedType, ParseAbort } from './base-parser';

function skipSpaces(text: string, pos: number): number {
  for (;;) {
    const c = text.charCodeAt(pos);
    if (c === CH_SPACE || c === CH_LF || c === CH_TAB || c === CH_CR) pos++;
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
    if (c === CH_LPAREN || c === CH_LT || c === CH_LSQUARE || c === CH_LBRACE) depth++;
    else if (c === CH_RPAREN || c === CH_GT || c === CH_RSQUARE || c === CH_RBRACE) {
      if (--depth === 0) return pos + 1;
    } else if (c === CH_MINUS && text.charCodeAt(pos + 1) === CH_GT) pos++;
    else if (c === CH_DQUOTE) {
      for (pos++; pos < len && text.charCodeAt(pos) !== CH_DQUOTE; pos++) if (text.charCodeAt(pos) === CH_BACKSLASH) pos++;
    } else if (c === CH_LF) return -1;
  }
  return -1;
}

/**
 * The offset just past the type starting at `pos` (a builtin type `name<...>` or a function type
 * `(...) -> result`) by a character scan, or -1 when the text does not have that simple shape.
 */
function scanTypeEnd(text: string, pos: number): number {
  const c = text.charCodeAt(pos);
  if (c === CH_LPAREN) {
    const close = scanBalanced(text, pos);
    if (close < 0) return -1;
    const arrow = skipSpaces(text, close);
    if (text.charCodeAt(arrow) !== CH_MINUS || text.charCodeAt(arrow + 1) !== CH_GT) return -1;
    const result = skipSpaces(text, arrow + 2);
    if (text.charCodeAt(result) === CH_LPAREN) return scanBalanced(text, result);
    return isBareIdChar(text.charCodeAt(result)) ? scanTypeEnd(text, result) : -1;
  }
  let p = pos;
  while (isBareIdChar(text.charCodeAt(p))) p++;
  if (p === pos) return -1;
  return text.charCodeAt(p) === CH_LT ? scanBalanced(text, p) : p;
}

/**
 * Types: builtin types (shaped types with their dimension lists, function types), aliases and
 * dialect types, memoized by spelling, as MLIR's TypeParser.cpp.
 *
 * One layer of the parser: each concern's parser extends the previous one and they share
 * one parser state (the fields of {@link BaseParser}); `Parser` is the operation parser on top.
 */
export abstract class TypeParser extends AffineParser {

  /** Parses exactly one type filling the whole buffer. */
  parseStandaloneType(): Type | undefined {
    return this.guard(() => {
      const t = this.parseType();
      if (t === undefined) return undefined;
      if (!this.expectEOF()) return undefined;
      return t;
    });
  }

  // ------------------------------------------------------------------ types

  protected parseTypeOrFail(): Type {
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
  protected parseMemoizedType(): Type {
    const text = this.lex.text;
    const start = this.lex.start;
    // The previous type again (the usual case): its text is here, and the scan would end where
    // it ends, since a key ending in '>' or ')' closes its last bracket and one ending in an
    // identifier character ends where the identifier does (unless '<' follows).
    const last = this.lastType;
    if (last && text.startsWith(last.key, start) && this.depth + last.depth <= this.maxNesting) {
      const end = start + last.key.length;
      const lastChar = last.key.charCodeAt(last.key.length - 1);
      const next = text.charCodeAt(end);
      if (lastChar === CH_GT || lastChar === CH_RPAREN || (!isBareIdChar(next) && next !== CH_LT)) {
        this.lex.resetTo(end);
        this.consume();
        return last.type;
      }
    }
    const end = scanTypeEnd(text, start);
    if (end > start) {
      const len = end - start;
      let key: string | undefined;
      let hit: MemoizedType | undefined;
      if (last && last.key.length === len && text.startsWith(last.key, start)) hit = last;
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

  protected parseOptionalTypeImpl(): Type | null {
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

  protected parseFunctionResultTypes(): Type[] {
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

  protected parseExclamationType(): Type {
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
      const t = dialect.parseType(this.asmParser);
      this.leave();
      if (t === undefined || this.failed) throw new ParseAbort();
      return t;
    }
    const data = this.scanDialectBody(dot < 0 ? '' : text.substring(dot + 1), afterName);
    return OpaqueType.get(this.context, ns, data);
  }

  protected parseBuiltinType(): Type | null {
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
  protected parseDimensionList(allowDynamic: boolean, allowScalable: boolean): { shape: number[]; scalable: boolean[] } {
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

  protected parseDimInteger(): number {
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

  protected parseTensorType(): Type {
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

  protected parseVectorType(): Type {
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

  protected parseMemRefType(): Type {
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
}
