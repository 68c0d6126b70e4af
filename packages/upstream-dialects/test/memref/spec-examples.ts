/**
 * Mechanical extraction of the ```mlir examples of `memref-dialect.md`: every fenced `mlir`
 * block under an op heading, in order. Used by `spec-examples.test.ts` to check that the
 * checked-in fixture `test/fixtures/memref/spec-examples.mlir` matches the spec.
 */
export interface SpecExample {
  /** The op heading (`alloc`, `subview`, ...). */
  readonly op: string;
  /** 1-based index among the op's examples. */
  readonly index: number;
  /** The example text (trimmed). */
  readonly text: string;
}

/** Extracts the ```mlir blocks under `# \`op\`` headings of the spec markdown. */
export function extractSpecExamples(markdown: string): SpecExample[] {
  const out: SpecExample[] = [];
  let op = '';
  const counts = new Map<string, number>();
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const h = /^# `([a-z_]+)`/.exec(lines[i]!);
    if (h) {
      op = h[1]!;
      continue;
    }
    if (lines[i]!.trim() === '```mlir') {
      const body: string[] = [];
      for (i++; i < lines.length && lines[i]!.trim() !== '```'; i++) body.push(lines[i]!);
      const n = (counts.get(op) ?? 0) + 1;
      counts.set(op, n);
      out.push({ op, index: n, text: body.join('\n').trim() });
    }
  }
  return out;
}
