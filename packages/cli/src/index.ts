/**
 * @packageDocumentation
 * The `raptor` command line: `raptor opt`, `raptor sim`, and more as the compiler grows.
 */
export { runCli } from './main';
export type { CliIo } from './main';
