/**
 * The `--input [NAME=]FILE.npy` flag of `raptor import --run`, `raptor opt --run` and `raptor
 * run`: parsed while reading the command line, so it lives apart from `run-entry.ts` (which
 * loads the compiler and its interpreter, needed only once a command runs a module).
 */

/** One `--input`: positional (`FILE.npy`, name undefined) or by name (`NAME=FILE.npy`). */
export interface RunInputSpec {
  readonly name?: string;
  readonly file: string;
}

/** Parses the value of `--input`: `NAME=FILE` (the last `=`) or `FILE`. */
export function parseRunInput(value: string): RunInputSpec {
  const eq = value.lastIndexOf('=');
  return eq > 0 ? { name: value.slice(0, eq), file: value.slice(eq + 1) } : { file: value };
}
