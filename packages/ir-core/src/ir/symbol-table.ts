import { M } from '../diagnostics/ir-messages';
import type { Location } from './attribute';
import { StringAttr, SymbolRefAttr } from './builtin-attributes';
import type { Operation } from './operation';

/** The attribute holding a symbol's name. */
export const SYMBOL_NAME_ATTR = 'sym_name';
/** The attribute holding a symbol's visibility. */
export const SYMBOL_VISIBILITY_ATTR = 'sym_visibility';

/** The symbol name of `op` (its `sym_name` string), if it has one. */
export function getSymbolName(op: Operation): string | undefined {
  const a = op.getAttr(SYMBOL_NAME_ATTR);
  return a instanceof StringAttr ? a.value : undefined;
}

/** The symbol visibility of `op` (`public` when absent). */
export function getSymbolVisibility(op: Operation): 'public' | 'private' | 'nested' {
  const a = op.getAttr(SYMBOL_VISIBILITY_ATTR);
  if (a instanceof StringAttr && (a.value === 'private' || a.value === 'nested')) return a.value;
  return 'public';
}

function isSymbolTableOp(op: Operation): boolean {
  const def = op.definition;
  return def !== undefined && def.findTrait('SymbolTable') !== undefined;
}

/**
 * The symbols defined directly in a symbol-table op's single block, by name (MLIR's
 * `SymbolTable`). Building it is O(ops in the block); lookups are O(1). The table does not
 * follow later IR edits: rebuild it, or use {@link insert}/{@link remove}.
 */
export class SymbolTable {
  private readonly symbols = new Map<string, Operation>();

  constructor(
    /** The op owning the table (it should have the `SymbolTable` trait). */
    readonly op: Operation,
  ) {
    const region = op.regions[0];
    const block = region?.firstBlock;
    if (!block) return;
    for (let o = block.firstOp; o; o = o.next) {
      const name = getSymbolName(o);
      if (name !== undefined && !this.symbols.has(name)) this.symbols.set(name, o);
    }
  }

  /** The symbol named `name` in this table. */
  lookup(name: string): Operation | undefined {
    return this.symbols.get(name);
  }

  /** Records `symbol` (already inserted in the table's block) under its name. */
  insert(symbol: Operation): void {
    const name = getSymbolName(symbol);
    if (name !== undefined) this.symbols.set(name, symbol);
  }

  /** Forgets `symbol`. */
  remove(symbol: Operation): void {
    const name = getSymbolName(symbol);
    if (name !== undefined && this.symbols.get(name) === symbol) this.symbols.delete(name);
  }

  /** Names in the table, in block order. */
  get names(): string[] {
    return [...this.symbols.keys()];
  }

  /**
   * Looks up `ref` (a name, or a possibly nested `@a::@b` reference) in the symbol table
   * defined by `tableOp`, scanning its block (no cached table).
   */
  static lookupSymbolIn(tableOp: Operation, ref: string | SymbolRefAttr): Operation | undefined {
    const path = typeof ref === 'string' ? [ref] : [ref.root, ...ref.nested];
    let cur: Operation | undefined = tableOp;
    for (const name of path) {
      if (!cur) return undefined;
      const block = cur.regions[0]?.firstBlock;
      if (!block) return undefined;
      let found: Operation | undefined;
      for (let o = block.firstOp; o; o = o.next) {
        if (getSymbolName(o) === name) {
          found = o;
          break;
        }
      }
      cur = found;
    }
    return cur;
  }

  /** The closest ancestor of `op` (or `op`) that defines a symbol table. */
  static getNearestSymbolTable(op: Operation): Operation | null {
    for (let p: Operation | null = op; p; p = p.getParentOp()) if (isSymbolTableOp(p)) return p;
    return null;
  }

  /**
   * Resolves `ref` from `from`: looks it up in the nearest enclosing symbol table; for a flat
   * reference, continues outwards through enclosing tables (MLIR's
   * `lookupNearestSymbolFrom` semantics for the nearest table, then parents).
   */
  static lookupNearestSymbolFrom(from: Operation, ref: string | SymbolRefAttr): Operation | undefined {
    let table = SymbolTable.getNearestSymbolTable(from.getParentOp() ?? from);
    while (table) {
      const found = SymbolTable.lookupSymbolIn(table, ref);
      if (found) return found;
      const parent = table.getParentOp();
      table = parent ? SymbolTable.getNearestSymbolTable(parent) : null;
    }
    return undefined;
  }
}

/** Verifier of the `SymbolTable` trait: one region, one block, unique symbol names. */
export function verifySymbolTableOp(op: Operation): boolean {
  if (op.numRegions !== 1) {
    op.emitOpError(M.symbolTableOneRegion);
    return false;
  }
  const region = op.regions[0]!;
  if (!region.hasOneBlock) {
    op.emitOpError(M.symbolTableOneBlock);
    return false;
  }
  const seen = new Map<string, Location>();
  for (let o = region.firstBlock!.firstOp; o; o = o.next) {
    const a = o.getAttr(SYMBOL_NAME_ATTR);
    if (!(a instanceof StringAttr)) continue;
    const prev = seen.get(a.value);
    if (prev !== undefined) {
      o.emitError(M.redefinitionOfSymbol(a.value)).attachNote(M.seeExistingSymbol, prev);
      return false;
    }
    seen.set(a.value, o.location);
  }
  return true;
}
