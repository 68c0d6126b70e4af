/** Writing printed text that comes in pieces (see `printOperationPieces`). */
import * as fs from 'node:fs';

/**
 * Writes the pieces of the text in order to the open file `fd`. Each piece is encoded by the
 * write itself (a scratch buffer freed at once, no Buffer per piece); after a partial write the
 * rest of that piece is written from its bytes.
 */
export function writePieces(fd: number, pieces: readonly string[]): void {
  for (const piece of pieces) {
    let written = fs.writeSync(fd, piece);
    const length = Buffer.byteLength(piece, 'utf8');
    if (written === length) continue;
    const bytes = Buffer.from(piece, 'utf8');
    while (written < length) written += fs.writeSync(fd, bytes, written);
  }
}
