/** One chunk of a file split at `// -----` markers. */
export interface InputChunk {
  /** The chunk's text (it starts with the remainder of the marker line, so lines line up). */
  readonly text: string;
  /** The number of lines before the chunk in the original file (add to chunk line numbers). */
  readonly lineOffset: number;
}

/** MLIR's default split marker. */
export const SPLIT_MARKER = '// -----';

/**
 * Splits `text` at every occurrence of `marker` as `mlir-opt --split-input-file` does; each
 * chunk keeps its line numbers in the original file through {@link InputChunk.lineOffset}.
 */
export function splitInputFile(text: string, marker: string = SPLIT_MARKER): InputChunk[] {
  const chunks: InputChunk[] = [];
  let start = 0;
  let lines = 0;
  for (;;) {
    const i = text.indexOf(marker, start);
    const end = i < 0 ? text.length : i;
    const chunk = text.substring(start, end);
    chunks.push({ text: chunk, lineOffset: lines });
    if (i < 0) break;
    const next = end + marker.length;
    for (let p = text.indexOf('\n', start); p >= 0 && p < next; p = text.indexOf('\n', p + 1)) lines++;
    start = next;
  }
  return chunks;
}

/** Joins per-chunk outputs as `mlir-opt --split-input-file` does (`// -----` lines between). */
export function joinSplitOutputs(outputs: readonly string[], marker: string = SPLIT_MARKER): string {
  return outputs.join(marker + '\n');
}
