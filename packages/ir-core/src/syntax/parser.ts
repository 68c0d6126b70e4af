import { Attribute, Location, Type } from '../ir/attribute';
import type { MLIRContext } from '../ir/context';
import { FunctionType } from '../ir/builtin-types';
import { DictionaryAttr, StringAttr, type NamedAttribute } from '../ir/builtin-attributes';
import { FileLineColLoc } from '../ir/location';
import { Operation, type OperationState } from '../ir/operation';
import { Block } from '../ir/block';
import { Region } from '../ir/region';
import { BlockArgument, type Value } from '../ir/value';
import { setRetainedName } from '../ir/value-names';
import { isDigit } from './lexer';
import { TokenKind } from './token';
import { M } from './syntax-messages';
import { printType as typeToString } from './printer';
import type { AsmParser, Delimiter, OpAsmArgument, OpAsmParser, OptionalParseResult, ParseResult, UnresolvedOperand } from './op-asm';
import type { ParseOptions } from './parser-state';
import { AttributeParser } from './attribute-parser';
import { ParseAbort } from './base-parser';
import { IsolatedScope } from './ssa-scopes';

const FORWARD_REF = '__raptor.forward_ref';
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
const NO_BLOCKS: Block[] = [];
const NO_REGIONS: Region[] = [];
const NO_ATTRIBUTES: NamedAttribute[] = [];

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

/**
 * A recursive-descent parser for MLIR's textual format (generic form, builtin custom forms and
 * registered ops' custom forms through their `parse` hook). It reports the first error as a
 * diagnostic and returns `undefined`; it never throws on user input.
 */
export class Parser extends AttributeParser implements OpAsmParser {
  protected get asmParser(): AsmParser {
    return this;
  }

  // ------------------------------------------------------------------ entry points

  /** Parses a whole buffer into a module (implicitly wrapping top-level ops). */
  parseModule(): Operation | undefined {
    return this.guard(() => this.parseTopLevel());
  }

  // ------------------------------------------------------------------ top level

  protected parseTopLevel(): Operation | undefined {
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

  protected finalize(): void {
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

  protected parseAttributeAliasDef(): void {
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

  protected parseTypeAliasDef(): void {
    const offset = this.lex.start;
    const name = this.lex.tokenText.substring(1);
    this.consume();
    if (!this.consumeIf(TokenKind.Equal)) this.fail(M.expectedTokenIn('=', 'type alias definition'));
    if (name.includes('.')) this.fail(M.aliasNameReserved(name), offset);
    if (this.typeAliases.has(name)) this.fail(M.redefinedAlias(name), offset);
    const type = this.parseTypeOrFail();
    this.typeAliases.set(name, type);
  }

  protected parseFileMetadata(): void {
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

  protected get scope(): IsolatedScope {
    return this.scopes[this.scopes.length - 1];
  }

  protected pushRegionScope(isolated: boolean): void {
    if (isolated) this.scopes.push(new IsolatedScope());
    else this.scope.definitions.push([]);
    this.blockScopes.push(new Map());
  }

  protected popRegionScope(): void {
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

  protected resolveValue(op: UnresolvedOperand, type: Type, offset: number): Value {
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

  protected defineValue(name: string, number: number, value: Value, offset: number): void {
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
      // Only nested regions record their names (to forget them when they close): the names of a
      // scope's outermost region go away with the scope, and recording them would keep every
      // name string of a function body alive until its end.
      const definitions = scope.definitions;
      if (definitions.length > 1) definitions[definitions.length - 1].push(name);
      // `%rows:2` names its group through result #0; a name starting with a digit is numeric.
      if (this.retainNames && !isDigit(name.charCodeAt(0))) setRetainedName(value, name);
    }
  }

  protected getBlock(name: string, offset: number): Block {
    const blocks = this.blockScopes[this.blockScopes.length - 1];
    let e = blocks.get(name);
    if (!e) {
      e = { block: new Block(), defined: false, offset };
      blocks.set(name, e);
    }
    return e.block;
  }

  protected defineBlock(name: string, offset: number, existing?: Block): Block {
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

  protected parseOperation(): Operation {
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

  protected checkRegistration(name: string, offset: number): void {
    if (this.acceptedOpNames.has(name)) return;
    this.checkRegistrationSlow(name, offset);
    this.acceptedOpNames.add(name);
  }

  protected checkRegistrationSlow(name: string, offset: number): void {
    const dot = name.indexOf('.');
    const ns = dot < 0 ? '' : name.substring(0, dot);
    const dialect = this.context.getDialect(ns);
    if (dialect?.getOperationDefinition?.(name)) return;
    if (this.allowUnregistered || dialect?.allowsUnknownOperations) return;
    if (name === 'builtin.module') return;
    this.fail(M.unregisteredOp(name), offset);
  }

  protected parseGenericOperation(): Operation {
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
  protected parseOpTrailingLocation(): Location | undefined {
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
  protected applyPendingOpLocation(op: Operation): void {
    const p = this.pendingOpLocation;
    if (!p) return;
    this.pendingOpLocation = undefined;
    this.deferredLocs.push({ name: p.name, offset: p.offset, apply: (l) => (op.location = l) });
  }

  /** For registered ops, inherent attributes written in the attribute dictionary become properties. */
  protected moveInherentAttributes(state: OperationState): void {
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

  protected parseCustomOperation(): Operation {
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

  protected lookupDef(name: string): ReturnType<NonNullable<import('../ir/dialect').Dialect['getOperationDefinition']>> {
    const dot = name.indexOf('.');
    if (dot < 0) return undefined;
    return this.context.getDialect(name.substring(0, dot))?.getOperationDefinition?.(name);
  }

  protected parseModuleCustom(loc: Location): Operation {
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

  // ------------------------------------------------------------------ regions and blocks

  protected parseRegionInto(region: Region, args: readonly OpAsmArgument[] | undefined, isolated: boolean): void {
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
  protected parseBlockLabel(entry: Block | undefined, isEntry: boolean): Block {
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

  protected parseBlockBody(block: Block): void {
    while (this.tok() !== TokenKind.CaretIdentifier && this.tok() !== TokenKind.RBrace) {
      if (this.tok() === TokenKind.EOF) this.fail(M.expectedOpName);
      block.push(this.parseOperation());
    }
  }

  // ------------------------------------------------------------------ operands

  protected parseOperandOrFail(): UnresolvedOperand {
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
