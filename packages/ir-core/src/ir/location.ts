import type { MLIRContext } from './context';
import { Attribute, Location } from './attribute';

/** `loc(unknown)`. */
export class UnknownLoc extends Location {
  private constructor(context: MLIRContext) {
    super(context);
  }
  static get(context: MLIRContext): UnknownLoc {
    return context.unique('l.unknown', () => new UnknownLoc(context));
  }
}

/*
 * Per-context tables are stored in the context's uniquer (not in module-level WeakMaps keyed by
 * the context: V8's scavenger keeps the values of such a WeakMap alive while the map is in old
 * space, so every location of a dead context would survive minor GCs until a full one).
 */

/**
 * The context's plain locations: file name -> line -> the unique location of that line (the
 * usual case: one op per line), or a map from column to location once a line has several. Lines
 * index an array and columns key a map, so every key is a small integer: no string building or
 * hashing, and no heap-number keys (a single `line * 65536 + column` key is one past line
 * 16,384).
 */
function pointLocations(context: MLIRContext): Map<string, PointLine[]> {
  return context.unique('l.flc-table', newPointTable);
}
type PointLine = FileLineColLoc | Map<number, FileLineColLoc> | undefined;
const newPointTable = (): Map<string, PointLine[]> => new Map<string, PointLine[]>();
/** Lines below this (array indices) and columns below {@link POINT_COLUMNS} use the point table. */
const POINT_LINES = 2 ** 31;
const POINT_COLUMNS = 2 ** 30;

/** The context's `loc("name")` locations (child `unknown`) by name. */
function plainNameLocations(context: MLIRContext): Map<string, NameLoc> {
  return context.unique('l.name-table', () => new Map<string, NameLoc>());
}

/**
 * `loc("file":line:col)` and MLIR 22's ranges `"file":line:col to :endCol` and
 * `"file":line:col to endLine:endCol`. A plain location has `endLine === line` and
 * `endColumn === column`.
 */
export class FileLineColLoc extends Location {
  private constructor(
    context: MLIRContext,
    readonly filename: string,
    readonly line: number,
    readonly column: number,
    readonly endLine: number,
    readonly endColumn: number,
  ) {
    super(context);
  }
  /** `"file":line:col`. */
  static get(context: MLIRContext, filename: string, line: number, column: number): FileLineColLoc {
    return FileLineColLoc.getRange(context, filename, line, column, line, column);
  }
  /** A range; `endLine`/`endColumn` default to the start. */
  static getRange(
    context: MLIRContext,
    filename: string,
    line: number,
    column: number,
    endLine: number,
    endColumn: number,
  ): FileLineColLoc {
    // Plain locations (every parsed op has one) are uniqued through a numeric key per file
    // instead of a string key that repeats the file name: no string building or hashing.
    if (endLine === line && endColumn === column && Number.isInteger(line) && Number.isInteger(column) && line >= 0 && column >= 0 && line < POINT_LINES && column < POINT_COLUMNS) {
      const files = pointLocations(context);
      let lines = files.get(filename);
      if (!lines) files.set(filename, (lines = []));
      const entry = lines[line];
      if (entry === undefined) return (lines[line] = new FileLineColLoc(context, filename, line, column, line, column));
      if (entry instanceof FileLineColLoc) {
        if (entry.column === column) return entry;
        const loc = new FileLineColLoc(context, filename, line, column, line, column);
        lines[line] = new Map<number, FileLineColLoc>([
          [entry.column, entry],
          [column, loc],
        ]);
        return loc;
      }
      let loc = entry.get(column);
      if (!loc) entry.set(column, (loc = new FileLineColLoc(context, filename, line, column, line, column)));
      return loc;
    }
    return context.unique(`l.flc:${line}:${column}:${endLine}:${endColumn}:${filename}`, () =>
      new FileLineColLoc(context, filename, line, column, endLine, endColumn),
    );
  }
  /** True for a range (end differs from start). */
  get isRange(): boolean {
    return this.endLine !== this.line || this.endColumn !== this.column;
  }
}

/** `loc("name")` or `loc("name"(child))`. */
export class NameLoc extends Location {
  private constructor(
    context: MLIRContext,
    readonly name: string,
    readonly child: Location,
  ) {
    super(context);
  }
  /** `child` defaults to `unknown` (printed as just `"name"`). */
  static get(context: MLIRContext, name: string, child?: Location): NameLoc {
    const c = child ?? UnknownLoc.get(context);
    if (c instanceof UnknownLoc) {
      // The common `loc("name")`: a map by name, no key string.
      const byName = plainNameLocations(context);
      let loc = byName.get(name);
      if (!loc) byName.set(name, (loc = new NameLoc(context, name, c)));
      return loc;
    }
    return context.unique(`l.name:${c.id}:${name}`, () => new NameLoc(context, name, c));
  }
}

/** `loc(callsite(callee at caller))`. */
export class CallSiteLoc extends Location {
  private constructor(
    context: MLIRContext,
    readonly callee: Location,
    readonly caller: Location,
  ) {
    super(context);
  }
  static get(callee: Location, caller: Location): CallSiteLoc {
    const context = callee.context;
    return context.unique(`l.call:${callee.id}:${caller.id}`, () => new CallSiteLoc(context, callee, caller));
  }
}

/** `loc(fused[a, b])` or `loc(fused<metadata>[a, b])`. */
export class FusedLoc extends Location {
  private constructor(
    context: MLIRContext,
    readonly locations: readonly Location[],
    readonly metadata: Attribute | undefined,
  ) {
    super(context);
  }
  /**
   * The fused location. Like MLIR's `FusedLoc::get`, nested fused locations with the same
   * metadata are flattened, duplicates and unknown locations dropped; a single remaining
   * location without metadata is returned as is, none gives `unknown`.
   */
  static get(context: MLIRContext, locations: readonly Location[], metadata?: Attribute): Location {
    const flat: Location[] = [];
    const seen = new Set<Location>();
    for (const loc of locations) {
      if (loc instanceof FusedLoc && loc.metadata === metadata) {
        for (const l of loc.locations) if (!seen.has(l)) (seen.add(l), flat.push(l));
      } else if (!(loc instanceof UnknownLoc) && !seen.has(loc)) {
        seen.add(loc);
        flat.push(loc);
      }
    }
    if (!metadata) {
      if (flat.length === 1) return flat[0];
      if (flat.length === 0) return UnknownLoc.get(context);
    }
    return FusedLoc.getRaw(context, flat, metadata);
  }
  /** The fused location exactly as given (no flattening), as the parser builds it. */
  static getRaw(context: MLIRContext, locations: readonly Location[], metadata?: Attribute): FusedLoc {
    return context.unique(`l.fused:${metadata ? metadata.id : ''}:${locations.map((l) => l.id).join(',')}`, () =>
      new FusedLoc(context, Object.freeze([...locations]), metadata),
    );
  }
}

/** An opaque location (a pointer-like payload plus a fallback), printed as its fallback. */
export class OpaqueLoc extends Location {
  private constructor(
    context: MLIRContext,
    readonly payload: unknown,
    readonly fallback: Location,
  ) {
    super(context);
  }
  static get(payload: unknown, fallback: Location): OpaqueLoc {
    const context = fallback.context;
    return new OpaqueLoc(context, payload, fallback);
  }
}

/** The first file:line:col found in `loc` (through names, call sites' callees and fused parts). */
export function findFileLineCol(loc: Location): FileLineColLoc | undefined {
  if (loc instanceof FileLineColLoc) return loc;
  if (loc instanceof NameLoc) return findFileLineCol(loc.child);
  if (loc instanceof CallSiteLoc) return findFileLineCol(loc.callee);
  if (loc instanceof OpaqueLoc) return findFileLineCol(loc.fallback);
  if (loc instanceof FusedLoc) {
    for (const l of loc.locations) {
      const f = findFileLineCol(l);
      if (f) return f;
    }
  }
  return undefined;
}
