import { runCli } from './main';
import type { CliIo } from './command';

const io: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
  isTty: Boolean(process.stderr.isTTY),
};

runCli(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`raptor: internal error\n${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 2;
  },
);
