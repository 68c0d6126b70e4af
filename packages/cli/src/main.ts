import { runGuarded, type CliCommand, type CliIo } from './command';
import { CLI_MESSAGES } from './diagnostics';

export type { CliIo } from './command';

/**
 * The registered subcommands. Each lives in `commands/<name>.ts` and is added here; a command
 * module is loaded only when it runs (or for the usage text), so `raptor sim` does not load
 * the compiler and its dialects.
 */
const COMMANDS: readonly { readonly name: string; readonly load: () => Promise<CliCommand> }[] = [
  { name: 'opt', load: async () => (await import('./commands/opt')).optCommand },
  { name: 'sim', load: async () => (await import('./commands/sim')).simCommand },
  { name: 'import', load: async () => (await import('./commands/import')).importCommand },
  { name: 'compile', load: async () => (await import('./commands/compile')).compileCommand },
  { name: 'run', load: async () => (await import('./commands/run')).runCommand },
];

/** Usage text listing every subcommand (loads every command module). */
export async function usage(): Promise<string> {
  const lines = ['usage: raptor <command> [options]', '', 'commands:'];
  for (const entry of COMMANDS) {
    const c = await entry.load();
    lines.push(`  ${c.name.padEnd(10)} ${c.summary}`);
  }
  return lines.join('\n') + '\n';
}

/**
 * Runs the CLI with `argv` (without `node` and the script) and returns the exit code:
 * 0 success, 1 a user-facing error (diagnostics printed), 2 an internal error.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h') {
    io.stdout(await usage());
    return name === undefined ? 1 : 0;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    io.stderr(CLI_MESSAGES.unknownCommand(name) + '\n' + (await usage()));
    return 1;
  }
  return runGuarded(argv, io, async () => (await entry.load()).run(rest, io));
}
