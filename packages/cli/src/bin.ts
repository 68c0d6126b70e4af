import * as fs from 'node:fs';
import { runCli } from './main';
import type { CliIo } from './command';

/**
 * Writes to file descriptor `fd` with blocking writes, without setting up `process.stdout` or
 * `process.stderr` (their stream machinery costs a few milliseconds of a short command's
 * start-up). After any failed write (a non-blocking descriptor answering EAGAIN, a closed
 * pipe), the rest and every later text go through the stream, as before.
 */
function descriptorWriter(fd: 1 | 2, stream: () => NodeJS.WriteStream): (text: string) => void {
  let viaStream = false;
  // The reader went away (`raptor ... | head`): the rest is dropped quietly, as a Unix tool
  // killed by SIGPIPE would, instead of an unhandled EPIPE error.
  let closed = false;
  const toStream = (): NodeJS.WriteStream => {
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
      while (written < bytes.length) written += fs.writeSync(fd, bytes, written);
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

const stderr = descriptorWriter(2, () => process.stderr);
const io: CliIo = {
  stdout: descriptorWriter(1, () => process.stdout),
  stderr,
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
  // node:tty (and the net and stream modules it loads, about 5 ms) only when a command asks.
  get isTty(): boolean {
    return (require('node:tty') as typeof import('node:tty')).isatty(2);
  },
};

runCli(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    stderr(`raptor: internal error\n${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 2;
  },
);
