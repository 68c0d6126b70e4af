import type { Location } from '../ir/attribute';
import type { Block } from '../ir/block';
import { Diagnostic } from '../diagnostics/diagnostic';
import { M } from '../diagnostics/ir-messages';
import { formatType } from '../ir/format-hooks';
import type { Operation } from '../ir/operation';
import type { Region } from '../ir/region';
import type { Value } from '../ir/value';
import { getRetainedName, setRetainedName } from '../ir/value-names';
import { WalkOrder, WalkResult } from '../ir/walk';
import type { RewritePattern } from '../rewrite/pattern';
import type { RewriterListener } from '../rewrite/rewriter';
import { isConversionPattern, type ConversionPattern } from './conversion-pattern';
import { ConversionPatternRewriter, type MaterializationRecord } from './conversion-rewriter';
import type { ConversionTarget } from './conversion-target';

/** A pattern the conversion driver takes: a conversion pattern or a plain rewrite pattern. */
export type AnyConversionPattern = ConversionPattern | RewritePattern;

/** Options of {@link applyPartialConversion} / {@link applyFullConversion}. */
export interface ConversionConfig {
  /** Emit the failure diagnostics to the context's diagnostic engine (default true). */
  readonly emitDiagnostics?: boolean;
  /** How often patterns may be applied to one op (updated in place) before giving up (default 16). */
  readonly maxApplicationsPerOp?: number;
  /**
   * The most pattern applications in one conversion (default 64 per op initially nested in the
   * root, plus 1024): patterns that keep rewriting each other's results (A -> B -> A) stop
   * there and the ops left illegal are reported.
   */
  readonly maxRewrites?: number;
  /**
   * Snapshot the ops nested in the root and restore them when the conversion fails (default
   * true). With false (MLIR's `allowPatternRollback = false`), no snapshot is taken: a failed
   * conversion leaves the root as the patterns made it, for callers that discard it then (a
   * pass that fails on it). The snapshot is a whole clone of what is converted.
   */
  readonly allowPatternRollback?: boolean;
}

/** One op (or materialization) the conversion could not legalize. */
export interface ConversionFailure {
  /** The op name (`toy.add`, or `builtin.unrealized_conversion_cast`). */
  readonly opName: string;
  /** Where it is. */
  readonly location: Location;
  /** The diagnostic message (`failed to legalize operation 'toy.add'`). */
  readonly message: string;
  /** For a live materialization: where a user that keeps it live is. */
  readonly note?: { readonly message: string; readonly location: Location };
}

/** What a conversion reports. */
export interface ConversionResult {
  /** True when the conversion succeeded (the IR is converted); false: the IR is as before. */
  readonly success: boolean;
  /** Every op that could not be legalized, in IR order (empty on success). */
  readonly failures: readonly ConversionFailure[];
  /** The number of successful pattern applications (0 after a rollback). */
  readonly numRewrites: number;
}

type Mode = 'partial' | 'full';

interface IndexedPatterns {
  byRoot: Map<string, AnyConversionPattern[]>;
  anyOp: AnyConversionPattern[];
}

function indexPatterns(patterns: readonly AnyConversionPattern[]): IndexedPatterns {
  const sorted = [...patterns].sort((a, b) => b.benefit - a.benefit);
  const anyOp = sorted.filter((p) => p.rootName === null);
  const byRoot = new Map<string, AnyConversionPattern[]>();
  for (const p of sorted) {
    if (p.rootName === null) continue;
    let l = byRoot.get(p.rootName);
    if (!l) byRoot.set(p.rootName, (l = []));
    l.push(p);
  }
  if (anyOp.length > 0) for (const [k, l] of byRoot) byRoot.set(k, [...l, ...anyOp].sort((a, b) => b.benefit - a.benefit));
  return { byRoot, anyOp };
}

/** Copies the retained SSA names of `from`'s values onto the structurally identical `to`. */
function copyRetainedNames(from: Region, to: Region): void {
  const work: [Region, Region][] = [[from, to]];
  while (work.length > 0) {
    const [a, b] = work.pop()!;
    let bb: Block | null = b.firstBlock;
    for (let ba = a.firstBlock; ba && bb; ba = ba.next, bb = bb.next) {
      for (let i = 0; i < ba.numArguments; i++) {
        const n = getRetainedName(ba.getArgument(i));
        if (n) setRetainedName(bb.getArgument(i), n);
      }
      let ob: Operation | null = bb.firstOp;
      for (let oa = ba.firstOp; oa && ob; oa = oa.next, ob = ob.next) {
        for (let i = 0; i < oa.numResults; i++) {
          const n = getRetainedName(oa.getResult(i));
          if (n) setRetainedName(ob.getResult(i), n);
        }
        for (let i = 0; i < oa.numRegions; i++) work.push([oa.regions[i]!, ob.regions[i]!]);
      }
    }
  }
}

/** The driver (MLIR's `OperationConverter`), eager with a whole-conversion snapshot for rollback (unless `allowPatternRollback` is false). */
class ConversionDriver implements RewriterListener {
  readonly rewriter: ConversionPatternRewriter;
  private readonly queue: Operation[] = [];
  private readonly erased = new Set<Operation>();
  private readonly applications = new Map<Operation, number>();
  private readonly patterns: IndexedPatterns;
  private changes = 0;
  numRewrites = 0;

  constructor(
    private readonly root: Operation,
    private readonly target: ConversionTarget,
    patterns: readonly AnyConversionPattern[],
    private readonly mode: Mode,
    private readonly config: ConversionConfig,
  ) {
    this.rewriter = new ConversionPatternRewriter(root.context, this);
    this.patterns = indexPatterns(patterns);
  }

  // ------------------------------------------------------------------ listener
  notifyOperationInserted(op: Operation): void {
    if (this.rewriter.creatingMaterialization) return;
    this.changes++;
    this.enqueueTree(op);
  }
  notifyBlockInserted(): void {
    if (!this.rewriter.creatingMaterialization) this.changes++;
  }
  notifyOperationModified(): void {
    if (!this.rewriter.creatingMaterialization) this.changes++;
  }
  notifyOperationErased(op: Operation): void {
    this.changes++;
    this.erased.add(op);
  }
  notifyBlockErased(): void {
    this.changes++;
  }

  private enqueueTree(op: Operation): void {
    op.walk((o) => {
      this.queue.push(o);
      return this.target.isRecursivelyLegal(o) ? WalkResult.Skip : WalkResult.Advance;
    }, WalkOrder.PreOrder);
  }

  private isLive(op: Operation): boolean {
    if (this.erased.has(op)) return false;
    for (let p: Operation | null = op.getParentOp(); p; p = p.getParentOp()) if (p === this.root) return op.parent !== null;
    return false;
  }

  run(): ConversionResult {
    if (this.config.allowPatternRollback === false) return this.convert(undefined);
    const snapshot = this.root.clone();
    for (let i = 0; i < this.root.numRegions; i++) copyRetainedNames(this.root.regions[i]!, snapshot.regions[i]!);
    try {
      return this.convert(snapshot);
    } catch (e) {
      // An internal error (a pattern that threw): still never leave a half-converted module.
      this.restore(snapshot);
      throw e;
    }
  }

  private restore(snapshot: Operation | undefined): void {
    if (!snapshot) return;
    for (let i = 0; i < this.root.numRegions; i++) this.root.regions[i]!.takeBody(snapshot.regions[i]!);
    snapshot.dropAllReferences();
  }

  private convert(snapshot: Operation | undefined): ConversionResult {
    for (const r of this.root.regions) {
      for (let b = r.firstBlock; b; b = b.next) for (let o = b.firstOp; o; o = o.next) this.enqueueTree(o);
    }
    const maxApps = this.config.maxApplicationsPerOp ?? 16;
    const maxRewrites = this.config.maxRewrites ?? 64 * this.queue.length + 1024;
    const attempted = new Set<Operation>();
    let qi = 0;
    for (;;) {
      for (; qi < this.queue.length && this.numRewrites < maxRewrites; qi++) {
        const op = this.queue[qi]!;
        if (this.rewriter.materializationOf.has(op) || !this.isLive(op)) continue;
        if (this.target.isLegal(op)) continue;
        const n = this.applications.get(op) ?? 0;
        if (n >= maxApps) continue;
        attempted.add(op);
        if (this.applyPatterns(op)) {
          this.applications.set(op, n + 1);
          if (this.isLive(op)) this.queue.push(op); // updated in place: check it again
        }
      }
      if (this.numRewrites >= maxRewrites) break;
      // Ops a pattern built without going through the rewriter (e.g. a body filled by another
      // builder) were never queued: sweep for ops that are not legal and were never tried.
      const before = this.queue.length;
      for (const r of this.root.regions) {
        r.walk((o) => {
          if (!attempted.has(o) && !this.rewriter.materializationOf.has(o) && !this.target.isLegal(o)) this.queue.push(o);
          return this.target.isRecursivelyLegal(o) ? WalkResult.Skip : WalkResult.Advance;
        }, WalkOrder.PreOrder);
      }
      if (this.queue.length === before) break;
    }
    const live = this.resolveMaterializations();
    const failures = this.collectFailures(live);
    if (failures.length > 0) {
      if (this.config.emitDiagnostics !== false) {
        for (const f of failures) {
          const d = new Diagnostic('error', f.location, f.message);
          if (f.note) d.attachNote(f.note.message, f.note.location);
          this.root.context.diagnostics.emit(d);
        }
      }
      this.restore(snapshot);
      return { success: false, failures, numRewrites: 0 };
    }
    snapshot?.dropAllReferences();
    return { success: true, failures: [], numRewrites: this.numRewrites };
  }

  /** Tries the patterns of `op` by benefit; returns whether one applied. */
  private applyPatterns(op: Operation): boolean {
    const pats = this.patterns.byRoot.get(op.name) ?? this.patterns.anyOp;
    const rw = this.rewriter;
    for (const p of pats) {
      rw.setInsertionPoint(op);
      const before = this.changes;
      let ok: boolean;
      if (isConversionPattern(p)) {
        rw.typeConverter = p.typeConverter;
        const operands = rw.getRemappedValues(op.operands, p.typeConverter);
        if (operands === null) continue;
        ok = p.matchAndRewriteConverted(op, operands, rw);
      } else {
        rw.typeConverter = null;
        ok = p.matchAndRewrite(op, rw);
      }
      rw.typeConverter = null;
      if (ok) {
        this.numRewrites++;
        return true;
      }
      if (this.changes !== before) {
        throw new Error(`internal error: conversion pattern '${p.debugName}' changed the IR and then returned failure`);
      }
    }
    return false;
  }

  /**
   * Folds the driver's casts: unused ones are erased, `cast(cast(x : A -> B) : B -> A)` and
   * identity casts are replaced by `x`; live ones left are handed to the type converter's
   * materialization rules. Returns the casts still live.
   */
  private resolveMaterializations(): MaterializationRecord[] {
    const rw = this.rewriter;
    const recs = rw.materializations;
    const alive = (r: MaterializationRecord) => r.op.parent !== null && !this.erased.has(r.op);
    for (let changed = true; changed; ) {
      changed = false;
      for (let i = recs.length - 1; i >= 0; i--) {
        const r = recs[i]!;
        if (!alive(r)) continue;
        const cast = r.op;
        const res = cast.getResult(0);
        if (res.useEmpty) {
          rw.eraseOp(cast);
          changed = true;
          continue;
        }
        if (cast.numOperands !== 1) continue;
        const input = cast.getOperand(0);
        let repl: Value | null = null;
        if (input.type === res.type) repl = input;
        else {
          const inner = input.definingOp ? rw.materializationOf.get(input.definingOp) : undefined;
          if (inner && alive(inner) && inner.op.numOperands === 1 && inner.op.getOperand(0).type === res.type) repl = inner.op.getOperand(0);
        }
        if (repl) {
          rw.replaceAllUsesWith(res, repl);
          rw.eraseOp(cast);
          changed = true;
        }
      }
    }
    const live: MaterializationRecord[] = [];
    for (const r of recs) {
      if (!alive(r)) continue;
      const cast = r.op;
      const res = cast.getResult(0);
      let v: Value | null = null;
      if (r.converter && r.kind !== 'placeholder') {
        rw.creatingMaterialization = true;
        rw.setInsertionPoint(cast);
        const inputs = cast.operands;
        v = r.kind === 'source'
          ? r.converter.materializeSourceConversion(rw, res.type, inputs, cast.location)
          : r.converter.materializeTargetConversion(rw, res.type, inputs, cast.location);
        rw.creatingMaterialization = false;
      }
      if (v) {
        rw.replaceAllUsesWith(res, v);
        rw.eraseOp(cast);
      } else live.push(r);
    }
    return live;
  }

  /** Every op left illegal (plus, in full conversion, unknown ones and live casts), in IR order. */
  private collectFailures(live: readonly MaterializationRecord[]): ConversionFailure[] {
    const failures: ConversionFailure[] = [];
    const full = this.mode === 'full';
    const liveSet = new Set(live.map((r) => r.op));
    const placeholders = new Set(live.filter((r) => r.kind === 'placeholder').map((r) => r.op));
    for (const r of this.root.regions) {
      r.walk((op) => {
        if (liveSet.has(op)) {
          if (placeholders.has(op) || full) {
            const from = op.operands.map((v) => `'${formatType(v.type)}'`).join(', ');
            const to = op.results.map((v) => `'${formatType(v.type)}'`).join(', ');
            const user = op.getResult(0).firstUse?.owner;
            const failure: ConversionFailure = { opName: op.name, location: op.location, message: M.unresolvedMaterialization(from, to) };
            failures.push(user ? { ...failure, note: { message: M.seeLiveUser, location: user.location } } : failure);
          }
          return WalkResult.Advance;
        }
        if (this.rewriter.materializationOf.has(op)) return WalkResult.Advance;
        const legality = this.target.getOpLegality(op);
        if (legality === 'illegal') {
          failures.push({ opName: op.name, location: op.location, message: full ? M.failedToLegalize(op.name) : M.failedToLegalizeIllegal(op.name) });
        } else if (legality === 'unknown' && full) {
          failures.push({ opName: op.name, location: op.location, message: M.failedToLegalize(op.name) });
        }
        return legality === 'legal' && this.target.isRecursivelyLegal(op) ? WalkResult.Skip : WalkResult.Advance;
      }, WalkOrder.PreOrder);
    }
    return failures;
  }
}

/**
 * Converts the ops nested in `root` (not `root` itself) so that every op the `target` marks
 * illegal is rewritten (MLIR's `applyPartialConversion`); ops of unknown legality may remain.
 * Patterns are tried on every op that is not legal, by decreasing benefit; ops they create
 * are legalized in turn. Casts the driver inserted (`builtin.unrealized_conversion_cast`)
 * are folded away when both sides were converted, handed to the type converter's
 * materializations otherwise, and kept as casts if none applies.
 *
 * On failure every op left illegal is reported ("failed to legalize operation 'x.y' that was
 * explicitly marked illegal", at its location) and the IR is restored exactly as it was
 * (the ops nested in `root` are replaced by a snapshot taken before the conversion: references
 * to them held by the caller are stale after a failed conversion; changes made by patterns
 * outside `root` are not undone).
 *
 * @example
 * ```ts
 * const target = new ConversionTarget().addLegalDialect('low').addIllegalDialect('toy');
 * const r = applyPartialConversion(module, target, [lowerAdd, lowerConst]);
 * if (!r.success) pass.signalPassFailure();
 * ```
 */
export function applyPartialConversion(
  root: Operation,
  target: ConversionTarget,
  patterns: readonly AnyConversionPattern[],
  config: ConversionConfig = {},
): ConversionResult {
  return new ConversionDriver(root, target, patterns, 'partial', config).run();
}

/**
 * As {@link applyPartialConversion}, but every op nested in `root` must end up legal (ops of
 * unknown legality fail: "failed to legalize operation 'x.y'") and no driver cast may remain
 * live ("failed to legalize unresolved materialization ... that remained live after
 * conversion") (MLIR's `applyFullConversion`).
 */
export function applyFullConversion(
  root: Operation,
  target: ConversionTarget,
  patterns: readonly AnyConversionPattern[],
  config: ConversionConfig = {},
): ConversionResult {
  return new ConversionDriver(root, target, patterns, 'full', config).run();
}
