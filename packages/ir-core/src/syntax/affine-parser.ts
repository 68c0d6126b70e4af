/** Affine parsing (one layer of the parser split by concern; see `parser.ts`). */
import { AffineMap, IntegerSet } from '../affine/affine-map';
import { getAffineConstantExpr, getAffineDimExpr, getAffineSymbolExpr, type AffineExpr } from '../affine/affine-expr';
import { TokenKind } from './token';
import { M } from './syntax-messages';
import { BaseParser } from './base-parser';
import { LocationParser } from './location-parser';

/**
 * Affine maps, integer sets and affine expressions, as MLIR's AffineParser.
 *
 * One layer of the parser: each concern's parser extends the previous one and they share
 * one parser state (the fields of {@link BaseParser}); `Parser` is the operation parser on top.
 */
export abstract class AffineParser extends LocationParser {

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

  protected peekIsEqual(): boolean {
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

  protected checkAffineOperand(): void {
    const k = this.tok();
    if (k === TokenKind.RParen || k === TokenKind.Comma || k === TokenKind.EOF || k === TokenKind.Greater) this.fail(M.missingRightOperand);
  }

  protected parseAffineProduct(names: ReadonlyMap<string, AffineExpr>): AffineExpr {
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

  protected parseAffineOperand(names: ReadonlyMap<string, AffineExpr>): AffineExpr {
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

  protected parseAffineConstant(negative: boolean): number {
    const v = BigInt(this.lex.tokenText) * (negative ? -1n : 1n);
    if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < BigInt(Number.MIN_SAFE_INTEGER)) this.fail(M.affineConstantOverflow);
    this.consume();
    return Number(v);
  }
}
