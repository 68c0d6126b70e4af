import type { Operation } from '../ir/operation';
import type { Pass } from './pass';

/**
 * Hooks around pipelines and passes (MLIR's `PassInstrumentation`). `pipelineName` is the
 * anchor of the nested pass manager (`func.func`).
 */
export interface PassInstrumentation {
  /** Before a nested pipeline runs on `op`. */
  runBeforePipeline?(pipelineName: string, op: Operation): void;
  /** After a nested pipeline ran on `op`. */
  runAfterPipeline?(pipelineName: string, op: Operation): void;
  /** Before `pass` runs on `op`. */
  runBeforePass?(pass: Pass, op: Operation): void;
  /** After `pass` succeeded on `op`. */
  runAfterPass?(pass: Pass, op: Operation): void;
  /** After `pass` failed on `op`. */
  runAfterPassFailed?(pass: Pass, op: Operation): void;
}

interface TimingNode {
  name: string;
  seconds: number;
  children: TimingNode[];
  start: number;
}

const RULE = '===' + '-'.repeat(73) + '===';

function formatSeconds(s: number): string {
  return s.toFixed(4);
}

/**
 * Wall-clock timing of pipelines and passes, reported like `mlir-opt --mlir-timing`
 * (a tree: `'func.func' Pipeline` nodes with their passes, then `Rest` and `Total`).
 * Times of the same pass on several ops are summed.
 */
export class PassTiming implements PassInstrumentation {
  private readonly root: TimingNode = { name: 'root', seconds: 0, children: [], start: 0 };
  private readonly stack: TimingNode[] = [this.root];
  private totalStart = 0;
  private totalSeconds = 0;

  constructor(private readonly now: () => number = () => performance.now() / 1000) {}

  private enter(name: string): void {
    const parent = this.stack[this.stack.length - 1]!;
    let n = parent.children.find((c) => c.name === name);
    if (!n) parent.children.push((n = { name, seconds: 0, children: [], start: 0 }));
    n.start = this.now();
    this.stack.push(n);
  }
  private exit(): void {
    const n = this.stack.pop()!;
    n.seconds += this.now() - n.start;
  }

  /** Starts the total timer (called by the pass manager). */
  start(): void {
    this.totalStart = this.now();
  }
  /** Stops the total timer. */
  stop(): void {
    this.totalSeconds += this.now() - this.totalStart;
  }

  runBeforePipeline(name: string): void {
    this.enter(`'${name}' Pipeline`);
  }
  runAfterPipeline(): void {
    this.exit();
  }
  runBeforePass(pass: Pass): void {
    this.enter(pass.name);
  }
  runAfterPass(): void {
    this.exit();
  }
  runAfterPassFailed(): void {
    this.exit();
  }

  /** The report text. */
  report(): string {
    const total = Math.max(this.totalSeconds, 1e-9);
    const lines: string[] = [
      RULE,
      '                         ... Execution time report ...',
      RULE,
      `  Total Execution Time: ${formatSeconds(this.totalSeconds)} seconds`,
      '',
      '  ----Wall Time----  ----Name----',
    ];
    const row = (s: number, name: string, depth: number): string =>
      `  ${formatSeconds(s).padStart(8)} (${((100 * s) / total).toFixed(1).padStart(5)}%)  ${'  '.repeat(depth)}${name}`;
    const stack: [TimingNode, number][] = this.root.children.map((c) => [c, 0] as [TimingNode, number]).reverse();
    let top = 0;
    for (const c of this.root.children) top += c.seconds;
    while (stack.length > 0) {
      const [n, d] = stack.pop()!;
      lines.push(row(n.seconds, n.name, d));
      for (let i = n.children.length - 1; i >= 0; i--) stack.push([n.children[i]!, d + 1]);
    }
    lines.push(row(Math.max(0, this.totalSeconds - top), 'Rest', 0));
    lines.push(row(this.totalSeconds, 'Total', 0));
    return lines.join('\n') + '\n';
  }
}

/** Configuration of {@link IRPrinting}. */
export interface IRPrintingConfig {
  /** Print before the passes for which this returns true (default: none). */
  printBefore?: (pass: Pass, op: Operation) => boolean;
  /** Print after the passes for which this returns true (default: none). */
  printAfter?: (pass: Pass, op: Operation) => boolean;
  /** Print after a failing pass (default true, as MLIR's `--mlir-print-ir-after-failure`). */
  printAfterFailure?: boolean;
  /** Print the top-level op instead of the op the pass ran on. */
  printModuleScope?: boolean;
  /** Renders an op (default: the syntax layer's printer, custom form). */
  print: (op: Operation) => string;
  /** Receives each dump. */
  output: (text: string) => void;
}

/**
 * Dumps the IR before/after passes like `--mlir-print-ir-before/after(-all)`:
 * `// -----// IR Dump After CSE (cse) //----- //` followed by the op.
 */
export class IRPrinting implements PassInstrumentation {
  constructor(private readonly config: IRPrintingConfig) {}

  private scope(op: Operation): Operation {
    if (!this.config.printModuleScope) return op;
    let top = op;
    for (let p = op.getParentOp(); p; p = p.getParentOp()) top = p;
    return top;
  }

  private dump(when: 'Before' | 'After' | 'Failed', pass: Pass, op: Operation): void {
    const what = when === 'Failed' ? `After ${pass.name} Failed` : `${when} ${pass.name}`;
    const header = `// -----// IR Dump ${what} (${pass.argument}) //----- //`;
    this.config.output(`${header}\n${this.config.print(this.scope(op))}\n\n`);
  }

  runBeforePass(pass: Pass, op: Operation): void {
    if (this.config.printBefore?.(pass, op)) this.dump('Before', pass, op);
  }
  runAfterPass(pass: Pass, op: Operation): void {
    if (this.config.printAfter?.(pass, op)) this.dump('After', pass, op);
  }
  runAfterPassFailed(pass: Pass, op: Operation): void {
    if (this.config.printAfterFailure !== false) this.dump('Failed', pass, op);
  }
}
