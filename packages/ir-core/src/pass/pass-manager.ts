import { Diagnostic } from '../diagnostics/diagnostic';
import { M } from '../diagnostics/ir-messages';
import type { MLIRContext } from '../ir/context';
import type { Operation } from '../ir/operation';
import { verify } from '../ir/verifier';
import { IRPrinting, PassTiming, type IRPrintingConfig, type PassInstrumentation } from './instrumentation';
import { AnalysisManager, PreservedAnalyses } from './analysis-manager';
import type { Pass, PassOptionValue } from './pass';
import { PassContext, type PassContextKey } from './pass-context';

/** The anchor meaning "any operation" (`any(...)` in textual pipelines). */
export const ANY_OP = 'any';

function formatOptionValue(v: PassOptionValue): string {
  if (Array.isArray(v)) return (v as readonly (number | string)[]).join(',');
  const s = String(v);
  return /[\s{},=]/.test(s) ? `{${s}}` : s;
}

/** Prints `pass` as a pipeline element: `name{opt=value ...}` with all options, sorted by name. */
export function printPassAsTextual(pass: Pass): string {
  if (pass.optionSpecs.length === 0) return pass.argument;
  const opts = [...pass.optionSpecs]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((o) => `${o.name}=${formatOptionValue(pass.getOption(o.name))}`);
  return `${pass.argument}{${opts.join(' ')}}`;
}

/**
 * A list of passes and nested pass managers anchored on an op name (MLIR's `OpPassManager`).
 * Nested managers run on the operations immediately nested in the regions of the op the
 * parent runs on, when their name matches the anchor (`any` matches every op).
 */
export class OpPassManager {
  /** Passes and nested managers, in order. */
  readonly elements: (Pass | OpPassManager)[] = [];

  constructor(
    /** The op name this manager runs on, or {@link ANY_OP}. */
    readonly anchor: string,
  ) {}

  /**
   * Appends a pass. A pass restricted to another op name is an internal error (textual
   * pipelines are checked with a diagnostic before reaching here).
   */
  addPass(pass: Pass): this {
    if (pass.opName !== null && this.anchor !== ANY_OP && pass.opName !== this.anchor) {
      throw new Error(
        `internal error: Can't add pass '${pass.name}' restricted to '${pass.opName}' on a PassManager intended to run on '${this.anchor}', did you intend to nest?`,
      );
    }
    this.elements.push(pass);
    return this;
  }

  /** Appends a nested manager for ops named `anchor` and returns it. */
  nest(anchor: string): OpPassManager {
    const pm = new OpPassManager(anchor);
    this.elements.push(pm);
    return pm;
  }

  /** The number of elements. */
  get size(): number {
    return this.elements.length;
  }

  /** The textual pipeline, e.g. `builtin.module(func.func(cse,canonicalize{...}))`. */
  printAsTextualPipeline(): string {
    const parts = this.elements.map((e) => (e instanceof OpPassManager ? e.printAsTextualPipeline() : printPassAsTextual(e)));
    return `${this.anchor}(${parts.join(',')})`;
  }

  /** Every pass, depth first. */
  get allPasses(): Pass[] {
    const out: Pass[] = [];
    for (const e of this.elements) {
      if (e instanceof OpPassManager) out.push(...e.allPasses);
      else out.push(e);
    }
    return out;
  }
}

/** Result of {@link PassManager.run}. */
export interface PassManagerResult {
  /** True when every pass succeeded (and verification passed, if enabled). */
  readonly success: boolean;
  /** The pass that failed (or after which verification failed). */
  readonly failedPass?: Pass;
  /**
   * With {@link PassManager.enableCrashReproducer}: the reproducer text (a
   * `// configuration: -pass-pipeline='...'` header and the IR before the failing pass).
   */
  readonly reproducer?: string;
}

/**
 * The top-level pass manager (MLIR's `PassManager`): an {@link OpPassManager} plus
 * instrumentation (timing, IR printing, custom), verification after each pass, statistics and
 * a crash-reproducer-style dump on failure. Single-threaded and deterministic.
 */
export class PassManager extends OpPassManager {
  private readonly instrumentations: PassInstrumentation[] = [];
  private verifyEach = true;
  private timing: PassTiming | null = null;
  private reproducerPrinter: ((op: Operation) => string) | null = null;
  private lastGoodSnapshot: Operation | null = null;
  private root: Operation | null = null;
  private readonly passContext = new PassContext();
  private analyses: AnalysisManager = new AnalysisManager();

  constructor(
    /** The context diagnostics go to. */
    readonly context: MLIRContext,
    anchor = 'builtin.module',
  ) {
    super(anchor);
  }

  /**
   * Stores `value` under `key` for every pass this manager runs (read in a pass with
   * `this.getContext(key)`). The compiler stores the target machine under
   * `definePassContextKey<HardwareConfig>('raptor.target')`.
   */
  setContext<T>(key: PassContextKey<T>, value: T): this {
    this.passContext.set(key, value);
    return this;
  }

  /** The value stored under `key`, or undefined. */
  getContext<T>(key: PassContextKey<T>): T | undefined {
    return this.passContext.get(key);
  }

  /**
   * The analysis manager of the current (or last) run: analyses cached per operation while
   * the pipeline runs (a fresh one is created by each {@link run}).
   */
  get analysisManager(): AnalysisManager {
    return this.analyses;
  }

  /** Adds an instrumentation. */
  addInstrumentation(instrumentation: PassInstrumentation): this {
    this.instrumentations.push(instrumentation);
    return this;
  }

  /**
   * Verifies the IR after every pass (default true, like `mlir-opt`'s `-verify-each`), except
   * after a pass that marked every analysis preserved (it left the IR unchanged), as MLIR does.
   */
  enableVerifier(enabled = true): this {
    this.verifyEach = enabled;
    return this;
  }

  /** Times pipelines and passes; read the report with {@link timingReport}. */
  enableTiming(timing: PassTiming = new PassTiming()): this {
    this.timing = timing;
    this.instrumentations.push(timing);
    return this;
  }

  /** The timing report of the last run (empty when timing is off). */
  timingReport(): string {
    return this.timing ? this.timing.report() : '';
  }

  /** Prints IR before/after passes (see {@link IRPrintingConfig}). */
  enableIRPrinting(config: IRPrintingConfig): this {
    this.instrumentations.push(new IRPrinting(config));
    return this;
  }

  /**
   * On failure, builds a reproducer: the pipeline as `// configuration: -pass-pipeline='...'`
   * and the top-level op as it was before the failing pass, rendered with `print`. (Costs a
   * clone of the IR before each pass.)
   */
  enableCrashReproducer(print: (op: Operation) => string): this {
    this.reproducerPrinter = print;
    return this;
  }

  /** The statistics report (MLIR's `-mlir-pass-statistics` list form). */
  statisticsReport(): string {
    const rule = '===' + '-'.repeat(73) + '===';
    const lines = [rule, '                         ... Pass statistics report ...', rule];
    const visit = (pm: OpPassManager, depth: number): void => {
      for (const e of pm.elements) {
        if (e instanceof OpPassManager) {
          lines.push(`${'  '.repeat(depth)}'${e.anchor}' Pipeline`);
          visit(e, depth + 1);
        } else {
          lines.push(`${'  '.repeat(depth)}${e.name}`);
          for (const s of e.statistics) lines.push(`${'  '.repeat(depth + 1)}(S) ${s.value} ${s.name} - ${s.description}`);
        }
      }
    };
    visit(this, 0);
    return lines.join('\n') + '\n';
  }

  /**
   * Runs the pipeline on `op` (whose name must match the anchor unless it is `any`). Stops at
   * the first failing pass; returns the outcome (never throws for bad IR or failing passes).
   */
  run(op: Operation): PassManagerResult {
    if (this.anchor !== ANY_OP && op.name !== this.anchor) {
      this.context.diagnostics.emit(
        new Diagnostic('error', op.location, `can't run '${this.anchor}' pass manager on '${op.name}' op`),
      );
      return { success: false };
    }
    this.root = op;
    this.analyses = new AnalysisManager();
    this.timing?.start();
    let failed: Pass | undefined;
    try {
      failed = this.runPipeline(this, op);
    } finally {
      this.timing?.stop();
    }
    let reproducer: string | undefined;
    if (failed && this.reproducerPrinter && this.lastGoodSnapshot) {
      const flags = this.verifyEach ? ' -verify-each' : '';
      reproducer = `// configuration: -pass-pipeline='${this.printAsTextualPipeline()}'${flags}\n${this.reproducerPrinter(this.lastGoodSnapshot)}\n`;
    }
    this.lastGoodSnapshot = null;
    this.root = null;
    return failed ? (reproducer !== undefined ? { success: false, failedPass: failed, reproducer } : { success: false, failedPass: failed }) : { success: true };
  }

  /** Runs `pm` on `op`; returns the failing pass or undefined. */
  private runPipeline(pm: OpPassManager, op: Operation): Pass | undefined {
    for (const e of pm.elements) {
      if (e instanceof OpPassManager) {
        const targets: Operation[] = [];
        for (const r of op.regions) {
          for (let b = r.firstBlock; b; b = b.next) {
            for (let o = b.firstOp; o; o = o.next) if (e.anchor === ANY_OP || o.name === e.anchor) targets.push(o);
          }
        }
        for (const t of targets) {
          for (const i of this.instrumentations) i.runBeforePipeline?.(e.anchor, t);
          const f = this.runPipeline(e, t);
          for (const i of this.instrumentations) i.runAfterPipeline?.(e.anchor, t);
          if (f) return f;
        }
        continue;
      }
      if (!e.canScheduleOn(op)) {
        this.context.diagnostics.emit(new Diagnostic('error', op.location, M.passAnchorMismatch(e.argument, e.opName ?? ANY_OP, op.name)));
        return e;
      }
      if (this.reproducerPrinter && this.root) this.lastGoodSnapshot = this.root.clone();
      for (const i of this.instrumentations) i.runBeforePass?.(e, op);
      const preserved = new PreservedAnalyses();
      const ok = e.run(op, this.passContext, this.analyses, preserved);
      this.analyses.invalidate(op, ok ? preserved : new PreservedAnalyses());
      if (!ok) {
        for (const i of this.instrumentations) i.runAfterPassFailed?.(e, op);
        return e;
      }
      // As MLIR does, a pass that preserved every analysis left the IR as the last verification
      // saw it: verifying again would only cost time (checking passes on large modules).
      if (this.verifyEach && !preserved.isAll && !verify(op)) {
        for (const i of this.instrumentations) i.runAfterPassFailed?.(e, op);
        return e;
      }
      for (const i of this.instrumentations) i.runAfterPass?.(e, op);
    }
    return undefined;
  }
}
