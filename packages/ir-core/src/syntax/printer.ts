import { Attribute, Location, Type } from '../ir/attribute';
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
  type NamedAttribute,
} from '../ir/builtin-attributes';
import { CallSiteLoc, FileLineColLoc, FusedLoc, NameLoc, OpaqueLoc, UnknownLoc } from '../ir/location';
import type { MLIRContext } from '../ir/context';
import type { Operation } from '../ir/operation';
import type { Block } from '../ir/block';
import type { Region } from '../ir/region';
import { BlockArgument, OpResult, type Value } from '../ir/value';
import { getRetainedName } from '../ir/value-names';
import { printAffineMapTo, printIntegerSetTo } from './affine-printer';
import { formatFloat } from './float-format';
import { isDialectOwned, type DialectAsmHooks, type OpAsmPrinter } from './op-asm';
import { isBareIdChar, isDigit, isLetter } from './lexer';
import { encodeDenseHex } from './dense-hex';
import { setDiagnosticFormatters } from '../ir/format-hooks';

/** Options of the printer (MLIR's OpPrintingFlags that matter here). */
export interface PrintOptions {
  /** Print every op in the generic form (`--mlir-print-op-generic`). */
  generic?: boolean;
  /** Print locations (`--mlir-print-debuginfo`). */
  debugInfo?: boolean;
  /** No aliases: print attributes, types and locations inline (`--mlir-print-local-scope`). */
  localScope?: boolean;
  /** Dense elements with more elements than this print as hex (default 100; -1 disables). */
  hexThreshold?: number;
  /**
   * Print values with the names they were parsed with (`ParseOptions.retainIdentifierNames`)
   * or given through `setRetainedName`: `%lane`, `%rows:2`, `%w`. A retained name takes
   * precedence over the names an op's `getAsmResultNames`/`getAsmBlockArgumentNames` hook
   * suggests (the source spelling wins); an op whose results carry retained names prints them
   * as the groups they name. A name already used in the same or an enclosing region is uniqued
   * as MLIR uniques suggested names (`%x_0`, `%x_1`, ...), so the output always re-parses.
   * Values without a retained name (numeric source names, values created by passes) are
   * numbered as usual. Applies to the generic form too (default false).
   */
  useRetainedNames?: boolean;
  /**
   * `--mlir-use-nameloc-as-prefix`: a value whose location contains a `NameLoc` (an op's
   * location for its results, an argument's own location) is printed with that name instead of
   * the default (`%arg0`, `%3`) or hook-suggested name, uniqued as above (default false).
   */
  useNameLocAsPrefix?: boolean;
}

interface AliasInfo {
  name: string | undefined;
  depth: number;
  isType: boolean;
  deferrable: boolean;
  children: number[];
  index: number;
  value: Attribute | Type;
}

// ---------------------------------------------------------------- strings and identifiers

const encoder = new TextEncoder();
const HEX = '0123456789ABCDEF';
/** See `Printer.chunks`. */
const CHUNK_CHARS = 1 << 16;
const CHUNK_OPS = 1024;
/** Stops a print without alias collection that met a value with an alias (see `Printer.watchAlias`). */
const ALIAS_MET = new Error('internal: alias met while printing without alias collection');
/** See `Printer.appendLarge`. */
const LARGE_PIECE_CHARS = 1 << 12;

/** MLIR's `printEscapedString` body: printable ASCII except `"` and `\` verbatim, `\\`, else `\XX` per UTF-8 byte. */
export function escapeString(value: string): string {
  let simple = true;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 34 || c === 92) {
      simple = false;
      break;
    }
  }
  if (simple) return value;
  const bytes = encoder.encode(value);
  let out = '';
  for (const b of bytes) {
    if (b === 92) out += '\\\\';
    else if (b >= 0x20 && b <= 0x7e && b !== 34) out += String.fromCharCode(b);
    else out += '\\' + HEX[b >> 4] + HEX[b & 15];
  }
  return out;
}

/** True when `name` is a valid bare identifier (`[a-zA-Z_][a-zA-Z0-9_$.]*`). */
export function isBareIdentifier(name: string): boolean {
  if (name.length === 0) return false;
  const c = name.charCodeAt(0);
  if (!(isLetter(c) || c === 95)) return false;
  for (let i = 1; i < name.length; i++) if (!isBareIdChar(name.charCodeAt(i))) return false;
  return true;
}

function keywordOrString(name: string): string {
  return isBareIdentifier(name) ? name : `"${escapeString(name)}"`;
}

function symbolName(name: string): string {
  return isBareIdentifier(name) ? '@' + name : `@"${escapeString(name)}"`;
}

/** MLIR's check for printing `#dialect.body` instead of `#dialect<body>`. */
function isDialectSymbolSimpleEnoughForPrettyForm(sym: string): boolean {
  if (sym.length === 0 || !isLetter(sym.charCodeAt(0))) return false;
  let i = 0;
  while (i < sym.length) {
    const c = sym.charCodeAt(i);
    if (isLetter(c) || isDigit(c) || c === 46 || c === 95) i++;
    else break;
  }
  if (i === sym.length) return true;
  return sym.charCodeAt(i) === 60 && sym.charCodeAt(sym.length - 1) === 62;
}

function dialectSymbol(prefix: string, ns: string, data: string): string {
  if (isDialectSymbolSimpleEnoughForPrettyForm(data)) return `${prefix}${ns}.${data}`;
  return `${prefix}${ns}<${data}>`;
}

function sanitizeIdentifier(name: string, allowedPunct: string, allowTrailingDigit: boolean): string {
  const copy = (): string => {
    let s = '';
    for (const ch of name) {
      const c = ch.charCodeAt(0);
      if (isLetter(c) || isDigit(c) || allowedPunct.includes(ch)) s += ch;
      else if (ch === ' ') s += '_';
      else for (const b of encoder.encode(ch)) s += b.toString(16).toUpperCase();
    }
    return s;
  };
  if (isDigit(name.charCodeAt(0))) return '_' + copy();
  if (!allowTrailingDigit && isDigit(name.charCodeAt(name.length - 1))) return copy() + '_';
  for (const ch of name) {
    const c = ch.charCodeAt(0);
    if (!(isLetter(c) || isDigit(c) || allowedPunct.includes(ch))) return copy();
  }
  return name;
}

// ---------------------------------------------------------------- SSA names

class NameScope {
  readonly names = new Set<string>();
  constructor(readonly parent: NameScope | undefined) {}
  has(name: string): boolean {
    for (let s: NameScope | undefined = this; s; s = s.parent) if (s.names.has(name)) return true;
    return false;
  }
}

/** The name of the first `NameLoc` in `loc` (pre-order, as MLIR's `findInstanceOf<NameLoc>`). */
function findNameLocName(loc: Location): string | undefined {
  if (loc instanceof NameLoc) return loc.name;
  if (loc instanceof CallSiteLoc) return findNameLocName(loc.callee) ?? findNameLocName(loc.caller);
  if (loc instanceof FusedLoc) {
    for (const l of loc.locations) {
      const n = findNameLocName(l);
      if (n !== undefined) return n;
    }
    return undefined;
  }
  if (loc instanceof OpaqueLoc) return findNameLocName(loc.fallback);
  return undefined;
}

/** Naming options of {@link SSANameState} (see {@link PrintOptions}). */
interface NamingFlags {
  readonly useRetainedNames: boolean;
  readonly useNameLocAsPrefix: boolean;
}

/** MLIR's SSANameState: value numbering, suggested names with `_N` uniquing, block names. */
class SSANameState {
  /** Each numbered value's printed name (`%3`, `%arg0`, `%x`), built once. */
  private readonly valueIds = new Map<Value, string>();
  private readonly resultGroups = new Map<Operation, number[]>();
  readonly blockNames = new Map<Block, { ordering: number; name: string }>();
  private nextValueId = 0;
  private nextArgumentId = 0;
  private nextConflictId = 0;
  private scope: NameScope = new NameScope(undefined);

  private readonly retained: boolean;
  private readonly nameLoc: boolean;

  constructor(
    root: Operation,
    private readonly generic: boolean,
    flags?: NamingFlags,
  ) {
    this.retained = flags?.useRetainedNames ?? false;
    this.nameLoc = flags?.useNameLocAsPrefix ?? false;
    type Ctx = [Region, number, number, number, NameScope];
    const stack: Ctx[] = [];
    const top = new NameScope(undefined);
    this.scope = top;
    for (const r of root.regions) stack.push([r, this.nextValueId, this.nextArgumentId, this.nextConflictId, top]);
    this.numberOp(root);
    while (stack.length) {
      const [region, v, a, c, parent] = stack.pop()!;
      if (!generic) {
        this.nextValueId = v;
        this.nextArgumentId = a;
        this.nextConflictId = c;
      }
      this.scope = new NameScope(parent);
      const cur = this.scope;
      this.numberRegion(region);
      for (let b = region.firstBlock; b; b = b.next)
        for (let op = b.firstOp; op; op = op.next)
          for (const r of op.regions) stack.push([r, this.nextValueId, this.nextArgumentId, this.nextConflictId, cur]);
    }
  }

  private numberRegion(region: Region): void {
    // Retained source names come first: they take precedence over the op's suggestions.
    if (this.retained && region.firstBlock) this.setRetainedNames(region.firstBlock.arguments);
    if (!this.generic) {
      const parent = region.parentOp;
      const hook = parent?.definition?.getAsmBlockArgumentNames;
      if (parent && hook) {
        hook(parent, region, (value, name) => {
          if (this.valueIds.has(value)) return;
          this.setName(value, this.nameLoc ? (findNameLocName(value.location) ?? name) : name);
        });
      }
    }
    let nextBlockId = 0;
    for (let b = region.firstBlock; b; b = b.next) {
      const ordering = nextBlockId++;
      this.blockNames.set(b, { ordering, name: '^bb' + ordering });
      const entry = b === region.firstBlock;
      if (this.retained && !entry) this.setRetainedNames(b.arguments);
      for (const arg of b.arguments) {
        if (this.valueIds.has(arg)) continue;
        if (this.nameLoc) {
          const special = entry ? 'arg' + this.nextArgumentId++ : '';
          this.setName(arg, findNameLocName(arg.location) ?? special);
        } else if (entry) this.setName(arg, 'arg' + this.nextArgumentId++);
        else this.valueIds.set(arg, '%' + this.nextValueId++);
      }
      for (let op = b.firstOp; op; op = op.next) this.numberOp(op);
    }
  }

  /** Names the values of `values` that have a retained name (and are not yet named). */
  private setRetainedNames(values: readonly Value[]): void {
    for (const v of values) {
      const name = getRetainedName(v);
      if (name !== undefined && !this.valueIds.has(v)) this.setName(v, name);
    }
  }

  private numberOp(op: Operation): void {
    let groups: number[] | undefined;
    // An op whose results carry retained names prints exactly those groups (no hook names).
    let named = false;
    if (this.retained && op.results.length) {
      const results = op.results;
      for (let i = 0; i < results.length; i++) {
        const name = getRetainedName(results[i]);
        if (name === undefined) continue;
        this.setName(results[i], name);
        named = true;
        if (i) (groups ??= [0]).push(i);
      }
    }
    if (!this.generic && !named) {
      const hook = op.definition?.getAsmResultNames;
      if (hook) {
        hook(op, (value, name) => {
          if (this.valueIds.has(value)) return;
          this.setName(value, this.nameLoc ? (findNameLocName(value.location) ?? name) : name);
          const idx = value instanceof OpResult ? value.index : 0;
          if (idx) (groups ??= [0]).push(idx);
        });
      }
    }
    if (op.results.length === 0) return;
    const first = op.results[0];
    if (this.generic && !this.retained && !this.nameLoc) {
      // Nothing names results before this in the generic form: number the first one directly.
      this.valueIds.set(first, '%' + this.nextValueId++);
      return;
    }
    if (this.nameLoc && !this.valueIds.has(first)) {
      const name = findNameLocName(first.location);
      if (name !== undefined) this.setName(first, name);
    }
    if (!this.valueIds.has(first)) this.valueIds.set(first, '%' + this.nextValueId++);
    if (groups) {
      groups.sort((a, b) => a - b);
      this.resultGroups.set(op, groups);
    }
  }

  private setName(value: Value, name: string): void {
    if (!name) {
      this.valueIds.set(value, '%' + this.nextValueId++);
      return;
    }
    let n = sanitizeIdentifier(name, '$._-', true);
    // MLIR checks the leading digit before escaping, so `!` becomes the numeric `%21`, which
    // can clash with a numbered value: keep every suggested name non-numeric.
    if (isDigit(n.charCodeAt(0))) n = '_' + n;
    if (this.scope.has(n)) {
      const base = n + '_';
      for (;;) {
        const probe = base + this.nextConflictId++;
        if (!this.scope.has(probe)) {
          n = probe;
          break;
        }
      }
    }
    this.scope.names.add(n);
    this.valueIds.set(value, '%' + n);
  }

  getResultGroups(op: Operation): number[] | undefined {
    return this.resultGroups.get(op);
  }

  /** `%name` or `%name#N`. */
  valueName(value: Value, printResultNo = true): string {
    let lookup: Value = value;
    let resultNo: number | undefined;
    if (value instanceof OpResult) {
      const owner = value.owner;
      const n = owner.results.length;
      if (n !== 1) {
        const groups = this.resultGroups.get(owner);
        if (!groups) {
          resultNo = value.index;
          lookup = owner.results[0];
        } else {
          let gi = 0;
          while (gi + 1 < groups.length && groups[gi + 1] <= value.index) gi++;
          const start = groups[gi];
          const size = (gi + 1 < groups.length ? groups[gi + 1] : n) - start;
          if (size !== 1) resultNo = value.index - start;
          lookup = owner.results[start];
        }
      }
    }
    const id = this.valueIds.get(lookup);
    if (id === undefined) return '<<UNKNOWN SSA VALUE>>';
    return resultNo !== undefined && printResultNo ? id + '#' + resultNo : id;
  }

  blockName(block: Block): string {
    return this.blockNames.get(block)?.name ?? '^INVALIDBLOCK';
  }
}

// ---------------------------------------------------------------- the printer

/**
 * Prints IR in MLIR's textual form: the generic form byte-for-byte as `mlir-opt
 * --mlir-print-op-generic` (LLVM 22) prints it, or custom forms through op definitions' print
 * hooks. Output is appended to one string.
 */
export class Printer implements OpAsmPrinter {
  /** The printed text: appended to (V8 builds ropes), flattened once by the caller. */
  private text = '';
  /**
   * Flat pieces of the text before {@link text}: once {@link CHUNK_OPS} ops and
   * {@link CHUNK_CHARS} characters were printed since the last piece, the op loop moves the text
   * here, so a long print keeps a few large strings alive instead of a rope of millions of small
   * ones (which every minor GC would copy). A print of few ops with large constants keeps its
   * few large pieces as one rope (flattening them early would only copy them once more).
   */
  private chunks: string[] = [];
  /** Ops printed since the last piece was moved to {@link chunks}. */
  private opsSinceChunk = 0;
  /** How many scratch buffers are open (`this.text` swapped out): no chunking inside them. */
  private scratch = 0;
  private readonly indents: string[] = [];
  private indent = 0;
  private names: SSANameState | undefined;
  private aliases = new Map<Attribute | Type, AliasInfo>();
  private readonly typeCache = new Map<Type, string>();
  /** The last type {@link printType} printed and its text: ops repeat one type (no map lookup). */
  private lastType: Type | undefined;
  private lastTypeText = '';
  /** The last type {@link collectOpTypes} visited (visiting it again would change nothing). */
  private lastCollectedType: Type | undefined;
  /** The visited values in visit order (index = AliasInfo.index). */
  private readonly aliasList: AliasInfo[] = [];
  private aliasNames = new Map<Attribute | Type, string>();
  private collecting = false;
  /** Printing without alias collection: watch for values that would have an alias. */
  private aliasWatch = false;
  /** Such a value was printed (the print starts again with alias collection). */
  private aliasMet = false;
  private collectDeferrable = false;
  private collectChildren: number[] | undefined;
  private collectMaxDepth = 0;
  private readonly defaultDialectStack: string[] = ['builtin'];
  private tasks: (() => void)[] | undefined;
  readonly generic: boolean;
  readonly debugInfo: boolean;
  readonly localScope: boolean;
  readonly hexThreshold: number;
  /** See {@link PrintOptions.useRetainedNames}. */
  readonly useRetainedNames: boolean;
  /** See {@link PrintOptions.useNameLocAsPrefix}. */
  readonly useNameLocAsPrefix: boolean;

  constructor(
    readonly context: MLIRContext,
    options: PrintOptions = {},
  ) {
    this.generic = options.generic ?? false;
    this.debugInfo = options.debugInfo ?? false;
    this.localScope = options.localScope ?? false;
    this.hexThreshold = options.hexThreshold ?? 100;
    this.useRetainedNames = options.useRetainedNames ?? false;
    this.useNameLocAsPrefix = options.useNameLocAsPrefix ?? false;
  }

  /** `indent` spaces (cached per depth). */
  private indentText(): string {
    let t = this.indents[this.indent];
    if (t === undefined) this.indents[this.indent] = t = ' '.repeat(this.indent);
    return t;
  }

  /** Takes the printed text and resets the buffer. */
  takeText(): string {
    // A rope of the flat pieces: the caller's write flattens it once.
    let s = '';
    for (const chunk of this.chunks) s += chunk;
    s += this.text;
    this.chunks = [];
    this.opsSinceChunk = 0;
    this.text = '';
    return s;
  }

  /**
   * Takes the printed text as consecutive pieces (their concatenation is what {@link takeText}
   * returns) and resets the buffer: a long print is written piece by piece, never copied into
   * one string.
   */
  takePieces(): string[] {
    const pieces = this.chunks;
    if (this.text.length > 0 || pieces.length === 0) pieces.push(this.text);
    this.chunks = [];
    this.opsSinceChunk = 0;
    this.text = '';
    return pieces;
  }

  /**
   * Appends a long flat string (a constant's hex digits): outside scratch buffers it becomes a
   * piece of its own after the text so far, so a caller writing {@link takePieces} writes it
   * from where it is, instead of from a rope that its write must first copy into one string.
   */
  private appendLarge(s: string): void {
    if (s.length < LARGE_PIECE_CHARS || this.scratch !== 0 || this.collecting) {
      this.text += s;
      return;
    }
    if (this.text.length > 0) this.chunks.push(this.text);
    this.chunks.push(s);
    this.text = '';
  }

  /** Moves the text printed so far to {@link chunks} as one flat string, when it is long. */
  private chunkText(): void {
    const text = this.text;
    if (++this.opsSinceChunk < CHUNK_OPS || text.length < CHUNK_CHARS || this.scratch !== 0 || this.collecting) return;
    text.charCodeAt(0); // flattens the rope in place (one copy); its pieces become garbage now
    this.chunks.push(text);
    this.text = '';
    this.opsSinceChunk = 0;
  }

  // ------------------------------------------------------------ top level

  /**
   * Prints `op` as MLIR's `Operation::print` does at top level: non-deferred aliases, the op,
   * a newline, then deferred (location) aliases.
   */
  printTopLevel(op: Operation): string {
    this.printTopLevelText(op);
    return this.takeText();
  }

  /** {@link printTopLevel} as consecutive pieces (see {@link takePieces}). */
  printTopLevelPieces(op: Operation): string[] {
    this.printTopLevelText(op);
    return this.takePieces();
  }

  private printTopLevelText(op: Operation): void {
    this.names = new SSANameState(op, this.generic, this);
    if (!this.localScope && this.mayHaveOnlyBuiltinAliases()) {
      // Alias collection walks every op once more (custom printers included) and, in most
      // modules, finds nothing to alias. Print without it; only when the print meets a value
      // that would have an alias (an affine map, an integer set, a location) start again with
      // the collection. Collection visits what the print prints, so a print that met no such
      // value is exactly the text with collection.
      const chunkCount = this.chunks.length;
      const text = this.text;
      const opsSinceChunk = this.opsSinceChunk;
      const indent = this.indent;
      const dialectDepth = this.defaultDialectStack.length;
      this.aliasWatch = true;
      this.aliasMet = false;
      try {
        this.printOperationLine(op, false);
      } catch (e) {
        if (e !== ALIAS_MET) throw e;
      } finally {
        this.aliasWatch = false;
      }
      if (!this.aliasMet) {
        this.text += '\n';
        return;
      }
      this.chunks.length = chunkCount;
      this.text = text;
      this.opsSinceChunk = opsSinceChunk;
      this.indent = indent;
      this.defaultDialectStack.length = dialectDepth;
      this.typeCache.clear();
      this.lastType = undefined;
      this.lastTypeText = '';
      this.names = new SSANameState(op, this.generic, this);
    }
    if (!this.localScope) this.initializeAliases(op);
    const sorted = [...this.aliases.values()].filter((a) => a.name !== undefined);
    for (const a of sorted) if (!a.deferrable) this.printAliasDefinition(a);
    this.printOperationLine(op, false);
    // With local scope MLIR prints the op alone (no alias sections, no extra newline).
    if (!this.localScope) this.text += '\n';
    for (const a of sorted) if (a.deferrable) this.printAliasDefinition(a);
  }

  /**
   * Whether only builtin values can have aliases here (no location aliases without debug info,
   * no dialect naming aliases of its own): then a print that meets no affine map, integer set
   * or location needs no alias collection (see {@link printTopLevelText}).
   */
  private mayHaveOnlyBuiltinAliases(): boolean {
    if (this.debugInfo) return false;
    for (const d of this.context.registeredDialects) if ((d as DialectAsmHooks).getAlias) return false;
    return true;
  }

  /**
   * Notes, while printing without alias collection, a value that would have an alias, and stops
   * that print (a hook that swallows the stop still leaves the note).
   */
  private watchAlias(value: Attribute | Type): void {
    if (value instanceof AffineMapAttr || value instanceof IntegerSetAttr || value instanceof Location) {
      this.aliasMet = true;
      throw ALIAS_MET;
    }
  }

  /**
   * Prints one op (no aliases, no trailing newline) with values numbered as in its nearest
   * isolated-from-above ancestor, as MLIR prints ops in diagnostics.
   */
  printSingle(op: Operation): string {
    let root: Operation = op;
    for (let p = op.getParentOp(); p; p = p.getParentOp()) {
      root = p;
      if (p.definition?.traits.some((t) => t.kind === 'IsIsolatedFromAbove')) break;
    }
    this.names = new SSANameState(root, this.generic, this);
    this.printOperationLine(op, false);
    return this.takeText();
  }

  private printAliasDefinition(a: AliasInfo): void {
    this.text += this.aliasNames.get(a.value)! + ' = ';
    if (a.isType) this.printTypeImpl(a.value as Type);
    else this.printAttributeImpl(a.value as Attribute, false);
    this.text += '\n';
  }

  // ------------------------------------------------------------ aliases

  private initializeAliases(root: Operation): void {
    this.lastCollectedType = undefined;
    this.collecting = true;
    const saved = this.text;
    this.text = '';
    this.scratch++;
    this.collectOp(root);
    this.scratch--;
    this.text = saved;
    this.collecting = false;
    const list = [...this.aliases.values()];
    const order = list
      .filter((a) => a.name !== undefined)
      .sort((x, y) => {
        if (x.depth !== y.depth) return x.depth - y.depth;
        if (x.isType !== y.isType) return x.isType ? -1 : 1;
        if (x.name! !== y.name!) return x.name! < y.name! ? -1 : 1;
        return x.index - y.index;
      });
    const counts = new Map<string, number>();
    const sortedMap = new Map<Attribute | Type, AliasInfo>();
    for (const a of order) {
      const n = counts.get(a.name!) ?? 0;
      counts.set(a.name!, n + 1);
      this.aliasNames.set(a.value, (a.isType ? '!' : '#') + a.name! + (n ? String(n) : ''));
      sortedMap.set(a.value, a);
    }
    this.aliases = sortedMap;
  }

  /** Visits what the generic printer (or the custom hook) would print, as MLIR's alias initializer. */
  private collectOp(op: Operation): void {
    this.runTasks(() => this.collectOpTask(op));
  }

  private collectOpTask(op: Operation): void {
    if (this.debugInfo) this.visit(op.location, true);
    const def = op.definition;
    if (!this.generic && (def?.print || op.name === 'builtin.module')) {
      this.printOperationBody(op);
      return;
    }
    // The op's own types and attributes are visited after its regions (inline without regions).
    if (op.regions.length === 0) {
      this.collectOpTypes(op);
      return;
    }
    const stack = this.tasks!;
    stack.push(() => this.collectOpTypes(op));
    for (let i = op.regions.length - 1; i >= 0; i--) this.pushCollectRegion(op.regions[i], true, true);
  }

  private collectOpTypes(op: Operation): void {
    for (let i = 0; i < op.numOperands; i++) this.collectType(op.getOperand(i).type);
    for (const r of op.results) this.collectType(r.type);
    if (op.attributes.size) for (const v of [...op.attributes.values()]) this.visit(v, false);
  }

  /**
   * Visits an op's operand or result type as not deferrable. Visiting the same type again at
   * top level changes nothing (it is already recorded and marked), so a repeat of the last one,
   * the usual case, is skipped.
   */
  private collectType(type: Type): void {
    if (type === this.lastCollectedType && this.collectChildren === undefined) return;
    this.visit(type, false);
    this.lastCollectedType = this.collectChildren === undefined ? type : undefined;
  }

  private pushCollectRegion(region: Region, printEntryBlockArgs: boolean, printBlockTerminators: boolean): void {
    const stack = this.tasks!;
    for (let b = region.lastBlock; b; b = b.prev) {
      const block = b;
      stack.push(() => {
        const entry = block === region.firstBlock;
        if (!entry || printEntryBlockArgs) {
          for (const arg of block.arguments) {
            this.visit(arg.type, false);
            if (this.debugInfo) this.visit(arg.loc, false);
          }
        }
        const last = block.lastOp;
        const skipLast = entry && !printBlockTerminators && last !== null && last.hasTrait(terminatorTrait(last));
        const stop = skipLast ? last : null;
        // One task walks the block, re-queued before each op so nested tasks run first.
        let cur = block.firstOp;
        if (cur === stop) return;
        const step = (): void => {
          const op = cur!;
          cur = op.next;
          if (cur !== stop) stack.push(step);
          this.collectOpTask(op);
        };
        stack.push(step);
      });
    }
  }

  /** Runs printing tasks with an explicit stack (IR nesting depth does not use the JS stack). */
  private runTasks(first: () => void): void {
    const saved = this.tasks;
    const stack: (() => void)[] = [first];
    this.tasks = stack;
    try {
      while (stack.length) stack.pop()!();
    } finally {
      this.tasks = saved;
    }
  }

  private visit(value: Attribute | Type, canBeDeferred: boolean, elideType = false): { depth: number; index: number } {
    const existing = this.aliases.get(value);
    if (existing) {
      if (!canBeDeferred) this.markNonDeferrable(existing);
      return { depth: existing.depth, index: existing.index };
    }
    const name = this.aliasNameOf(value);
    const info: AliasInfo = {
      name,
      depth: name ? 1 : 0,
      isType: value instanceof Type,
      deferrable: canBeDeferred,
      children: [],
      index: this.aliases.size,
      value,
    };
    this.aliases.set(value, info);
    this.aliasList.push(info);
    const savedChildren = this.collectChildren;
    const savedMax = this.collectMaxDepth;
    const savedDeferrable = this.collectDeferrable;
    this.collectChildren = info.children;
    this.collectMaxDepth = 0;
    this.collectDeferrable = canBeDeferred;
    this.visitChildren(value, elideType);
    const maxDepth = this.collectMaxDepth;
    this.collectChildren = savedChildren;
    this.collectMaxDepth = savedMax;
    this.collectDeferrable = savedDeferrable;
    if (maxDepth) info.depth = maxDepth + 1;
    return { depth: info.depth, index: info.index };
  }

  private visitChild(value: Attribute | Type, elideType = false): void {
    const r = this.visit(value, this.collectDeferrable, elideType);
    this.collectChildren?.push(r.index);
    if (r.depth > this.collectMaxDepth) this.collectMaxDepth = r.depth;
  }

  private markNonDeferrable(info: AliasInfo): void {
    if (!info.deferrable) return;
    info.deferrable = false;
    for (const c of info.children) {
      const child = this.aliasList[c];
      if (child) this.markNonDeferrable(child);
    }
  }

  private aliasNameOf(value: Attribute | Type): string | undefined {
    let name: string | undefined;
    if (value instanceof AffineMapAttr) name = 'map';
    else if (value instanceof IntegerSetAttr) name = 'set';
    else if (value instanceof Location) name = 'loc';
    else if (isDialectOwned(value)) {
      const d = this.context.getDialect(value.dialectNamespace) as DialectAsmHooks | undefined;
      name = d?.getAlias?.(value);
    }
    if (!name) return undefined;
    return sanitizeIdentifier(name, '$_-', false);
  }

  private visitChildren(value: Attribute | Type, elideType: boolean): void {
    if (value instanceof Type) {
      if (isDialectOwned(value) && !(value instanceof OpaqueType)) {
        // Dialect types print through their hook; visit what it prints.
        const d = this.context.getDialect(value.dialectNamespace) as DialectAsmHooks | undefined;
        d?.printType?.(value, this);
        return;
      }
      if (value instanceof MemRefType) {
        this.visitChild(value.elementType);
        if (value.layout && !(value.layout instanceof AffineMapAttr && value.layout.value.isIdentity)) this.visitChild(value.layout);
        if (value.memorySpace) this.visitChild(value.memorySpace);
        return;
      }
      if (value instanceof RankedTensorType) {
        this.visitChild(value.elementType);
        if (value.encoding) this.visitChild(value.encoding);
      } else if (value instanceof UnrankedTensorType || value instanceof VectorType || value instanceof ComplexType) {
        this.visitChild(value.elementType);
      } else if (value instanceof UnrankedMemRefType) {
        this.visitChild(value.elementType);
        if (value.memorySpace) this.visitChild(value.memorySpace);
      } else if (value instanceof FunctionType) {
        for (const t of value.inputs) this.visitChild(t);
        for (const t of value.results) this.visitChild(t);
      } else if (value instanceof TupleType) {
        for (const t of value.types) this.visitChild(t);
      }
      return;
    }
    if (isDialectOwned(value) && !(value instanceof OpaqueAttr)) {
      const d = this.context.getDialect(value.dialectNamespace) as DialectAsmHooks | undefined;
      d?.printAttribute?.(value, this);
      return;
    }
    if (value instanceof DictionaryAttr) {
      for (const e of value.entries) this.visitChild(e.value);
    } else if (value instanceof ArrayAttr) {
      for (const e of value.elements) this.visitChild(e);
    } else if (value instanceof TypeAttr) {
      this.visitChild(value.value);
    } else if (value instanceof OpaqueLoc) {
      this.visitChild(value.fallback);
    } else if (value instanceof NameLoc) {
      if (!(value.child instanceof UnknownLoc)) this.visitChild(value.child);
    } else if (value instanceof CallSiteLoc) {
      this.visitChild(value.callee);
      this.visitChild(value.caller);
    } else if (value instanceof FusedLoc) {
      if (value.metadata) this.visitChild(value.metadata);
      for (const l of value.locations) this.visitChild(l);
    }
    if (value instanceof AffineMapAttr || value instanceof DenseArrayAttr || value instanceof FloatAttr || value instanceof IntegerAttr || value instanceof IntegerSetAttr || value instanceof UnitAttr) return;
    if (!elideType) {
      if (value instanceof DenseElementsAttr || value instanceof DenseResourceElementsAttr) this.visitChild(value.type);
      else if ((value instanceof StringAttr || value instanceof OpaqueAttr) && value.type && !(value.type instanceof NoneType))
        this.visitChild(value.type);
    }
  }

  // ------------------------------------------------------------ operations

  private printOperationLine(op: Operation, withIndent: boolean): void {
    this.runTasks(() => this.opTask(op, withIndent, false));
  }

  private opTask(op: Operation, withIndent: boolean, newline: boolean): void {
    if (withIndent) this.text += this.indentText();
    const stack = this.tasks!;
    const mark = stack.length;
    this.printOperationBody(op);
    // The tail (location, newline) runs after the op's nested tasks: inline when it has none.
    if (stack.length === mark) this.opTail(op, newline);
    else stack.splice(mark, 0, () => this.opTail(op, newline));
  }

  private opTail(op: Operation, newline: boolean): void {
    if (this.debugInfo && !this.collecting) {
      this.text += ' ';
      this.printLocationSpecifier(op.location, true);
    }
    if (newline) this.text += '\n';
  }

  /** Results, ` = `, and the op in custom or generic form (no location). */
  private printOperationBody(op: Operation): void {
    const names = this.names!;
    const n = op.results.length;
    if (n && !this.collecting) {
      const groups = n === 1 ? undefined : names.getResultGroups(op);
      if (!groups) {
        this.text += names.valueName(op.results[0], false);
        if (n > 1) this.text += ':' + n;
        this.text += ' = ';
      } else {
        const printGroup = (start: number, count: number): void => {
          this.text += names.valueName(op.results[start], false);
          if (count > 1) this.text += ':' + count;
        };
        for (let i = 0; i + 1 < groups.length; i++) {
          printGroup(groups[i], groups[i + 1] - groups[i]);
          this.text += ', ';
        }
        printGroup(groups[groups.length - 1], n - groups[groups.length - 1]);
        this.text += ' = ';
      }
    }
    if (!this.generic) {
      const def = op.definition;
      if (def?.print) {
        const dflt = this.defaultDialectStack[this.defaultDialectStack.length - 1];
        let name = op.name;
        if (dflt && name.startsWith(dflt + '.') && name.indexOf('.', dflt.length + 1) < 0) name = name.substring(dflt.length + 1);
        this.text += name;
        this.defaultDialectStack.push(def.defaultDialect ?? '');
        try {
          def.print(op, this);
        } finally {
          this.defaultDialectStack.pop();
        }
        return;
      }
      if (op.name === 'builtin.module' && !def) {
        this.printModuleCustom(op);
        return;
      }
    }
    this.printGenericOp(op);
  }

  private printModuleCustom(op: Operation): void {
    this.text += 'module';
    const sym = op.properties.get('sym_name') ?? op.attributes.get('sym_name');
    const vis = op.properties.get('sym_visibility') ?? op.attributes.get('sym_visibility');
    if (vis instanceof StringAttr) this.text += ' ' + vis.value;
    if (sym instanceof StringAttr) this.text += ' ' + symbolName(sym.value);
    const attrs: NamedAttribute[] = [];
    for (const [name, value] of op.properties) if (name !== 'sym_name' && name !== 'sym_visibility') attrs.push({ name, value });
    for (const [name, value] of op.attributes) if (name !== 'sym_name' && name !== 'sym_visibility') attrs.push({ name, value });
    this.printOptionalAttrDictWithKeyword(attrs);
    this.text += ' ';
    this.defaultDialectStack.push('builtin');
    try {
      this.printRegion(op.regions[0], false, false);
    } finally {
      this.defaultDialectStack.pop();
    }
  }

  private printGenericOp(op: Operation): void {
    if (this.collecting) {
      // Custom printers may nest generic ops: visit like MLIR's dummy printer.
      for (const r of op.regions) this.printRegion(r, true, true, true);
      for (let i = 0; i < op.numOperands; i++) this.printType(op.getOperand(i).type);
      for (const r of op.results) this.printType(r.type);
      for (const v of op.attributes.values()) this.printAttribute(v);
      return;
    }
    this.text += '"' + escapeString(op.name) + '"(';
    const names = this.names!;
    for (let i = 0; i < op.numOperands; i++) {
      if (i) this.text += ', ';
      this.text += names.valueName(op.getOperand(i));
    }
    this.text += ')';
    if (op.numSuccessors) {
      this.text += '[';
      for (let i = 0; i < op.numSuccessors; i++) {
        if (i) this.text += ', ';
        this.text += names.blockName(op.getSuccessor(i));
      }
      this.text += ']';
    }
    if (op.properties.size) {
      this.text += ' <';
      // Properties print as a dictionary without aliases for nested values (as MLIR does).
      // (The dictionary's body, sorted, without uniquing a DictionaryAttr per printed op.)
      const list: NamedAttribute[] = [];
      for (const [name, value] of op.properties) list.push({ name, value });
      this.printDictionaryBody(list);
      this.text += '>';
    }
    if (!op.regions.length) {
      this.genericOpTail(op);
      return;
    }
    const tail = (): void => this.genericOpTail(op);
    this.text += ' (';
    const stack = this.tasks!;
    stack.push(() => {
      this.text += ')';
      tail();
    });
    // The regions of a generically printed op have no default dialect (as in MLIR, where
    // `builtin.unrealized_conversion_cast` prints in full inside them).
    stack.push(() => void this.defaultDialectStack.pop());
    for (let i = op.regions.length - 1; i >= 0; i--) {
      const r = op.regions[i];
      stack.push(() => this.regionTask(r, true, true, true));
      if (i) stack.push(() => (this.text += ', '));
    }
    stack.push(() => void this.defaultDialectStack.push(''));
  }

  private genericOpTail(op: Operation): void {
    if (op.attributes.size) this.printOptionalAttrDict(op.attributes);
    this.text += ' : ';
    this.printFunctionalTypeOf(op);
  }

  printRegion(region: Region, printEntryBlockArgs = true, printBlockTerminators = true, printEmptyBlock = false): void {
    if (this.collecting) {
      this.runTasks(() => this.pushCollectRegion(region, printEntryBlockArgs, printBlockTerminators));
      return;
    }
    this.runTasks(() => this.regionTask(region, printEntryBlockArgs, printBlockTerminators, printEmptyBlock));
  }

  private regionTask(region: Region, printEntryBlockArgs: boolean, printBlockTerminators: boolean, printEmptyBlock: boolean): void {
    this.text += '{\n';
    const stack = this.tasks!;
    stack.push(() => (this.text += this.indentText() + '}'));
    const entry = region.firstBlock;
    for (let b = region.lastBlock; b; b = b.prev) {
      const block = b;
      if (block === entry) {
        const alwaysHeader = (printEmptyBlock && block.empty) || (printEntryBlockArgs && block.numArguments !== 0);
        stack.push(() => this.blockTask(block, alwaysHeader, printBlockTerminators));
      } else stack.push(() => this.blockTask(block, true, true));
    }
  }

  private blockTask(block: Block, printHeader: boolean, printTerminator: boolean): void {
    const names = this.names!;
    if (printHeader) {
      this.text += this.indentText() + names.blockName(block);
      if (block.numArguments) {
        this.text += '(';
        block.arguments.forEach((arg, i) => {
          if (i) this.text += ', ';
          this.text += names.valueName(arg) + ': ';
          this.printType(arg.type);
          if (this.debugInfo) {
            this.text += ' ';
            this.printLocationSpecifier(arg.loc, false);
          }
        });
        this.text += ')';
      }
      this.text += ':';
      if (!block.parent) this.text += '  // block is not in a region!';
      else if (!block.hasPredecessors) {
        if (!block.isEntryBlock) this.text += '  // no predecessors';
      } else {
        const preds = block.predecessors;
        if (preds.length === 1) this.text += '  // pred: ' + names.blockName(preds[0]);
        else {
          const infos = preds.map((p) => names.blockNames.get(p) ?? { ordering: -1, name: '^INVALIDBLOCK' });
          infos.sort((a, b) => a.ordering - b.ordering);
          this.text += `  // ${infos.length} preds: ` + infos.map((i) => i.name).join(', ');
        }
      }
      this.text += '\n';
    }
    this.indent += 2;
    const stack = this.tasks!;
    stack.push(() => {
      this.indent -= 2;
    });
    const last = block.lastOp;
    const skipLast = !printTerminator && last !== null && last.hasTrait(terminatorTrait(last));
    const stop = skipLast ? last : null;
    // One task walks the block: it re-queues itself before printing each op, so the op's nested
    // tasks (regions) run first.
    let cur = block.firstOp;
    if (cur === stop) return;
    const step = (): void => {
      const op = cur!;
      cur = op.next;
      if (cur !== stop) stack.push(step);
      this.chunkText();
      this.opTask(op, true, true);
    };
    stack.push(step);
  }

  // ------------------------------------------------------------ OpAsmPrinter

  print(text: string): void {
    if (!this.collecting) this.text += text;
  }
  printOperand(value: Value): void {
    if (!this.collecting) this.text += this.names ? this.names.valueName(value) : '%<<value>>';
  }
  getValueName(value: Value): string {
    return this.names ? this.names.valueName(value) : '%<<value>>';
  }
  printOperands(values: readonly Value[]): void {
    values.forEach((v, i) => {
      if (i) this.print(', ');
      this.printOperand(v);
    });
  }
  printTypes(types: readonly Type[]): void {
    types.forEach((t, i) => {
      if (i) this.print(', ');
      this.printType(t);
    });
  }
  printFunctionalTypeOf(op: Operation): void {
    // As printFunctionalType over the operand and result types, without building the lists.
    if (this.collecting) {
      for (let i = 0; i < op.numOperands; i++) this.printType(op.getOperand(i).type);
      for (const r of op.results) this.printType(r.type);
      return;
    }
    this.text += '(';
    for (let i = 0; i < op.numOperands; i++) {
      if (i) this.text += ', ';
      this.printType(op.getOperand(i).type);
    }
    this.text += ') -> ';
    const results = op.results;
    const wrap = results.length !== 1 || results[0].type instanceof FunctionType;
    if (wrap) this.text += '(';
    for (let i = 0; i < results.length; i++) {
      if (i) this.text += ', ';
      this.printType(results[i].type);
    }
    if (wrap) this.text += ')';
  }
  printFunctionalType(inputs: readonly Type[], results: readonly Type[]): void {
    this.print('(');
    this.printTypes(inputs);
    this.print(') -> ');
    this.printOptionalArrowTypeList(results);
  }
  printOptionalArrowTypeList(types: readonly Type[]): void {
    const wrap = types.length !== 1 || types[0] instanceof FunctionType;
    if (wrap) this.print('(');
    this.printTypes(types);
    if (wrap) this.print(')');
  }
  printOptionalAttrDict(
    attributes: Iterable<NamedAttribute> | ReadonlyMap<string, Attribute>,
    elidedNames: readonly string[] = [],
  ): void {
    const list = toNamedList(attributes, elidedNames);
    if (list.length === 0) return;
    this.print(' ');
    this.printDictionaryBody(list);
  }
  printOptionalAttrDictWithKeyword(
    attributes: Iterable<NamedAttribute> | ReadonlyMap<string, Attribute>,
    elidedNames: readonly string[] = [],
  ): void {
    const list = toNamedList(attributes, elidedNames);
    if (list.length === 0) return;
    this.print(' attributes ');
    this.printDictionaryBody(list);
  }
  private printDictionaryBody(list: NamedAttribute[]): void {
    list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (this.collecting) {
      for (const e of list) this.printAttribute(e.value);
      return;
    }
    this.text += '{';
    for (let i = 0; i < list.length; i++) {
      const e = list[i]!;
      if (i) this.text += ', ';
      this.text += keywordOrString(e.name);
      if (!(e.value instanceof UnitAttr)) {
        this.text += ' = ';
        this.printAttribute(e.value);
      }
    }
    this.text += '}';
  }
  printRegionArgument(arg: BlockArgument, attributes?: readonly NamedAttribute[]): void {
    if (this.collecting) {
      this.visit(arg.type, false);
      if (this.debugInfo) this.visit(arg.loc, false);
      return;
    }
    this.printOperand(arg);
    this.print(': ');
    this.printType(arg.type);
    if (attributes && attributes.length) this.printOptionalAttrDict(attributes);
    if (this.debugInfo) {
      this.print(' ');
      this.printLocationSpecifier(arg.loc, false);
    }
  }
  printSuccessor(block: Block): void {
    this.print(this.names ? this.names.blockName(block) : '^bb?');
  }
  printSuccessorAndUseList(block: Block, operands: readonly Value[]): void {
    this.printSuccessor(block);
    if (!operands.length) return;
    this.print('(');
    this.printOperands(operands);
    this.print(' : ');
    this.printTypes(operands.map((v) => v.type));
    this.print(')');
  }
  printOperation(op: Operation): void {
    if (this.collecting) this.collectOp(op);
    else this.printOperationLine(op, false);
  }
  printNewline(): void {
    this.print('\n' + this.indentText());
  }
  increaseIndent(): void {
    this.indent += 2;
  }
  decreaseIndent(): void {
    this.indent -= 2;
  }
  printOptionalLocationSpecifier(location: Location): void {
    if (!this.debugInfo) return;
    if (this.collecting) {
      this.visit(location, false);
      return;
    }
    this.text += ' ';
    this.printLocationSpecifier(location, true);
  }
  printKeywordOrString(keyword: string): void {
    this.print(keywordOrString(keyword));
  }
  printString(value: string): void {
    this.print(`"${escapeString(value)}"`);
  }
  printSymbolName(name: string): void {
    this.print(symbolName(name));
  }

  // ------------------------------------------------------------ types

  printType(type: Type): void {
    if (this.collecting) {
      this.visitChildOrTop(type);
      return;
    }
    // Aliases are fixed once printing starts, so a type always prints the same: cache it.
    if (type === this.lastType) {
      this.text += this.lastTypeText;
      return;
    }
    const cached = this.typeCache.get(type);
    if (cached !== undefined) {
      this.text += cached;
      this.lastType = type;
      this.lastTypeText = cached;
      return;
    }
    const alias = this.aliasNames.get(type);
    if (alias) {
      this.text += alias;
      return;
    }
    const saved = this.text;
    this.text = '';
    this.scratch++;
    try {
      this.printTypeImpl(type);
    } finally {
      this.scratch--;
      const text = this.text;
      this.text = saved;
      this.text += text;
      this.typeCache.set(type, text);
    }
  }

  private visitChildOrTop(value: Attribute | Type, elideType = false): void {
    if (this.collectChildren) this.visitChild(value, elideType);
    else this.visit(value, this.collectDeferrable, elideType);
  }

  private printTypeImpl(type: Type): void {
    if (this.aliasWatch) this.watchAlias(type);
    if (type instanceof IntegerType) {
      this.text += (type.signedness === 'signed' ? 'si' : type.signedness === 'unsigned' ? 'ui' : 'i') + type.width;
    } else if (type instanceof FloatType) this.text += type.kind;
    else if (type instanceof IndexType) this.text += 'index';
    else if (type instanceof NoneType) this.text += 'none';
    else if (type instanceof RankedTensorType) this.printShapedBody('tensor<', type.shape, type.elementType, false, type.encoding);
    else if (type instanceof UnrankedTensorType) this.printShapedBody('tensor<*x', undefined, type.elementType, false);
    else if (type instanceof VectorType) {
      let opening = 'vector<';
      for (let i = 0; i < type.shape.length; i++) opening += type.scalableDims[i] ? `[${type.shape[i]}]x` : `${type.shape[i]}x`;
      this.printShapedBody(opening, undefined, type.elementType, false);
    } else if (type instanceof MemRefType) {
      const layout = type.layout && !(type.layout instanceof AffineMapAttr && type.layout.value.isIdentity) ? type.layout : undefined;
      this.printShapedBody('memref<', type.shape, type.elementType, true, layout, type.memorySpace);
    } else if (type instanceof UnrankedMemRefType) this.printShapedBody('memref<*x', undefined, type.elementType, true, type.memorySpace);
    else if (type instanceof ComplexType) this.printShapedBody('complex<', undefined, type.elementType, false);
    else if (type instanceof TupleType) {
      this.text += 'tuple<';
      this.printTypes(type.types);
      this.text += '>';
    } else if (type instanceof FunctionType) {
      this.printFunctionalType(type.inputs, type.results);
    } else if (type instanceof OpaqueType) {
      this.text += dialectSymbol('!', type.dialectNamespace, type.data);
    } else if (isDialectOwned(type)) {
      const d = this.context.getDialect(type.dialectNamespace) as DialectAsmHooks | undefined;
      const body = this.captureOutput(() => d?.printType?.(type, this) ?? false);
      this.text += body === undefined ? '<<unprintable type>>' : dialectSymbol('!', type.dialectNamespace, body);
    } else this.text += `<<unknown type ${type.constructor.name}>>`;
  }

  /**
   * Runs a dialect print hook into a scratch buffer (MLIR then picks `!ns.body` or `!ns<body>`);
   * returns undefined when the hook declined.
   */
  private captureOutput(hook: () => boolean): string | undefined {
    const saved = this.text;
    this.text = '';
    this.scratch++;
    let ok = false;
    let text = '';
    try {
      ok = hook();
    } finally {
      this.scratch--;
      text = this.text;
      this.text = saved;
    }
    return ok ? text : undefined;
  }

  /**
   * The body of a type with an element type: `opening` (`tensor<`, `memref<*x`, `vector<4x`),
   * the static shape as `4x?x` when given, the element type, `, attr` for each trailing
   * attribute present (encoding; layout and memory space, printed maybe-elided when
   * `elidable`), then `>`.
   */
  private printShapedBody(
    opening: string,
    shape: readonly number[] | undefined,
    elementType: Type,
    elidable: boolean,
    trailing?: Attribute,
    secondTrailing?: Attribute,
  ): void {
    this.text += opening;
    if (shape) this.printShape(shape);
    this.printType(elementType);
    if (trailing) this.printTrailingAttribute(trailing, elidable);
    if (secondTrailing) this.printTrailingAttribute(secondTrailing, elidable);
    this.text += '>';
  }

  private printTrailingAttribute(attr: Attribute, elidable: boolean): void {
    this.text += ', ';
    if (elidable) this.printAttributeMaybeElided(attr);
    else this.printAttribute(attr);
  }

  private printShape(shape: readonly number[]): void {
    for (const d of shape) this.text += d === DYNAMIC ? '?x' : `${d}x`;
  }

  // ------------------------------------------------------------ attributes

  printAttribute(attr: Attribute): void {
    if (this.collecting) {
      this.visitChildOrTop(attr);
      return;
    }
    const alias = this.aliasNames.get(attr);
    if (alias) {
      this.text += alias;
      return;
    }
    this.printAttributeImpl(attr, false);
  }

  printAttributeWithoutType(attr: Attribute): void {
    if (this.collecting) {
      this.visitChildOrTop(attr, true);
      return;
    }
    const alias = this.aliasNames.get(attr);
    if (alias) {
      this.text += alias;
      return;
    }
    this.printAttributeImpl(attr, true);
  }

  /** MLIR's `AttrTypeElision::May`: an i64 integer prints without its type. */
  private printAttributeMaybeElided(attr: Attribute): void {
    if (attr instanceof IntegerAttr && attr.type instanceof IntegerType && attr.type.width === 64 && attr.type.isSignless) {
      this.printAttributeWithoutType(attr);
    } else if (attr instanceof FloatAttr && attr.type.kind === 'f64' && !this.collecting && !this.aliasNames.has(attr)) {
      // FloatAttr elides f64 unless the value printed in hex.
      const text = formatFloat('f64', attr.value);
      if (text.startsWith('0x')) this.printAttribute(attr);
      else this.text += text;
    } else this.printAttribute(attr);
  }

  private printAttributeImpl(attr: Attribute, elideType: boolean): void {
    if (this.aliasWatch) this.watchAlias(attr);
    if (attr instanceof IntegerAttr) {
      if (attr.isBool) {
        this.text += attr.value ? 'true' : 'false';
        return;
      }
      this.text += attr.value.toString();
      if (!elideType) {
        this.text += ' : ';
        this.printType(attr.type);
      }
    } else if (attr instanceof FloatAttr) {
      this.text += formatFloat(attr.type.kind, attr.value);
      if (!elideType) {
        this.text += ' : ';
        this.printType(attr.type);
      }
    } else if (attr instanceof StringAttr) {
      this.text += '"' + escapeString(attr.value) + '"';
      if (attr.type && !elideType) {
        this.text += ' : ';
        this.printType(attr.type);
      }
    } else if (attr instanceof UnitAttr) this.text += 'unit';
    else if (attr instanceof ArrayAttr) {
      this.text += '[';
      attr.elements.forEach((e, i) => {
        if (i) this.text += ', ';
        this.printAttributeMaybeElided(e);
      });
      this.text += ']';
    } else if (attr instanceof DictionaryAttr) {
      this.printDictionaryBody([...attr.entries]);
    } else if (attr instanceof DenseArrayAttr) {
      this.text += 'array<';
      this.printType(attr.elementType);
      if (attr.values.length) {
        this.text += ': ';
        const et = attr.elementType;
        const vals = attr.values as readonly (number | bigint)[];
        const parts = new Array<string>(vals.length);
        for (let i = 0; i < vals.length; i++) {
          const v = vals[i];
          if (et instanceof FloatType) parts[i] = formatFloat(et.kind, v as number);
          else if (et.width === 1 && et.isSignless) parts[i] = v ? 'true' : 'false';
          else {
            // Number -> string is about twice as fast as bigint -> string; exact for safe integers.
            const n = Number(v);
            parts[i] = Number.isSafeInteger(n) ? '' + n : String(v);
          }
        }
        this.text += parts.join(', ');
      }
      this.text += '>';
    } else if (attr instanceof SymbolRefAttr) {
      this.text += symbolName(attr.root);
      for (const n of attr.nested) this.text += '::' + symbolName(n);
    } else if (attr instanceof TypeAttr) this.printType(attr.value);
    else if (attr instanceof AffineMapAttr) {
      this.text += 'affine_map<';
      const parts: string[] = [];
      printAffineMapTo(parts, attr.value);
      this.text += parts.join('');
      this.text += '>';
    } else if (attr instanceof IntegerSetAttr) {
      this.text += 'affine_set<';
      const parts: string[] = [];
      printIntegerSetTo(parts, attr.value);
      this.text += parts.join('');
      this.text += '>';
    } else if (attr instanceof StridedLayoutAttr) {
      this.text += 'strided<[' + (attr.strides.map((s) => (s === DYNAMIC ? '?' : String(s))).join(', ')) + ']';
      if (attr.offset !== 0) this.text += ', offset: ' + (attr.offset === DYNAMIC ? '?' : String(attr.offset));
      this.text += '>';
    } else if (attr instanceof DenseElementsAttr) {
      this.printDenseElements(attr);
      if (!elideType) {
        this.text += ' : ';
        this.printType(attr.type);
      }
    } else if (attr instanceof DenseResourceElementsAttr) {
      this.text += 'dense_resource<' + attr.handle + '>';
      if (!elideType) {
        this.text += ' : ';
        this.printType(attr.type);
      }
    } else if (attr instanceof OpaqueAttr) {
      this.text += dialectSymbol('#', attr.dialectNamespace, attr.data);
      if (attr.type && !elideType) {
        this.text += ' : ';
        this.printType(attr.type);
      }
    } else if (attr instanceof Location) {
      this.text += 'loc(';
      this.printLocationInternal(attr);
      this.text += ')';
    } else if (isDialectOwned(attr)) {
      const d = this.context.getDialect(attr.dialectNamespace) as DialectAsmHooks | undefined;
      const body = this.captureOutput(() => d?.printAttribute?.(attr, this) ?? false);
      this.text += body === undefined ? '<<unprintable attribute>>' : dialectSymbol('#', attr.dialectNamespace, body);
    } else this.text += `<<unknown attribute ${attr.constructor.name}>>`;
  }

  private printDenseElements(attr: DenseElementsAttr): void {
    const n = attr.numElements;
    const et = attr.elementType;
    if (!attr.isSplat && this.hexThreshold >= 0 && n > this.hexThreshold) {
      this.text += 'dense<"0x';
      this.appendLarge(encodeDenseHex(attr));
      this.text += '">';
      return;
    }
    this.text += 'dense<';
    const fmt = (i: number): string => {
      const v = attr.data[i];
      if (et instanceof FloatType) return formatFloat(et.kind, v as number);
      if (et instanceof IntegerType && et.width === 1 && et.isSignless) return v ? 'true' : 'false';
      return String(v);
    };
    if (attr.isSplat) {
      this.text += fmt(0) + '>';
      return;
    }
    if (n === 0) {
      this.text += '>';
      return;
    }
    const shape = attr.type.shape;
    if (shape.length === 0) {
      this.text += fmt(0) + '>';
      return;
    }
    // Nested brackets, row-major, iterative.
    const rank = shape.length;
    const counters = new Array<number>(rank).fill(0);
    const parts: string[] = [];
    for (let i = 0; i < rank; i++) parts.push('[');
    for (let idx = 0; idx < n; idx++) {
      parts.push(fmt(idx));
      let d = rank - 1;
      counters[d]++;
      let closed = 0;
      while (d >= 0 && counters[d] === shape[d]) {
        counters[d] = 0;
        parts.push(']');
        closed++;
        d--;
        if (d >= 0) counters[d]++;
      }
      if (idx + 1 < n) {
        parts.push(', ');
        for (let k = 0; k < closed; k++) parts.push('[');
      }
    }
    this.text += parts.join('') + '>';
  }

  // ------------------------------------------------------------ locations

  private printLocationSpecifier(loc: Location, allowAlias: boolean): void {
    this.text += 'loc(';
    const alias = allowAlias ? this.aliasNames.get(loc) : undefined;
    if (alias) this.text += alias;
    else this.printLocationInternal(loc);
    this.text += ')';
  }

  private printNestedLocation(loc: Location): void {
    const alias = this.aliasNames.get(loc);
    if (alias) this.text += alias;
    else this.printLocationInternal(loc);
  }

  private printLocationInternal(loc: Location): void {
    if (loc instanceof UnknownLoc) this.text += 'unknown';
    else if (loc instanceof FileLineColLoc) {
      this.text += '"' + escapeString(loc.filename) + '":' + String(loc.line) + ':' + String(loc.column);
      if (loc.isRange) {
        if (loc.endLine === loc.line) this.text += ' to :' + String(loc.endColumn);
        else this.text += ' to ' + String(loc.endLine) + ':' + String(loc.endColumn);
      }
    } else if (loc instanceof NameLoc) {
      this.text += '"' + escapeString(loc.name) + '"';
      if (!(loc.child instanceof UnknownLoc)) {
        this.text += '(';
        this.printNestedLocation(loc.child);
        this.text += ')';
      }
    } else if (loc instanceof CallSiteLoc) {
      this.text += 'callsite(';
      this.printNestedLocation(loc.callee);
      this.text += ' at ';
      this.printNestedLocation(loc.caller);
      this.text += ')';
    } else if (loc instanceof FusedLoc) {
      this.text += 'fused';
      if (loc.metadata) {
        this.text += '<';
        this.printAttribute(loc.metadata);
        this.text += '>';
      }
      this.text += '[';
      loc.locations.forEach((l, i) => {
        if (i) this.text += ', ';
        this.printNestedLocation(l);
      });
      this.text += ']';
    } else if (loc instanceof OpaqueLoc) this.printNestedLocation(loc.fallback);
    else this.text += 'unknown';
  }
}

function terminatorTrait(op: Operation): import('../ir/op-definition').OpTrait {
  const def = op.definition;
  const t = def?.traits.find((x) => x.kind === 'IsTerminator');
  return t ?? NO_TRAIT;
}
const NO_TRAIT = { kind: '__none__' } as unknown as import('../ir/op-definition').OpTrait;

function toNamedList(
  attributes: Iterable<NamedAttribute> | ReadonlyMap<string, Attribute>,
  elided: readonly string[],
): NamedAttribute[] {
  const list: NamedAttribute[] = [];
  if (attributes instanceof Map) {
    // forEach: no iterator entry per attribute (this runs for most ops, often cold).
    (attributes as ReadonlyMap<string, Attribute>).forEach((value, name) => {
      if (elided.length === 0 || !elided.includes(name)) list.push({ name, value });
    });
  } else {
    for (const e of attributes as Iterable<NamedAttribute>) if (!elided.includes(e.name)) list.push(e);
  }
  return list;
}

// ---------------------------------------------------------------- convenience

/** Prints `op` (normally a module) as `mlir-opt` prints it, without the tool's final extra newline. */
export function printOperation(op: Operation, options: PrintOptions = {}): string {
  return new Printer(op.context, options).printTopLevel(op);
}

/**
 * {@link printOperation}'s text as consecutive pieces: their concatenation is exactly what
 * `printOperation(op, options)` returns. A long print (more than 1,024 ops) comes in flat
 * pieces of at least 64 Ki characters, so a caller can write it piece by piece instead of
 * copying it into one string first.
 *
 * @example
 * const fd = fs.openSync('out.mlir', 'w');
 * for (const piece of printOperationPieces(module)) fs.writeSync(fd, piece);
 * fs.writeSync(fd, '\n');
 * fs.closeSync(fd);
 */
export function printOperationPieces(op: Operation, options: PrintOptions = {}): string[] {
  return new Printer(op.context, options).printTopLevelPieces(op);
}

/** A type as MLIR prints it (no aliases). */
export function printType(type: Type): string {
  const p = new Printer(type.context, { localScope: true });
  p.printType(type);
  return p.takeText();
}

/** An attribute as MLIR prints it (no aliases). */
export function printAttribute(attr: Attribute): string {
  const p = new Printer(attr.context, { localScope: true });
  p.printAttribute(attr);
  return p.takeText();
}

/** The generic form of one op with local scope, as MLIR prints it in `see current operation` notes. */
export function printOperationForDiagnostic(op: Operation): string {
  const p = new Printer(op.context, { generic: true, localScope: true });
  const text = p.printSingle(op);
  // MLIR starts a multi-line op on its own line.
  return op.regions.length ? '\n' + text : text;
}


// Diagnostics of the IR model render types, attributes and ops through these.
setDiagnosticFormatters(printType, printAttribute, printOperationForDiagnostic);
