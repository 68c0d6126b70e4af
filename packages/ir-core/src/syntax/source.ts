/**
 * A source buffer with cheap offset -> line/column conversion: line starts are computed once,
 * lazily, with `indexOf` (linear, no per-character work in the lexer), then looked up from the
 * line of the previous lookup (a parser asks in increasing order) or by binary search.
 */
export class SourceFile {
  private lineStarts: Int32Array | undefined;
  /** The 0-based line of the previous lookup. */
  private lastLine = 0;

  constructor(
    /** The name used in locations and diagnostics. */
    readonly name: string,
    readonly text: string,
    /** Added to every line number (for `// -----` chunks: the chunk's first line - 1). */
    readonly lineOffset = 0,
  ) {}

  private computeLineStarts(): Int32Array {
    const starts: number[] = [0];
    const text = this.text;
    let i = text.indexOf('\n');
    while (i >= 0) {
      starts.push(i + 1);
      i = text.indexOf('\n', i + 1);
    }
    return Int32Array.from(starts);
  }

  /** 1-based line and column of `offset` (column in UTF-16 code units). */
  lineAndColumn(offset: number): { line: number; column: number } {
    const starts = (this.lineStarts ??= this.computeLineStarts());
    let lo = this.lastLine;
    const last = starts.length - 1;
    // The same line as the previous lookup, or the next one.
    if (starts[lo] <= offset && (lo === last || offset < starts[lo + 1])) return { line: lo + 1 + this.lineOffset, column: offset - starts[lo] + 1 };
    if (lo < last && starts[lo + 1] <= offset && (lo + 1 === last || offset < starts[lo + 2])) {
      this.lastLine = ++lo;
      return { line: lo + 1 + this.lineOffset, column: offset - starts[lo] + 1 };
    }
    lo = 0;
    let hi = last;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    this.lastLine = lo;
    return { line: lo + 1 + this.lineOffset, column: offset - starts[lo] + 1 };
  }

  /** The text of the 1-based (chunk-relative plus offset) line `line`, without the newline. */
  lineText(line: number): string {
    const starts = (this.lineStarts ??= this.computeLineStarts());
    const l = line - this.lineOffset - 1;
    if (l < 0 || l >= starts.length) return '';
    const start = starts[l];
    let end = l + 1 < starts.length ? starts[l + 1] - 1 : this.text.length;
    if (end > start && this.text.charCodeAt(end - 1) === 13) end--;
    return this.text.substring(start, end);
  }
}
