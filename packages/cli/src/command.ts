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
