import { Diagnostic, type Severity } from '../diagnostics/diagnostic';
import { M } from '../diagnostics/ir-messages';
import type { Attribute, Location, Type } from './attribute';
import type { Block } from './block';
import { cloneOperation, type CloneOptions } from './clone';
import type { MLIRContext } from './context';
import { formatOperation } from './format-hooks';
import { IRMapping } from './ir-mapping';
import type { AnyOpDefinition, OpTrait } from './op-definition';
import type { OpInterface } from './interfaces';
import { Region } from './region';
import { BlockOperand, OpOperand, OpResult, type Value } from './value';
import { walkOperation, WalkOrder, type WalkCallback, type WalkResult } from './walk';

/**
 * Everything needed to create an operation (MLIR's `OperationState`). Only `context`, `name`
 * and `location` are required.
 */
export interface OperationState {
  /** The context that owns the operation's types and attributes. */
  context: MLIRContext;
  /** Full name, `dialect.opname`. */
  name: string;
  /** Where the operation comes from. */
  location: Location;
  /** Operand values, in order. */
  operands?: readonly Value[];
  /** Result types, in order. */
  resultTypes?: readonly Type[];
  /** Inherent attributes stored as properties (printed `<{...}>` in generic form). */
  properties?: ReadonlyMap<string, Attribute> | Readonly<Record<string, Attribute>>;
  /** Discardable attributes (printed `{...}`). */
  attributes?: ReadonlyMap<string, Attribute> | Readonly<Record<string, Attribute>>;
  /** Successor blocks (terminators). */
  successors?: readonly Block[];
  /** Number of empty regions to create, or existing (detached) regions to take over. */
  regions?: number | readonly Region[];
}

/** Copies `src` into a new map, or returns `null` when it is empty (maps are allocated lazily). */
function toMap(
  src: ReadonlyMap<string, Attribute> | Readonly<Record<string, Attribute>> | undefined,
): Map<string, Attribute> | null {
  if (src === undefined) return null;
  if (src instanceof Map) {
    if (src.size === 0) return null;
    // Copied with forEach: `new Map(src)` allocates an entry array per element.
    const m = new Map<string, Attribute>();
    (src as ReadonlyMap<string, Attribute>).forEach((v, k) => m.set(k, v));
    return m;
  }
  const rec = src as Readonly<Record<string, Attribute>>;
  const keys = Object.keys(rec);
  if (keys.length === 0) return null;
  const m = new Map<string, Attribute>();
  for (const k of keys) m.set(k, rec[k]!);
  return m;
}

const EMPTY_ATTRS: ReadonlyMap<string, Attribute> = new Map();

const EMPTY_REGIONS: Region[] = [];
const EMPTY_SUCCESSORS: BlockOperand[] = [];

/**
 * Resolves `name` to a registered op definition through the dialect named by its prefix.
 * Returns `undefined` for unregistered operations.
 */
export function lookupOpDefinition(context: MLIRContext, name: string): AnyOpDefinition | undefined {
  const dot = name.indexOf('.');
  const ns = dot < 0 ? '' : name.substring(0, dot);
  const dialect = context.getDialect(ns);
  return dialect?.getOperationDefinition?.(name);
}

/**
 * An operation: the unit of the IR. It has a name (`dialect.opname`), operands, results,
 * properties (inherent attributes), discardable attributes, regions, successors and a
 * location. Operations live in an intrusive list inside a {@link Block}; all list operations
 * (insert, remove, move) are O(1).
 *
 * Create operations with {@link Operation.create} or an {@link OpBuilder}.
 */
export class Operation {
  /** The registered definition, or `undefined` for an unregistered operation. */
  readonly definition: AnyOpDefinition | undefined;
  /** The block containing this operation, or `null` when detached. */
  parent: Block | null = null;
  /** Previous operation in the parent block. */
  prev: Operation | null = null;
  /** Next operation in the parent block. */
  next: Operation | null = null;
  /** @internal Position in the block, valid when the block's order is valid. */
  orderIndex = 0;
  private props: Map<string, Attribute> | null;
  private attrs: Map<string, Attribute> | null;
  /** The results, in order. */
  readonly results: readonly OpResult[];
  /** The regions, in order (their number is fixed at creation). */
  readonly regions: readonly Region[];
  private operandStorage: OpOperand[];
  private successorStorage: BlockOperand[];

  private constructor(
    /** The owning context. */
    readonly context: MLIRContext,
    /** Full operation name, `dialect.opname`. */
    readonly name: string,
    /** The operation's location (mutable, like MLIR's `setLoc`). */
    public location: Location,
    definition: AnyOpDefinition | undefined,
    properties: Map<string, Attribute> | null,
    attributes: Map<string, Attribute> | null,
  ) {
    this.definition = definition;
    this.props = properties;
    this.attrs = attributes;
    this.results = [];
    this.regions = EMPTY_REGIONS;
    this.operandStorage = [];
    this.successorStorage = EMPTY_SUCCESSORS;
  }

  /**
   * Creates a detached operation from `state`. The definition is resolved through the
   * context's dialects; unknown names give an unregistered operation (the verifier decides
   * whether that is allowed).
   */
  static create(state: OperationState): Operation {
    return Operation.createWithMaps(state, toMap(state.properties), toMap(state.attributes));
  }

  /**
   * Like {@link create}, but the operation takes `properties` and `attributes` as they are
   * instead of copying them (null or an empty map: none): the caller gives up both maps. For
   * builders that assemble the maps themselves (`OpDefinition.build`): no second map to
   * allocate and fill per op.
   */
  static createOwningMaps(
    state: Omit<OperationState, 'properties' | 'attributes'>,
    properties: Map<string, Attribute> | null,
    attributes: Map<string, Attribute> | null,
  ): Operation {
    return Operation.createWithMaps(state, properties !== null && properties.size > 0 ? properties : null, attributes !== null && attributes.size > 0 ? attributes : null);
  }

  private static createWithMaps(state: OperationState, properties: Map<string, Attribute> | null, attributes: Map<string, Attribute> | null): Operation {
    const def = lookupOpDefinition(state.context, state.name);
    const op = new Operation(state.context, state.name, state.location, def, properties, attributes);
    const operands = state.operands;
    if (operands && operands.length > 0) {
      const storage: OpOperand[] = new Array(operands.length);
      for (let i = 0; i < operands.length; i++) storage[i] = new OpOperand(op, i, operands[i]!);
      op.operandStorage = storage;
    }
    const types = state.resultTypes;
    if (types && types.length > 0) {
      const results: OpResult[] = new Array(types.length);
      for (let i = 0; i < types.length; i++) results[i] = new OpResult(types[i]!, op, i);
      (op as { results: readonly OpResult[] }).results = results;
    }
    const succ = state.successors;
    if (succ && succ.length > 0) {
      const storage: BlockOperand[] = new Array(succ.length);
      for (let i = 0; i < succ.length; i++) storage[i] = new BlockOperand(op, i, succ[i]!);
      op.successorStorage = storage;
    }
    const regs = state.regions;
    if (typeof regs === 'number') {
      if (regs > 0) {
        const regions: Region[] = new Array(regs);
        for (let i = 0; i < regs; i++) regions[i] = new Region(op);
        (op as { regions: readonly Region[] }).regions = regions;
      }
    } else if (regs && regs.length > 0) {
      const regions: Region[] = new Array(regs.length);
      for (let i = 0; i < regs.length; i++) {
        const r = new Region(op);
        r.takeBody(regs[i]!);
        regions[i] = r;
      }
      (op as { regions: readonly Region[] }).regions = regions;
    }
    return op;
  }

  // ---------------------------------------------------------------- identity and definition

  /** True when the operation has a registered definition. */
  get isRegistered(): boolean {
    return this.definition !== undefined;
  }

  /** The dialect namespace (the part of the name before the first dot). */
  get dialectNamespace(): string {
    const dot = this.name.indexOf('.');
    return dot < 0 ? '' : this.name.substring(0, dot);
  }

  /** True when the operation's definition lists `trait`. Unregistered ops have no traits. */
  hasTrait(trait: OpTrait): boolean {
    const def = this.definition;
    return def !== undefined && def.traitSet.has(trait);
  }

  /** The implementation of `iface` for this op's definition, if it implements it. */
  getInterface<T>(iface: OpInterface<T>): T | undefined {
    const def = this.definition;
    return def === undefined ? undefined : (def.interfaceMap.get(iface) as T | undefined);
  }

  // ---------------------------------------------------------------- operands

  /** Number of operands. */
  get numOperands(): number {
    return this.operandStorage.length;
  }

  /** Operand `i`'s value. */
  getOperand(i: number): Value {
    const o = this.operandStorage[i];
    if (!o) throw new Error(`internal error: operand #${i} out of range on '${this.name}'`);
    return o.value;
  }

  /** Operand `i`'s use record. */
  getOpOperand(i: number): OpOperand {
    const o = this.operandStorage[i];
    if (!o) throw new Error(`internal error: operand #${i} out of range on '${this.name}'`);
    return o;
  }

  /** The operand uses (do not mutate the array). */
  get opOperands(): readonly OpOperand[] {
    return this.operandStorage;
  }

  /** A new array of the operand values. */
  get operands(): Value[] {
    const s = this.operandStorage;
    const out: Value[] = new Array(s.length);
    for (let i = 0; i < s.length; i++) out[i] = s[i]!.value;
    return out;
  }

  /** Makes operand `i` use `value`. */
  setOperand(i: number, value: Value): void {
    this.getOpOperand(i).set(value);
  }

  /** Replaces all operands with `values` (the count may change). */
  setOperands(values: readonly Value[]): void {
    const s = this.operandStorage;
    const common = Math.min(s.length, values.length);
    for (let i = 0; i < common; i++) s[i]!.set(values[i]!);
    for (let i = common; i < s.length; i++) s[i]!.drop();
    if (values.length < s.length) s.length = values.length;
    for (let i = common; i < values.length; i++) s.push(new OpOperand(this, i, values[i]!));
  }

  /** Inserts `values` as operands starting at position `index`. */
  insertOperands(index: number, values: readonly Value[]): void {
    const s = this.operandStorage;
    const added = values.map((v, k) => new OpOperand(this, index + k, v));
    s.splice(index, 0, ...added);
    for (let i = index + values.length; i < s.length; i++) s[i]!.index = i;
  }

  /** Erases `count` operands starting at `index`. */
  eraseOperands(index: number, count = 1): void {
    const s = this.operandStorage;
    for (let i = index; i < index + count; i++) s[i]!.drop();
    s.splice(index, count);
    for (let i = index; i < s.length; i++) s[i]!.index = i;
  }

  // ---------------------------------------------------------------- results

  /** Number of results. */
  get numResults(): number {
    return this.results.length;
  }

  /** Result `i`. */
  getResult(i: number): OpResult {
    const r = this.results[i];
    if (!r) throw new Error(`internal error: result #${i} out of range on '${this.name}'`);
    return r;
  }

  /** The result types, in order (a new array). */
  get resultTypes(): Type[] {
    return this.results.map((r) => r.type);
  }

  /** True when no result has a use. */
  get useEmpty(): boolean {
    for (const r of this.results) if (r.firstUse !== null) return false;
    return true;
  }

  /** Redirects all uses of this op's results to `values` (same count). */
  replaceAllUsesWith(values: readonly Value[]): void {
    if (values.length !== this.results.length) {
      throw new Error(`internal error: replacing ${this.results.length} results with ${values.length} values`);
    }
    for (let i = 0; i < values.length; i++) this.results[i]!.replaceAllUsesWith(values[i]!);
  }

  // ---------------------------------------------------------------- attributes and properties

  /**
   * Inherent attributes stored as properties (`<{...}>`), in insertion order (printers sort).
   * Read-only view: change them with {@link setProperty}/{@link removeProperty}.
   */
  get properties(): ReadonlyMap<string, Attribute> {
    return this.props ?? EMPTY_ATTRS;
  }
  /** Discardable attributes (`{...}`). Read-only view: use the setters to change them. */
  get attributes(): ReadonlyMap<string, Attribute> {
    return this.attrs ?? EMPTY_ATTRS;
  }
  /** The property (inherent attribute) `name`. */
  getProperty(name: string): Attribute | undefined {
    const p = this.props;
    return p === null ? undefined : p.get(name);
  }
  /** Sets property `name`. */
  setProperty(name: string, value: Attribute): void {
    (this.props ??= new Map()).set(name, value);
  }
  /** Removes property `name`; returns whether it existed. */
  removeProperty(name: string): boolean {
    return this.props !== null && this.props.delete(name);
  }
  /** The discardable attribute `name`. */
  getDiscardableAttr(name: string): Attribute | undefined {
    const a = this.attrs;
    return a === null ? undefined : a.get(name);
  }
  /** Sets discardable attribute `name`. */
  setDiscardableAttr(name: string, value: Attribute): void {
    (this.attrs ??= new Map()).set(name, value);
  }
  /** Removes discardable attribute `name`; returns whether it existed. */
  removeDiscardableAttr(name: string): boolean {
    return this.attrs !== null && this.attrs.delete(name);
  }
  /** An attribute by name: the property if there is one, otherwise the discardable one. */
  getAttr(name: string): Attribute | undefined {
    const p = this.props;
    const v = p === null ? undefined : p.get(name);
    if (v !== undefined) return v;
    const a = this.attrs;
    return a === null ? undefined : a.get(name);
  }
  /**
   * Sets an attribute by name: as a property when the definition declares `name` inherent
   * (or a property of that name already exists), otherwise as a discardable attribute.
   */
  setAttr(name: string, value: Attribute): void {
    const def = this.definition;
    if ((def && def.inherentAttrNames.has(name)) || (this.props !== null && this.props.has(name))) this.setProperty(name, value);
    else this.setDiscardableAttr(name, value);
  }
  /** Removes an attribute by name from properties or discardable attributes. */
  removeAttr(name: string): boolean {
    return this.removeProperty(name) || this.removeDiscardableAttr(name);
  }

  // ---------------------------------------------------------------- regions and successors

  /** Number of regions. */
  get numRegions(): number {
    return this.regions.length;
  }
  /** Region `i`. */
  getRegion(i: number): Region {
    const r = this.regions[i];
    if (!r) throw new Error(`internal error: region #${i} out of range on '${this.name}'`);
    return r;
  }
  /** Number of successors. */
  get numSuccessors(): number {
    return this.successorStorage.length;
  }
  /** Successor `i`. */
  getSuccessor(i: number): Block {
    const s = this.successorStorage[i];
    if (!s) throw new Error(`internal error: successor #${i} out of range on '${this.name}'`);
    return s.block;
  }
  /** The successor uses (do not mutate the array). */
  get blockOperands(): readonly BlockOperand[] {
    return this.successorStorage;
  }
  /** The successor blocks (a new array). */
  get successors(): Block[] {
    return this.successorStorage.map((s) => s.block);
  }
  /** Makes successor `i` refer to `block`. */
  setSuccessor(i: number, block: Block): void {
    const s = this.successorStorage[i];
    if (!s) throw new Error(`internal error: successor #${i} out of range on '${this.name}'`);
    s.set(block);
  }

  // ---------------------------------------------------------------- structure

  /** The region containing this operation. */
  get parentRegion(): Region | null {
    const b = this.parent;
    return b ? b.parent : null;
  }

  /** The closest enclosing operation, or `null` at top level. */
  getParentOp(): Operation | null {
    const b = this.parent;
    if (!b) return null;
    const r = b.parent;
    return r ? r.parentOp : null;
  }

  /** The closest enclosing operation named `name`, if any. */
  getParentOfName(name: string): Operation | null {
    for (let p = this.getParentOp(); p; p = p.getParentOp()) if (p.name === name) return p;
    return null;
  }

  /** True when `this` is `other` or contains it (walks up from `other`). */
  isAncestor(other: Operation): boolean {
    for (let p: Operation | null = other; p; p = p.getParentOp()) if (p === this) return true;
    return false;
  }

  /** True when `this` contains `other` and is not `other`. */
  isProperAncestor(other: Operation): boolean {
    return other !== this && this.isAncestor(other);
  }

  /**
   * True when `this` comes before `other` in the same block. O(1) amortized (the block keeps
   * lazily recomputed order indices).
   */
  isBeforeInBlock(other: Operation): boolean {
    const b = this.parent;
    if (!b || b !== other.parent) throw new Error('internal error: isBeforeInBlock on ops of different blocks');
    b.ensureOrder();
    return this.orderIndex < other.orderIndex;
  }

  /** Unlinks this operation from its block (it stays alive, uses included). */
  remove(): void {
    const b = this.parent;
    if (b) b.removeOp(this);
  }

  /** Moves this operation right before `other` (possibly into another block). */
  moveBefore(other: Operation): void {
    if (other === this) return;
    const b = other.parent;
    if (!b) throw new Error('internal error: moveBefore a detached operation');
    this.remove();
    b.insertBefore(this, other);
  }

  /** Moves this operation right after `other`. */
  moveAfter(other: Operation): void {
    if (other === this) return;
    const b = other.parent;
    if (!b) throw new Error('internal error: moveAfter a detached operation');
    this.remove();
    b.insertAfter(this, other);
  }

  /**
   * Drops every operand and successor reference held by this op and the ops nested in it
   * (iteratively, safe for deep nesting). Use before erasing a group of ops that use each
   * other.
   */
  dropAllReferences(): void {
    walkOperation(this, dropRefs, WalkOrder.PreOrder);
  }

  /**
   * Unlinks and destroys this operation and everything nested in it. Its results must have no
   * uses left outside (an internal error otherwise, like MLIR's assertion).
   */
  erase(): void {
    this.dropAllReferences();
    for (const r of this.results) {
      if (r.firstUse !== null) {
        throw new Error(`internal error: erasing '${this.name}' whose result #${r.index} still has uses`);
      }
    }
    this.remove();
  }

  /**
   * Deep-copies this operation (regions included, iteratively). Operands defined outside are
   * looked up in `mapping` (unmapped ones are kept); the mapping records every cloned value,
   * block and op.
   */
  clone(mapping: IRMapping = new IRMapping(), options?: CloneOptions): Operation {
    return cloneOperation(this, mapping, options);
  }

  /** Copies this op without its regions' contents (the copy has the same number of empty regions). */
  cloneWithoutRegions(mapping: IRMapping = new IRMapping()): Operation {
    return cloneOperation(this, mapping, { cloneRegions: false });
  }

  /**
   * Walks this op and everything nested in it, iteratively (depth-safe). The callback may
   * return `WalkResult.Skip` (pre-order: skip the op's regions) or `WalkResult.Interrupt`.
   * The visited op may be erased by the callback in post-order.
   * @returns `WalkResult.Interrupt` if interrupted, else `WalkResult.Advance`.
   */
  walk(callback: WalkCallback, order: WalkOrder = WalkOrder.PostOrder): WalkResult {
    return walkOperation(this, callback, order);
  }

  // ---------------------------------------------------------------- diagnostics

  /** Builds (without emitting) a diagnostic at this op's location. */
  createDiagnostic(severity: Severity, message: string): Diagnostic {
    const d = new Diagnostic(severity, this.location, message);
    const ctx = this.context;
    if (ctx.printOpOnDiagnostic && severity !== 'note') {
      d.attachNote(M.seeCurrentOperation(formatOperation(this)));
    }
    return d;
  }

  /**
   * Emits an error at this op's location and returns it. The diagnostic is delivered at once;
   * notes attached to the returned object afterwards are seen by handlers that keep it (as
   * every collecting/rendering-at-end handler does).
   */
  emitError(message: string): Diagnostic {
    return this.emit('error', message);
  }
  /** Emits an error prefixed with `'<name>' op ` (MLIR's `emitOpError`). */
  emitOpError(message: string): Diagnostic {
    return this.emit('error', M.opPrefix(this.name) + message);
  }
  /** Emits a warning at this op's location. */
  emitWarning(message: string): Diagnostic {
    return this.emit('warning', message);
  }
  /** Emits a remark at this op's location. */
  emitRemark(message: string): Diagnostic {
    return this.emit('remark', message);
  }

  private emit(severity: Severity, message: string): Diagnostic {
    const d = this.createDiagnostic(severity, message);
    this.context.diagnostics.emit(d);
    return d;
  }

  // ---------------------------------------------------------------- internal

  /** @internal Replaces the successor storage (used by clone). */
  setSuccessorsInternal(blocks: readonly Block[]): void {
    const had = this.successorStorage.length !== 0;
    for (const s of this.successorStorage) s.drop();
    const storage: BlockOperand[] = new Array(blocks.length);
    for (let i = 0; i < blocks.length; i++) storage[i] = new BlockOperand(this, i, blocks[i]!);
    this.successorStorage = storage;
    // The block counts its ops with successors (see Block.numOpsWithSuccessors).
    const has = blocks.length !== 0;
    if (had !== has && this.parent !== null) this.parent.noteSuccessorsChanged(has ? 1 : -1);
  }

  /** @internal Drops operand and successor references of this op only. */
  dropOwnReferences(): void {
    for (const o of this.operandStorage) o.drop();
    for (const s of this.successorStorage) s.drop();
  }
}

function dropRefs(op: Operation): WalkResult {
  op.dropOwnReferences();
  return 0 as WalkResult;
}
