/** Blocking writers for the launcher's standard output and error. */
import * as fs from 'node:fs';

/**
 * Writes to file descriptor `fd` with blocking writes, without setting up `process.stdout` or
 * `process.stderr` (their stream machinery costs a few milliseconds of a short command's
 * start-up). After any failed write (a non-blocking descriptor answering EAGAIN, a closed
 * pipe), the rest and every later text go through the stream, as before. `writeSync` is
 * `fs.writeSync` (a parameter for tests).
 */
export function descriptorWriter(
  fd: 1 | 2,
  stream: () => NodeJS.WritableStream,
  writeSync: (fd: number, bytes: Uint8Array, offset: number) => number = fs.writeSync,
): (text: string) => void {
  let viaStream = false;
  // The reader went away (`raptor ... | head`): the rest is dropped quietly, as a Unix tool
  // killed by SIGPIPE would, instead of an unhandled EPIPE error.
  let closed = false;
  const toStream = (): NodeJS.WritableStream => {
    const s = stream();
    if (!s.listenerCount('error')) {
      s.on('error', (e: NodeJS.ErrnoException) => {
        if (e.code !== 'EPIPE') throw e;
        closed = true;
      });
    }
    return s;
  };
  return (text) => {
    if (closed) return;
    if (viaStream) {
      toStream().write(text);
      return;
    }
    const bytes = Buffer.from(text, 'utf8');
    let written = 0;
    try {
      while (written < bytes.length) written += writeSync(fd, bytes, written);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EPIPE') {
        closed = true;
        return;
      }
      viaStream = true;
      toStream().write(bytes.subarray(written));
    }
  };
}

