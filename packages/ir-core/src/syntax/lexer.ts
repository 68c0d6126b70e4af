import { TokenKind } from './token';
import { M } from './syntax-messages';

// Character codes (one table for the lexer and the parser: the parser imports what it compares).
export const CH_TAB = 9;
export const CH_LF = 10;
export const CH_CR = 13;
export const CH_SPACE = 32;
const CH_BANG = 33;
export const CH_DQUOTE = 34;
const CH_HASH = 35;
const CH_DOLLAR = 36;
const CH_PERCENT = 37;
export const CH_LPAREN = 40;
export const CH_RPAREN = 41;
const CH_STAR = 42;
const CH_PLUS = 43;
const CH_COMMA = 44;
export const CH_MINUS = 45;
const CH_DOT = 46;
const CH_SLASH = 47;
const CH_0 = 48;
const CH_9 = 57;
const CH_COLON = 58;
export const CH_LT = 60;
const CH_EQ = 61;
export const CH_GT = 62;
const CH_QUESTION = 63;
const CH_AT = 64;
const CH_A = 65;
const CH_Z = 90;
export const CH_LSQUARE = 91;
export const CH_BACKSLASH = 92;
export const CH_RSQUARE = 93;
const CH_CARET = 94;
const CH_UNDERSCORE = 95;
const CH_a = 97;
const CH_f = 102;
const CH_x = 120;
const CH_z = 122;
export const CH_LBRACE = 123;
const CH_BAR = 124;
export const CH_RBRACE = 125;
const CH_E = 69;
const CH_e = 101;

/** True for `[a-zA-Z]`. */
export function isLetter(c: number): boolean {
  return (c >= CH_a && c <= CH_z) || (c >= CH_A && c <= CH_Z);
}
/** True for `[0-9]`. */
export function isDigit(c: number): boolean {
  return c >= CH_0 && c <= CH_9;
}
/** True for `[0-9a-fA-F]`. */
export function isHexDigit(c: number): boolean {
  return isDigit(c) || (c >= CH_a && c <= CH_f) || (c >= CH_A && c <= 70);
}
/** Characters allowed after the first in a bare identifier: `[a-zA-Z0-9_$.]`. */
export function isBareIdChar(c: number): boolean {
  return isLetter(c) || isDigit(c) || c === CH_UNDERSCORE || c === CH_DOLLAR || c === CH_DOT;
}
/** Characters of a suffix id (`%x`, `^bb`, `#alias`): `[a-zA-Z0-9$._-]`. */
export function isSuffixIdChar(c: number): boolean {
  return isLetter(c) || isDigit(c) || c === CH_DOLLAR || c === CH_DOT || c === CH_UNDERSCORE || c === CH_MINUS;
}

/**
 * A scanner over the character codes of the source text, in the style of the TypeScript
 * compiler's scanner: the current token is held in fields (`kind`, `start`, `end`), no token
 * objects are allocated, and any position can be re-scanned (`resetTo`).
 */
export class Lexer {
  /** Kind of the current token. */
  kind: TokenKind = TokenKind.EOF;
  /** Offset of the current token's first character. */
  start = 0;
  /** Offset just past the current token. */
  end = 0;
  /** For an Error token, what is wrong. */
  errorMessage = '';
  private pos = 0;
  private readonly length: number;

  constructor(readonly text: string) {
    this.length = text.length;
  }

  /** The current token's text. */
  get tokenText(): string {
    return this.text.substring(this.start, this.end);
  }

  /** Scans from `offset` (used to split `4x4xf32` and to restore lookahead). */
  resetTo(offset: number): void {
    this.pos = offset;
  }

  /** Advances to the next token and returns its kind. */
  next(): TokenKind {
    const text = this.text;
    const len = this.length;
    let pos = this.pos;
    for (;;) {
      if (pos >= len) {
        this.start = this.end = this.pos = len;
        return (this.kind = TokenKind.EOF);
      }
      const c = text.charCodeAt(pos);
      if (c === CH_SPACE || c === CH_LF || c === CH_TAB || c === CH_CR) {
        pos++;
        continue;
      }
      if (c === CH_SLASH && text.charCodeAt(pos + 1) === CH_SLASH) {
        const nl = text.indexOf('\n', pos);
        pos = nl < 0 ? len : nl + 1;
        continue;
      }
      this.start = pos;
      switch (c) {
        case CH_COLON:
          return this.single(pos, TokenKind.Colon);
        case CH_COMMA:
          return this.single(pos, TokenKind.Comma);
        case CH_LPAREN:
          return this.single(pos, TokenKind.LParen);
        case CH_RPAREN:
          return this.single(pos, TokenKind.RParen);
        case CH_LSQUARE:
          return this.single(pos, TokenKind.LSquare);
        case CH_RSQUARE:
          return this.single(pos, TokenKind.RSquare);
        case CH_RBRACE:
          return this.single(pos, TokenKind.RBrace);
        case CH_LT:
          return this.single(pos, TokenKind.Less);
        case CH_GT:
          return this.single(pos, TokenKind.Greater);
        case CH_EQ:
          return this.single(pos, TokenKind.Equal);
        case CH_PLUS:
          return this.single(pos, TokenKind.Plus);
        case CH_STAR:
          return this.single(pos, TokenKind.Star);
        case CH_QUESTION:
          return this.single(pos, TokenKind.Question);
        case CH_BAR:
          return this.single(pos, TokenKind.VerticalBar);
        case CH_LBRACE:
          if (text.charCodeAt(pos + 1) === CH_MINUS && text.charCodeAt(pos + 2) === CH_HASH) {
            return this.finish(pos + 3, TokenKind.FileMetadataBegin);
          }
          return this.single(pos, TokenKind.LBrace);
        case CH_MINUS:
          if (text.charCodeAt(pos + 1) === CH_GT) return this.finish(pos + 2, TokenKind.Arrow);
          return this.single(pos, TokenKind.Minus);
        case CH_DOT:
          if (text.charCodeAt(pos + 1) === CH_DOT && text.charCodeAt(pos + 2) === CH_DOT) {
            return this.finish(pos + 3, TokenKind.Ellipsis);
          }
          return this.error(pos + 1, M.unexpectedCharacter('.'));
        case CH_DQUOTE:
          return this.scanString(pos);
        case CH_AT:
          return this.scanAt(pos);
        case CH_HASH:
          if (text.charCodeAt(pos + 1) === CH_MINUS && text.charCodeAt(pos + 2) === CH_RBRACE) {
            return this.finish(pos + 3, TokenKind.FileMetadataEnd);
          }
          return this.scanPrefixed(pos, TokenKind.HashIdentifier);
        case CH_PERCENT:
          return this.scanPrefixed(pos, TokenKind.PercentIdentifier);
        case CH_CARET:
          return this.scanPrefixed(pos, TokenKind.CaretIdentifier);
        case CH_BANG:
          return this.scanPrefixed(pos, TokenKind.ExclamationIdentifier);
        default:
          if (isLetter(c) || c === CH_UNDERSCORE) {
            let p = pos + 1;
            while (p < len && isBareIdChar(text.charCodeAt(p))) p++;
            return this.finish(p, TokenKind.BareIdentifier);
          }
          if (isDigit(c)) return this.scanNumber(pos);
          return this.error(pos + 1, M.unexpectedCharacter(String.fromCodePoint(text.codePointAt(pos) ?? c)));
      }
    }
  }

  private single(pos: number, kind: TokenKind): TokenKind {
    this.end = this.pos = pos + 1;
    return (this.kind = kind);
  }
  private finish(end: number, kind: TokenKind): TokenKind {
    this.end = this.pos = end;
    return (this.kind = kind);
  }
  private error(end: number, message: string): TokenKind {
    this.errorMessage = message;
    this.end = this.pos = end;
    return (this.kind = TokenKind.Error);
  }

  private scanNumber(pos: number): TokenKind {
    const text = this.text;
    const len = this.length;
    let p = pos + 1;
    if (text.charCodeAt(pos) === CH_0 && text.charCodeAt(p) === CH_x && isHexDigit(text.charCodeAt(p + 1))) {
      p += 2;
      while (p < len && isHexDigit(text.charCodeAt(p))) p++;
      return this.finish(p, TokenKind.Integer);
    }
    while (p < len && isDigit(text.charCodeAt(p))) p++;
    if (text.charCodeAt(p) !== CH_DOT) return this.finish(p, TokenKind.Integer);
    p++;
    while (p < len && isDigit(text.charCodeAt(p))) p++;
    const e = text.charCodeAt(p);
    if (e === CH_e || e === CH_E) {
      const s = text.charCodeAt(p + 1);
      if (isDigit(s) || ((s === CH_PLUS || s === CH_MINUS) && isDigit(text.charCodeAt(p + 2)))) {
        p += 2;
        while (p < len && isDigit(text.charCodeAt(p))) p++;
      }
    }
    return this.finish(p, TokenKind.Float);
  }

  private scanString(pos: number): TokenKind {
    const text = this.text;
    const len = this.length;
    let p = pos + 1;
    for (;;) {
      if (p >= len) return this.error(p, M.unterminatedString);
      const c = text.charCodeAt(p);
      if (c === CH_DQUOTE) return this.finish(p + 1, TokenKind.String);
      if (c === CH_LF || c === CH_CR) return this.error(p, M.unterminatedString);
      if (c === CH_BACKSLASH) {
        const n = text.charCodeAt(p + 1);
        if (n === CH_DQUOTE || n === CH_BACKSLASH || n === 110 || n === 116) {
          p += 2;
          continue;
        }
        if (isHexDigit(n) && isHexDigit(text.charCodeAt(p + 2))) {
          p += 3;
          continue;
        }
        return this.error(p + 1, M.unknownEscape);
      }
      p++;
    }
  }

  private scanAt(pos: number): TokenKind {
    const text = this.text;
    const len = this.length;
    const c = text.charCodeAt(pos + 1);
    if (c === CH_DQUOTE) {
      const k = this.scanString(pos + 1);
      this.start = pos;
      if (k === TokenKind.Error) return k;
      return (this.kind = TokenKind.AtIdentifier);
    }
    if (!(isLetter(c) || c === CH_UNDERSCORE)) return this.error(pos + 1, M.expectedSymbolName);
    let p = pos + 2;
    while (p < len && isBareIdChar(text.charCodeAt(p))) p++;
    return this.finish(p, TokenKind.AtIdentifier);
  }

  private scanPrefixed(pos: number, kind: TokenKind): TokenKind {
    const text = this.text;
    const len = this.length;
    let p = pos + 1;
    const c = text.charCodeAt(p);
    if (kind === TokenKind.ExclamationIdentifier) {
      if (!(isLetter(c) || c === CH_UNDERSCORE)) return this.error(p, M.invalidTypeIdentifier);
      p++;
      while (p < len && isSuffixIdChar(text.charCodeAt(p))) p++;
      return this.finish(p, kind);
    }
    if (isDigit(c)) {
      p++;
      while (p < len && isDigit(text.charCodeAt(p))) p++;
      return this.finish(p, kind);
    }
    if (isLetter(c) || c === CH_DOLLAR || c === CH_DOT || c === CH_UNDERSCORE || c === CH_MINUS) {
      p++;
      while (p < len && isSuffixIdChar(text.charCodeAt(p))) p++;
      return this.finish(p, kind);
    }
    return this.error(p, M.invalidSuffixIdentifier(text[pos]));
  }

  /** Decodes the current String token (or the string part of an `@"..."` token). */
  stringValue(): string {
    let s = this.start;
    if (this.text.charCodeAt(s) === CH_AT) s++;
    return decodeStringLiteral(this.text, s + 1, this.end - 1);
  }
}

/** Decodes the body of a string literal between offsets (MLIR escapes: `\"`, `\\`, `\n`, `\t`, `\XX`). */
export function decodeStringLiteral(text: string, start: number, end: number): string {
  let first = -1;
  for (let p = start; p < end; p++) {
    if (text.charCodeAt(p) === CH_BACKSLASH) {
      first = p;
      break;
    }
  }
  if (first < 0) return text.substring(start, end);
  const parts: string[] = [];
  let bytes: number[] | undefined;
  let last = start;
  const flushBytes = (): void => {
    if (bytes && bytes.length) {
      parts.push(utf8Decode(bytes));
      bytes = undefined;
    }
  };
  for (let p = first; p < end; p++) {
    if (text.charCodeAt(p) !== CH_BACKSLASH) continue;
    if (p > last) {
      flushBytes();
      parts.push(text.substring(last, p));
    }
    const n = text.charCodeAt(p + 1);
    if (n === 110) {
      flushBytes();
      parts.push('\n');
      p += 1;
    } else if (n === 116) {
      flushBytes();
      parts.push('\t');
      p += 1;
    } else if (n === CH_DQUOTE || n === CH_BACKSLASH) {
      flushBytes();
      parts.push(String.fromCharCode(n));
      p += 1;
    } else {
      (bytes ??= []).push(parseInt(text.substr(p + 1, 2), 16));
      p += 2;
    }
    last = p + 1;
  }
  flushBytes();
  if (last < end) parts.push(text.substring(last, end));
  return parts.join('');
}

function utf8Decode(bytes: number[]): string {
  // Bytes from \XX escapes form UTF-8 sequences; invalid ones map to U+FFFD like TextDecoder.
  return new TextDecoder().decode(Uint8Array.from(bytes));
}
