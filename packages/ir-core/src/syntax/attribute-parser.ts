/** Attribute parsing (one layer of the parser split by concern; see `parser.ts`). */
import { Attribute, Location, Type } from '../ir/attribute';
import { ComplexType, DYNAMIC, FloatType, IndexType, IntegerType, RankedTensorType, VectorType, getNumElements } from '../ir/builtin-types';
import { AffineMapAttr, ArrayAttr, DenseArrayAttr, DenseElementsAttr, DenseResourceElementsAttr, DictionaryAttr, FloatAttr, IntegerAttr, IntegerSetAttr, OpaqueAttr, StridedLayoutAttr, StringAttr, SymbolRefAttr, TypeAttr, UnitAttr, createDenseStorage, isDenseElementType, setStorage, toBigInt, type NamedAttribute } from '../ir/builtin-attributes';
import { bitsToBf16, bitsToF16, bitsToF32, bitsToF64, roundToFloatKind } from '../ir/builtin-float-semantics';
import { AffineMap, IntegerSet } from '../affine/affine-map';
import { TokenKind } from './token';
import { M } from './syntax-messages';
import { decodeDenseHex } from './dense-hex';
import { printType as typeToString } from './printer';
import type { DialectAsmHooks, OptionalParseResult, ParseResult } from './op-asm';
import { BaseParser, ParseAbort } from './base-parser';
import { TypeParser } from './type-parser';

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

/**
 * Attributes: builtin attributes, dense elements and dense arrays, attribute dictionaries,
 * aliases and dialect attributes, as MLIR's AttributeParser.cpp.
 *
 * One layer of the parser: each concern's parser extends the previous one and they share
 * one parser state (the fields of {@link BaseParser}); `Parser` is the operation parser on top.
 */
export abstract class AttributeParser extends TypeParser {

  /** Parses exactly one attribute filling the whole buffer. */
  parseStandaloneAttribute(): Attribute | undefined {
    return this.guard(() => {
      const a = this.parseAttribute();
      if (a === undefined) return undefined;
      if (!this.expectEOF()) return undefined;
      return a;
    });
  }

  // ------------------------------------------------------------------ attributes

  protected parseAttributeOrFail(type?: Type): Attribute {
    const a = this.parseOptionalAttributeImpl(type);
    if (a === null) this.fail(M.expectedAttribute);
    return a;
  }

  protected parseAttrDictBody(): NamedAttribute[] {
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

  protected parseOptionalAttributeImpl(type?: Type): Attribute | null {
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

  protected parseHashAttribute(type?: Type): Attribute {
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
  protected scanDialectBody(prefix: string, pos: number): string {
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

  protected parseNumberAttribute(type?: Type): Attribute {
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

  protected parseDenseArray(): Attribute {
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

  protected parseStrided(): Attribute {
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

  protected parseDenseResource(type?: Type): Attribute {
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

  protected parseDenseElements(type?: Type): Attribute {
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
  protected parseTensorLiteral(
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

  protected parseAffineMapAttr(): Attribute {
    this.consume();
    this.expect(TokenKind.Less);
    const r = this.parseAffineMapOrSet(false);
    this.expect(TokenKind.Greater, M.expectedTokenIn('>', 'affine map'));
    return AffineMapAttr.get(r as AffineMap);
  }

  protected parseAffineSetAttr(): Attribute {
    this.consume();
    this.expect(TokenKind.Less);
    const r = this.parseAffineMapOrSet(true);
    this.expect(TokenKind.Greater, M.expectedTokenIn('>', 'integer set'));
    return IntegerSetAttr.get(r as IntegerSet);
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
  protected parseOptionalAttrDictWithKeywordOrFail(): NamedAttribute[] {
    if (!this.consumeKeyword('attributes')) return [];
    return this.parseAttrDictBody();
  }
  parseOptionalAttrDictWithKeyword(): ParseResult<NamedAttribute[]> {
    return this.soft(() => this.parseOptionalAttrDictWithKeywordOrFail());
  }
}
