import { Diagnostic } from '../diagnostics/diagnostic';
import { M } from '../diagnostics/ir-messages';
import type { Block } from '../ir/block';
import { SymbolRefAttr } from '../ir/builtin-attributes';
import { CallableOpInterface } from '../ir/core-interfaces';
import type { Operation } from '../ir/operation';
import type { Region } from '../ir/region';
import { SymbolTable } from '../ir/symbol-table';
import type { Value } from '../ir/value';
import type { RuntimeValue } from './runtime-value';

/** A terminator's request to continue at `target` with `args` bound to its arguments. */
export class Branch {
  constructor(
    readonly target: Block,
    readonly args: readonly RuntimeValue[],
  ) {}
}

/** A terminator's request to leave the region, yielding `values` to the parent op. */
export class Yield {
  constructor(readonly values: readonly RuntimeValue[]) {}
}

/** A failed execution: the diagnostic names the op that failed and why. */
export class ExecutionFailure {
  constructor(
    readonly diagnostic: Diagnostic,
    readonly op: Operation,
  ) {}
}

/** What a rule returns: result values (one per op result), a branch, a yield or a failure. */
export type RuleResult = readonly RuntimeValue[] | Branch | Yield | ExecutionFailure;

/**
 * How one op executes: receives the op and its operand values; returns one value per result,
 * or a {@link Branch}/{@link Yield} for terminators, or `ctx.fail(...)`. Rules may run nested
 * regions with `ctx.runRegion` and call symbols with `ctx.call`.
 */
export type InterpreterRule = (ctx: ExecutionContext, op: Operation, operands: readonly RuntimeValue[]) => RuleResult;

/** Op name -> rule, filled by dialects (`registry.register('arith.addi', rule)`). */
export class InterpreterRegistry {
  private readonly rules = new Map<string, InterpreterRule>();

  /** Registers the rule for `opName` (replacing an earlier one). */
  register(opName: string, rule: InterpreterRule): this {
    this.rules.set(opName, rule);
    return this;
  }

  /** Registers several rules at once. */
  registerAll(rules: Readonly<Record<string, InterpreterRule>>): this {
    for (const k of Object.keys(rules)) this.rules.set(k, rules[k]!);
    return this;
  }

  /** The rule for `opName`. */
  lookup(opName: string): InterpreterRule | undefined {
    return this.rules.get(opName);
  }

  /** True when `opName` has a rule. */
  has(opName: string): boolean {
    return this.rules.has(opName);
  }
}

/** Options of the {@link Interpreter}. */
export interface InterpreterOptions {
  /** Maximum number of executed ops before failing (default 100,000,000). */
  maxSteps?: number;
  /** Maximum call depth (default 1,000). */
  maxCallDepth?: number;
}

/** Result of running a function or region. */
export type RunResult =
  | { readonly ok: true; readonly values: readonly RuntimeValue[] }
  | { readonly ok: false; readonly diagnostic: Diagnostic; readonly op: Operation };

/** What rules see: the interpreter's services for the op being executed. */
export interface ExecutionContext {
  /** The interpreter (for state that dialects keep, see {@link Interpreter.state}). */
  readonly interpreter: Interpreter;
  /** Builds a failure at `op` with `message` (return it from the rule). */
  fail(op: Operation, message: string): ExecutionFailure;
  /** Runs `region` with entry arguments `args`; returns the yielded values or a failure. */
  runRegion(region: Region, args: readonly RuntimeValue[]): readonly RuntimeValue[] | ExecutionFailure;
  /** Calls the symbol `callee` (resolved from `from`) with `args`. */
  call(from: Operation, callee: string | SymbolRefAttr, args: readonly RuntimeValue[]): readonly RuntimeValue[] | ExecutionFailure;
  /** The runtime value bound to `value` (values defined outside the running region included). */
  lookup(value: Value): RuntimeValue | undefined;
}

/**
 * Executes IR with registered rules (one per op name). Values live in an environment keyed by
 * SSA value; blocks run op by op, terminators branch between blocks or yield out of the
 * region; calls resolve symbols through the nearest symbol table. Any problem (missing rule,
 * rule error, exception inside a rule, step limit) ends the run with a diagnostic at the
 * failing op's location; nothing is thrown to the caller.
 */
export class Interpreter implements ExecutionContext {
  private readonly env = new Map<Value, RuntimeValue>();
  private steps = 0;
  private callDepth = 0;
  private readonly maxSteps: number;
  private readonly maxCallDepth: number;
  /** Per-run state dialects may keep (keyed by their own objects). */
  readonly state = new Map<unknown, unknown>();

  constructor(
    /** The rules. */
    readonly registry: InterpreterRegistry,
    options: InterpreterOptions = {},
  ) {
    this.maxSteps = options.maxSteps ?? 100_000_000;
    this.maxCallDepth = options.maxCallDepth ?? 1000;
  }

  /** @inheritDoc */
  get interpreter(): Interpreter {
    return this;
  }

  /** Number of ops executed so far. */
  get executedOps(): number {
    return this.steps;
  }

  /**
   * Runs the function-like symbol `name` found in `symbolTableOp` (e.g. a module) with
   * `args`.
   */
  runFunction(symbolTableOp: Operation, name: string, args: readonly RuntimeValue[]): RunResult {
    const callee = SymbolTable.lookupSymbolIn(symbolTableOp, name);
    if (!callee) {
      const d = new Diagnostic('error', symbolTableOp.location, M.interpreterSymbolNotFound(name));
      return { ok: false, diagnostic: d, op: symbolTableOp };
    }
    return this.toRunResult(this.invoke(symbolTableOp, callee, args));
  }

  /** Runs `region` with entry arguments `args`. */
  run(region: Region, args: readonly RuntimeValue[]): RunResult {
    return this.toRunResult(this.runRegion(region, args));
  }

  private toRunResult(r: readonly RuntimeValue[] | ExecutionFailure): RunResult {
    if (r instanceof ExecutionFailure) return { ok: false, diagnostic: r.diagnostic, op: r.op };
    return { ok: true, values: r };
  }

  /** @inheritDoc */
  fail(op: Operation, message: string): ExecutionFailure {
    return new ExecutionFailure(new Diagnostic('error', op.location, message), op);
  }

  /** @inheritDoc */
  lookup(value: Value): RuntimeValue | undefined {
    return this.env.get(value);
  }

  /** @inheritDoc */
  call(from: Operation, callee: string | SymbolRefAttr, args: readonly RuntimeValue[]): readonly RuntimeValue[] | ExecutionFailure {
    const target = SymbolTable.lookupNearestSymbolFrom(from, callee);
    if (!target) {
      const name = typeof callee === 'string' ? callee : [callee.root, ...callee.nested].join('::@');
      return this.fail(from, M.interpreterSymbolNotFound(name));
    }
    return this.invoke(from, target, args);
  }

  private invoke(from: Operation, callee: Operation, args: readonly RuntimeValue[]): readonly RuntimeValue[] | ExecutionFailure {
    const callable = callee.getInterface(CallableOpInterface);
    const region = callable ? callable.getCallableRegion(callee) : (callee.regions[0] ?? null);
    if (!region || region.empty) return this.fail(from, M.interpreterFailure(callee.name, 'callee has no body'));
    if (this.callDepth >= this.maxCallDepth) {
      return this.fail(from, M.interpreterFailure(from.name, `call depth limit of ${this.maxCallDepth} exceeded`));
    }
    this.callDepth++;
    try {
      return this.runRegion(region, args);
    } finally {
      this.callDepth--;
    }
  }

  /** @inheritDoc */
  runRegion(region: Region, args: readonly RuntimeValue[]): readonly RuntimeValue[] | ExecutionFailure {
    let block = region.firstBlock;
    if (!block) return [];
    let blockArgs = args;
    const env = this.env;
    const registry = this.registry;
    for (;;) {
      const bargs = block.arguments;
      if (bargs.length !== blockArgs.length) {
        const owner = region.parentOp ?? block.firstOp!;
        return this.fail(owner, M.interpreterFailure(owner.name, `block expects ${bargs.length} arguments, got ${blockArgs.length}`));
      }
      for (let i = 0; i < bargs.length; i++) env.set(bargs[i]!, blockArgs[i]!);
      let next: Branch | null = null;
      for (let op = block.firstOp; op; op = op.next) {
        if (++this.steps > this.maxSteps) return this.fail(op, M.interpreterStepLimit(this.maxSteps));
        const rule = registry.lookup(op.name);
        if (!rule) return this.fail(op, M.noInterpreterRule(op.name));
        const n = op.numOperands;
        const operands: RuntimeValue[] = new Array(n);
        for (let i = 0; i < n; i++) {
          const v = env.get(op.getOperand(i));
          if (v === undefined) return this.fail(op, M.interpreterFailure(op.name, `operand #${i} has no value`));
          operands[i] = v;
        }
        let r: RuleResult;
        try {
          r = rule(this, op, operands);
        } catch (e) {
          const msg = e instanceof Error ? e.message : String(e);
          return this.fail(op, M.interpreterFailure(op.name, msg));
        }
        if (r instanceof ExecutionFailure) return r;
        if (r instanceof Yield) return r.values;
        if (r instanceof Branch) {
          next = r;
          break;
        }
        const results = op.results;
        if (r.length !== results.length) {
          return this.fail(op, M.interpreterFailure(op.name, `rule produced ${r.length} values for ${results.length} results`));
        }
        for (let i = 0; i < results.length; i++) env.set(results[i]!, r[i]!);
      }
      if (!next) {
        // A block without a yielding terminator (e.g. a NoTerminator region): no values.
        return [];
      }
      if (next.target.parent !== region) {
        const owner = block.lastOp!;
        return this.fail(owner, M.interpreterFailure(owner.name, 'branch to a block of another region'));
      }
      block = next.target;
      blockArgs = next.args;
    }
  }
}
