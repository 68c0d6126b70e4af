import { CLI_MESSAGES } from './diagnostics';

/** Where a command reads and writes; injectable so commands are testable in-process. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Reads all of standard input (for `-` as a file name). */
  readStdin(): Promise<string>;
  /** Whether stderr is a terminal (progress bars only then). */
  readonly isTty: boolean;
}

/** One `raptor <name>` subcommand. */
export interface CliCommand {
  readonly name: string;
  readonly summary: string;
  /** Runs with the arguments after the command name; returns the exit code. */
  run(args: readonly string[], io: CliIo): Promise<number>;
}

/** What {@link defineParsedCommand} needs: the usage text, the argument parser and the action. */
export interface ParsedCommandSpec<A> {
  readonly name: string;
  readonly summary: string;
  /** The usage text printed for `--help` and after an argument error. */
  readonly usage: string;
  /** Parses the arguments: the parsed form, `'help'`, or an error message. */
  parse(args: readonly string[]): A | 'help' | { readonly error: string };
  /** Runs the command on parsed arguments; returns the exit code. */
  run(parsed: A, io: CliIo): Promise<number>;
}

/**
 * A subcommand whose arguments are parsed first: `--help` prints the usage (exit 0), an
 * argument error prints the message and the usage on stderr (exit 1), anything else runs.
 */
export function defineParsedCommand<A extends object>(spec: ParsedCommandSpec<A>): CliCommand {
  return {
    name: spec.name,
    summary: spec.summary,
    async run(args, io) {
      const parsed = spec.parse(args);
      if (parsed === 'help') {
        io.stdout(spec.usage);
        return 0;
      }
      if ('error' in parsed) {
        io.stderr(parsed.error + '\n' + spec.usage);
        return 1;
      }
      return await spec.run(parsed, io);
    },
  };
}

/**
 * Runs `run` (a command's run for the command line `argv`) and returns its exit code; an
 * exception (a broken invariant of ours) prints "internal error" with the invocation and the
 * stack, and gives exit code 2.
 */
export async function runGuarded(argv: readonly string[], io: CliIo, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    io.stderr(CLI_MESSAGES.internalError(argv.join(' '), detail) + '\n');
    return 2;
  }
}
