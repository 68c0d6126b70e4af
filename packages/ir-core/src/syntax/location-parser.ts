/** Location parsing (one layer of the parser split by concern; see `parser.ts`). */
import { Attribute, Location } from '../ir/attribute';
import { CallSiteLoc, FileLineColLoc, FusedLoc, NameLoc, UnknownLoc } from '../ir/location';
import { Operation } from '../ir/operation';
import { TokenKind } from './token';
import { M } from './syntax-messages';
import type { OptionalParseResult } from './op-asm';
import { BaseParser } from './base-parser';

/**
 * Locations: `loc(...)` specifiers and location instances (file/line/col, names, call sites,
 * fused), as MLIR's LocationParser.cpp.
 *
 * One layer of the parser: each concern's parser extends the previous one and they share
 * one parser state (the fields of {@link BaseParser}); `Parser` is the operation parser on top.
 */
export abstract class LocationParser extends BaseParser {

  protected parseTrailingLocation(op: Operation): void {
    if (!this.isKeyword('loc')) return;
    this.parseLocationSpecifier((l) => (op.location = l));
  }

  /** `loc(...)`; `apply` receives the location (later, for a forward alias). */
  protected parseLocationSpecifier(apply: (l: Location) => void): void {
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

  protected parseLocationInstance(): Location {
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
  parseOptionalLocationSpecifier(): OptionalParseResult<Location> {
    if (this.failed) return undefined;
    if (!this.isKeyword('loc')) return null;
    return this.soft(() => {
      let result: Location | undefined;
      this.parseLocationSpecifier((l) => (result = l));
      return result ?? UnknownLoc.get(this.context);
    });
  }
}
