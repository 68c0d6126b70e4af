/**
 * Read-and-validate in one call: what a simulator or a CLI does with a bundle.
 */
import type { TargetDiagnostic } from '../target-diagnostic';
import { readBundle, readBundleFiles, type BundleFiles } from './reader';
import { isPimsimCompatibilityDiagnostic, validateBundle, type ValidateBundleOptions } from './validator';
import type { ProgramBundle } from './bundle';

/** The result of {@link loadBundle} / {@link loadBundleFiles}. */
export interface LoadedBundle {
  /** The bundle, or `undefined` when it could not be read at all. */
  bundle: ProgramBundle | undefined;
  /** Reader and validator diagnostics, reader first. */
  diagnostics: TargetDiagnostic[];
  /** Number of errors. */
  errorCount: number;
  /** True when there is no error and no `pimsim-*` compatibility warning. */
  pimsimCompatible: boolean;
}

function finish(read: { value: ProgramBundle | undefined; diagnostics: TargetDiagnostic[] }, options: ValidateBundleOptions): LoadedBundle {
  const diagnostics = [...read.diagnostics];
  if (read.value) diagnostics.push(...validateBundle(read.value, options).diagnostics);
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const errorCount = read.value ? errors : Math.max(errors, 1);
  return {
    bundle: read.value,
    diagnostics,
    errorCount,
    pimsimCompatible: read.value !== undefined && errorCount === 0 && !diagnostics.some(isPimsimCompatibilityDiagnostic),
  };
}

/** Reads and validates bundle files (name → bytes). Never throws. */
export function loadBundleFiles(files: BundleFiles, options: ValidateBundleOptions = {}): LoadedBundle {
  return finish(readBundleFiles(files), options);
}

/**
 * Reads and validates a bundle directory. Never throws.
 *
 * @example
 * ```ts
 * const { bundle, diagnostics, errorCount } = loadBundle('out/model.bundle');
 * if (errorCount > 0) for (const d of diagnostics) console.error(formatDiagnostic(d));
 * ```
 */
export function loadBundle(directory: string, options: ValidateBundleOptions = {}): LoadedBundle {
  return finish(readBundle(directory), options);
}
