/** The diagnostics `compile()` returns: one shape for the frontend's, the target's and the passes'. */
import { findFileLineCol, printAttribute, type Diagnostic, type Location, type Severity } from '@raptor-pim/ir-core';
import { formatLocation, type OnnxDiagnostic } from '@raptor-pim/onnx-frontend';
import type { TargetDiagnostic } from '@raptor-pim/pim-target';

/** One problem reported by a stage of `compile()`. */
export interface CompileDiagnostic {
  /** The stage that reported it (`target`, `frontend`, `scheduler`, a pass's stage, `pipeline`). */
  readonly stage: string;
  readonly severity: Severity;
  /** Where: `file:line:col`, `model.onnx: node 'conv1' (#3)`, an MLIR location, or '' when unknown. */
  readonly location: string;
  readonly message: string;
  /** Notes, each already prefixed with its location when it has one. */
  readonly notes: readonly string[];
}

/** `file:line:col`, or the location as MLIR prints it. */
export function formatIrLocation(loc: Location): string {
  const flc = findFileLineCol(loc);
  return flc ? `${flc.filename}:${flc.line}:${flc.column}` : printAttribute(loc);
}

/** A {@link CompileDiagnostic} from an IR diagnostic. */
export function fromIrDiagnostic(stage: string, d: Diagnostic): CompileDiagnostic {
  return {
    stage,
    severity: d.severity,
    location: formatIrLocation(d.location),
    message: d.message,
    notes: d.notes.map((n) => `${formatIrLocation(n.location)}: ${n.message}`),
  };
}

/** A {@link CompileDiagnostic} from an ONNX frontend diagnostic. */
export function fromOnnxDiagnostic(d: OnnxDiagnostic): CompileDiagnostic {
  return { stage: 'frontend', severity: d.severity, location: formatLocation(d.location), message: d.message, notes: d.notes ?? [] };
}

/** A {@link CompileDiagnostic} from a pim-target (configuration) diagnostic. */
export function fromTargetDiagnostic(d: TargetDiagnostic): CompileDiagnostic {
  const where = [d.file, d.line !== undefined ? String(d.line) : undefined].filter((x) => x !== undefined).join(':');
  return { stage: 'target', severity: d.severity, location: where, message: d.message, notes: [] };
}

/** A diagnostic not tied to an input location. */
export function compileError(stage: string, message: string): CompileDiagnostic {
  return { stage, severity: 'error', location: '', message, notes: [] };
}

/** `location: severity: message` plus one `  note: ...` line per note, as compilers print them. */
export function formatCompileDiagnostic(d: CompileDiagnostic): string {
  let s = `${d.location ? d.location + ': ' : ''}${d.severity}: ${d.message}`;
  for (const n of d.notes) s += `\n  note: ${n}`;
  return s;
}
