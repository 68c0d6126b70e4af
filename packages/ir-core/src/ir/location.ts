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
 * The context's plain locations: file name -> `line * POINT_COLUMNS + column` -> the unique
 * location (a small-integer key: no string building, no nested map per line).
 */
function pointLocations(context: MLIRContext): Map<string, Map<number, FileLineColLoc>> {
  return context.unique('l.flc-table', () => new Map<string, Map<number, FileLineColLoc>>());
}
/**
 * Columns below this (and lines below {@link POINT_LINES}) use the numeric key (exact: below
 * 2^48; a small integer for the first 16,384 lines).
 */
const POINT_COLUMNS = 65536;
const POINT_LINES = 2 ** 32;

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
      let points = files.get(filename);
      if (!points) files.set(filename, (points = new Map()));
      const key = line * POINT_COLUMNS + column;
      let loc = points.get(key);
      if (!loc) points.set(key, (loc = new FileLineColLoc(context, filename, line, column, line, column)));
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
