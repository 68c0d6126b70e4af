/**
 * Message texts of the concurrent-streams executor (`concurrent-streams.ts`); the dialects that
 * run core streams add their own (what a stream waits for, the report's header).
 */
export const StreamMessages = {
  /** Where a blocked op is: its 1-based index in its block and the enclosing op. */
  position: (index: number, parent: string | undefined): string => (parent ? `op ${index} of '${parent}'` : `op ${index}`),
  /** One blocked stream of a deadlock report. */
  blockedStream: (label: string, position: string, op: string, waitsFor: string): string => `${label} at ${position} ('${op}'): ${waitsFor}`,
  /** The deadlock report: the dialect's header, then every blocked stream. */
  deadlock: (header: string, entries: readonly string[]): string => `${header}: ${entries.join('; ')}`,
  /** The note at a blocked stream's op. */
  blockedNote: (label: string, waitsFor: string): string => `${label} blocked: ${waitsFor}`,
} as const;
