import { TokenKind } from './token';
import { M } from './syntax-messages';

/** Character codes the lexer and the parser compare with (one table for both). */
export const enum Ch {
  Tab = 9,
  LF = 10,
  CR = 13,
  Space = 32,
  Bang = 33,
  Quote = 34,
  Hash = 35,
  Dollar = 36,
  Percent = 37,
  LParen = 40,
  RParen = 41,
  Star = 42,
  Plus = 43,
  Comma = 44,
  Minus = 45,
  Dot = 46,
  Slash = 47,
  Digit0 = 48,
  Digit9 = 57,
  Colon = 58,
  Less = 60,
  Equal = 61,
  Greater = 62,
  Question = 63,
  At = 64,
  UpperA = 65,
  UpperE = 69,
  UpperZ = 90,
  LBracket = 91,
  Backslash = 92,
  RBracket = 93,
  Caret = 94,
  Underscore = 95,
  LowerA = 97,
  LowerE = 101,
  LowerF = 102,
  LowerX = 120,
  LowerZ = 122,
  LBrace = 123,
  Bar = 124,
  RBrace = 125,
}

/** True for `[a-zA-Z]`. */
export function isLetter(c: number): boolean {
  return (c >= Ch.LowerA && c <= Ch.LowerZ) || (c >= Ch.UpperA && c <= Ch.UpperZ);
}
/** True for `[0-9]`. */
export function isDigit(c: number): boolean {
  return c >= Ch.Digit0 && c <= Ch.Digit9;
}
/** True for `[0-9a-fA-F]`. */
export function isHexDigit(c: number): boolean {
  return isDigit(c) || (c >= Ch.LowerA && c <= Ch.LowerF) || (c >= Ch.UpperA && c <= 70);
}
/** Characters allowed after the first in a bare identifier: `[a-zA-Z0-9_$.]`. */
export function isBareIdChar(c: number): boolean {
  return isLetter(c) || isDigit(c) || c === Ch.Underscore || c === Ch.Dollar || c === Ch.Dot;
}
/** Characters of a suffix id (`%x`, `^bb`, `#alias`): `[a-zA-Z0-9$._-]`. */
export function isSuffixIdChar(c: number): boolean {
  return isLetter(c) || isDigit(c) || c === Ch.Dollar || c === Ch.Dot || c === Ch.Underscore || c === Ch.Minus;
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
      if (c === Ch.Space || c === Ch.LF || c === Ch.Tab || c === Ch.CR) {
        pos++;
        continue;
      }
      if (c === Ch.Slash && text.charCodeAt(pos + 1) === Ch.Slash) {
        const nl = text.indexOf('\n', pos);
        pos = nl < 0 ? len : nl + 1;
        continue;
      }
      this.start = pos;
      switch (c) {
        case Ch.Colon:
          return this.single(pos, TokenKind.Colon);
        case Ch.Comma:
          return this.single(pos, TokenKind.Comma);
        case Ch.LParen:
          return this.single(pos, TokenKind.LParen);
        case Ch.RParen:
          return this.single(pos, TokenKind.RParen);
        case Ch.LBracket:
          return this.single(pos, TokenKind.LSquare);
        case Ch.RBracket:
          return this.single(pos, TokenKind.RSquare);
        case Ch.RBrace:
          return this.single(pos, TokenKind.RBrace);
        case Ch.Less:
          return this.single(pos, TokenKind.Less);
        case Ch.Greater:
          return this.single(pos, TokenKind.Greater);
        case Ch.Equal:
          return this.single(pos, TokenKind.Equal);
        case Ch.Plus:
          return this.single(pos, TokenKind.Plus);
        case Ch.Star:
          return this.single(pos, TokenKind.Star);
        case Ch.Question:
          return this.single(pos, TokenKind.Question);
        case Ch.Bar:
          return this.single(pos, TokenKind.VerticalBar);
        case Ch.LBrace:
          if (text.charCodeAt(pos + 1) === Ch.Minus && text.charCodeAt(pos + 2) === Ch.Hash) {
            return this.finish(pos + 3, TokenKind.FileMetadataBegin);
          }
          return this.single(pos, TokenKind.LBrace);
        case Ch.Minus:
          if (text.charCodeAt(pos + 1) === Ch.Greater) return this.finish(pos + 2, TokenKind.Arrow);
          return this.single(pos, TokenKind.Minus);
        case Ch.Dot:
          if (text.charCodeAt(pos + 1) === Ch.Dot && text.charCodeAt(pos + 2) === Ch.Dot) {
            return this.finish(pos + 3, TokenKind.Ellipsis);
          }
          return this.error(pos + 1, M.unexpectedCharacter('.'));
        case Ch.Quote:
          return this.scanString(pos);
        case Ch.At:
          return this.scanAt(pos);
        case Ch.Hash:
          if (text.charCodeAt(pos + 1) === Ch.Minus && text.charCodeAt(pos + 2) === Ch.RBrace) {
            return this.finish(pos + 3, TokenKind.FileMetadataEnd);
          }
          return this.scanPrefixed(pos, TokenKind.HashIdentifier);
        case Ch.Percent:
          return this.scanPrefixed(pos, TokenKind.PercentIdentifier);
        case Ch.Caret:
          return this.scanPrefixed(pos, TokenKind.CaretIdentifier);
        case Ch.Bang:
          return this.scanPrefixed(pos, TokenKind.ExclamationIdentifier);
        default:
          if (isLetter(c) || c === Ch.Underscore) {
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
    if (text.charCodeAt(pos) === Ch.Digit0 && text.charCodeAt(p) === Ch.LowerX && isHexDigit(text.charCodeAt(p + 1))) {
      p += 2;
      while (p < len && isHexDigit(text.charCodeAt(p))) p++;
      return this.finish(p, TokenKind.Integer);
    }
    while (p < len && isDigit(text.charCodeAt(p))) p++;
    if (text.charCodeAt(p) !== Ch.Dot) return this.finish(p, TokenKind.Integer);
    p++;
    while (p < len && isDigit(text.charCodeAt(p))) p++;
    const e = text.charCodeAt(p);
    if (e === Ch.LowerE || e === Ch.UpperE) {
      const s = text.charCodeAt(p + 1);
      if (isDigit(s) || ((s === Ch.Plus || s === Ch.Minus) && isDigit(text.charCodeAt(p + 2)))) {
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
      if (c === Ch.Quote) return this.finish(p + 1, TokenKind.String);
      if (c === Ch.LF || c === Ch.CR) return this.error(p, M.unterminatedString);
      if (c === Ch.Backslash) {
        const n = text.charCodeAt(p + 1);
        if (n === Ch.Quote || n === Ch.Backslash || n === 110 || n === 116) {
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
    if (c === Ch.Quote) {
      const k = this.scanString(pos + 1);
      this.start = pos;
      if (k === TokenKind.Error) return k;
      return (this.kind = TokenKind.AtIdentifier);
    }
    if (!(isLetter(c) || c === Ch.Underscore)) return this.error(pos + 1, M.expectedSymbolName);
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
      if (!(isLetter(c) || c === Ch.Underscore)) return this.error(p, M.invalidTypeIdentifier);
      p++;
      while (p < len && isSuffixIdChar(text.charCodeAt(p))) p++;
      return this.finish(p, kind);
    }
    if (isDigit(c)) {
      p++;
      while (p < len && isDigit(text.charCodeAt(p))) p++;
      return this.finish(p, kind);
    }
    if (isLetter(c) || c === Ch.Dollar || c === Ch.Dot || c === Ch.Underscore || c === Ch.Minus) {
      p++;
      while (p < len && isSuffixIdChar(text.charCodeAt(p))) p++;
      return this.finish(p, kind);
    }
    return this.error(p, M.invalidSuffixIdentifier(text[pos]));
  }

  /** Decodes the current String token (or the string part of an `@"..."` token). */
  stringValue(): string {
    let s = this.start;
    if (this.text.charCodeAt(s) === Ch.At) s++;
    return decodeStringLiteral(this.text, s + 1, this.end - 1);
  }
}

/** Decodes the body of a string literal between offsets (MLIR escapes: `\"`, `\\`, `\n`, `\t`, `\XX`). */
export function decodeStringLiteral(text: string, start: number, end: number): string {
  let first = -1;
  for (let p = start; p < end; p++) {
    if (text.charCodeAt(p) === Ch.Backslash) {
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
    if (text.charCodeAt(p) !== Ch.Backslash) continue;
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
    } else if (n === Ch.Quote || n === Ch.Backslash) {
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
