/** Textual pipelines: parsing with the Raptor registry, and printing a named pipeline expanded. */
import { MLIRContext, parsePassPipeline, type Diagnostic, type PassManager, type PassRegistry } from '@raptor-pim/ir-core';

/**
 * The pipeline text to parse for `pipeline`: a full textual pipeline (`builtin.module(...)` or
 * `any(...)`) as given; any other element list (`raptor-frontend`, `cse,raptor-schedule`,
 * `func.func(cse)`) anchored on `builtin.module`.
 */
export function anchorPipeline(pipeline: string): string {
  const text = pipeline.trim();
  const open = text.indexOf('(');
  // Anchored on the module: one element `builtin.module(...)` (or `any(...)`) spanning the whole text.
  const anchor = open > 0 ? text.slice(0, open).trim() : '';
  if ((anchor === 'builtin.module' || anchor === 'any') && text.endsWith(')')) {
    let depth = 0;
    for (let i = open; i < text.length; i++) {
      if (text[i] === '(') depth++;
      else if (text[i] === ')' && --depth === 0) return i === text.length - 1 ? text : `builtin.module(${text})`;
    }
  }
  return `builtin.module(${text})`;
}

/**
 * Parses `pipeline` (see {@link anchorPipeline}) with `registry`. Diagnostics (unknown pass,
 * bad option value, syntax) are emitted to `context`; returns undefined on error.
 */
export function parseRaptorPipeline(context: MLIRContext, pipeline: string, registry: PassRegistry): PassManager | undefined {
  return parsePassPipeline(context, anchorPipeline(pipeline), registry);
}

/**
 * The fully expanded textual form of `pipeline` (named pipelines replaced by their passes,
 * every option written out), which parses back to the same pipeline: what a user prints,
 * edits and runs with `raptor opt --pass-pipeline=...`.
 *
 * @example
 * ```ts
 * printPipeline('raptor-compile', createRaptorPassRegistry());
 * // { text: 'builtin.module(func.func(canonicalize{...},cse),raptor-schedule{options= strategy=})', diagnostics: [] }
 * ```
 */
export function printPipeline(pipeline: string, registry: PassRegistry): { text: string | undefined; diagnostics: readonly Diagnostic[] } {
  const ctx = new MLIRContext();
  const { result, diagnostics } = ctx.diagnostics.capture(() => parseRaptorPipeline(ctx, pipeline, registry));
  return { text: result?.printAsTextualPipeline(), diagnostics };
}
