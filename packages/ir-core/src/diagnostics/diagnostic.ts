import type { Location } from '../ir/attribute';

/** How serious a diagnostic is, as MLIR names it. */
export type Severity = 'error' | 'warning' | 'note' | 'remark';

/**
 * One diagnostic: a severity, where it happened, what is wrong, and attached notes
 * (each a diagnostic of severity `note`, possibly at another location).
 */
export class Diagnostic {
  readonly notes: Diagnostic[] = [];

  constructor(
    readonly severity: Severity,
    readonly location: Location,
    public message: string,
  ) {}

  /** Attaches a note (at `location`, or at this diagnostic's location) and returns it. */
  attachNote(message: string, location?: Location): Diagnostic {
    const note = new Diagnostic('note', location ?? this.location, message);
    this.notes.push(note);
    return note;
  }
}

/** A function that receives every emitted diagnostic. */
export type DiagnosticHandler = (diagnostic: Diagnostic) => void;

/**
 * Routes diagnostics to the innermost registered handler (like MLIR's DiagnosticEngine with
 * ScopedDiagnosticHandler). With no handler, diagnostics are collected in {@link collected}.
 */
export class DiagnosticEngine {
  private readonly handlers: DiagnosticHandler[] = [];
  /** Diagnostics emitted while no handler was registered. */
  readonly collected: Diagnostic[] = [];
  private errorCount = 0;

  /** Emits a diagnostic to the innermost handler. */
  emit(diagnostic: Diagnostic): void {
    if (diagnostic.severity === 'error') this.errorCount++;
    const handler = this.handlers[this.handlers.length - 1];
    if (handler) handler(diagnostic);
    else this.collected.push(diagnostic);
  }

  /** Number of error diagnostics emitted so far (through any handler). */
  get errors(): number {
    return this.errorCount;
  }

  /**
   * Runs `body` with `handler` receiving every diagnostic emitted meanwhile, then removes it
   * (also when `body` throws).
   */
  withHandler<T>(handler: DiagnosticHandler, body: () => T): T {
    this.handlers.push(handler);
    try {
      return body();
    } finally {
      this.handlers.pop();
    }
  }

  /** Runs `body` and returns its result together with every diagnostic it emitted. */
  capture<T>(body: () => T): { result: T; diagnostics: Diagnostic[] } {
    const diagnostics: Diagnostic[] = [];
    const result = this.withHandler((d) => diagnostics.push(d), body);
    return { result, diagnostics };
  }
}
