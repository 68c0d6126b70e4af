import { descriptorWriter } from './descriptor-writer';
import { runCli } from './main';
import type { CliIo } from './command';

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
