import type { CliCommand, CliIo } from './command';
import { CLI_MESSAGES } from './diagnostics';
import { simCommand } from './commands/sim';
import { optCommand } from './commands/opt';
import { importCommand } from './commands/import';

export type { CliIo } from './command';

/**
 * The registered subcommands. Each lives in `commands/<name>.ts` and is added here.
 */
const COMMANDS: readonly CliCommand[] = [optCommand, simCommand, importCommand];

/** Usage text listing every subcommand. */
export function usage(): string {
  const lines = ['usage: raptor <command> [options]', '', 'commands:'];
  for (const c of COMMANDS) lines.push(`  ${c.name.padEnd(10)} ${c.summary}`);
  return lines.join('\n') + '\n';
}

/**
 * Runs the CLI with `argv` (without `node` and the script) and returns the exit code:
 * 0 success, 1 a user-facing error (diagnostics printed), 2 an internal error.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h') {
    io.stdout(usage());
    return name === undefined ? 1 : 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.stderr(CLI_MESSAGES.unknownCommand(name) + '\n' + usage());
    return 1;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    io.stderr(CLI_MESSAGES.internalError(argv.join(' '), detail) + '\n');
    return 2;
  }
}
