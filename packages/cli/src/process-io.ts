/** The launcher's side of a command: this process's standard streams and its exit code. */
import type { CliIo } from './command';
import { descriptorWriter } from './descriptor-writer';

/** A {@link CliIo} on this process's standard input, output and error. */
export function createProcessIo(): CliIo {
  return {
    stdout: descriptorWriter(1, () => process.stdout),
    stderr: descriptorWriter(2, () => process.stderr),
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
}

/**
 * Sets the process's exit code from a command's result; a rejection that escaped the command
 * (a broken invariant of ours) prints "internal error" with its stack on `io.stderr`, exit code 2.
 */
export function exitWith(result: Promise<number>, io: CliIo): void {
  result.then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      io.stderr(`raptor: internal error\n${error instanceof Error ? error.stack : String(error)}\n`);
      process.exitCode = 2;
    },
  );
}
