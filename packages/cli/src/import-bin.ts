/**
 * `raptor import` without `--run` and `--const-input`, on its own: the entry of the standalone
 * bundle `dist/import-bin.cjs`, which inlines the packages a plain import needs (ir-core, the
 * dialects, onnx-frontend) so that the command loads one file with only the code it uses. The
 * launcher (`bin/raptor.cjs`) runs it for those arguments; anything else goes to `bin.ts`.
 */
import { runGuarded } from './command';
import { plainImportCommand } from './import/plain-import';
import { createProcessIo, exitWith } from './process-io';

const io = createProcessIo();
const argv = process.argv.slice(2);
exitWith(
  runGuarded(argv, io, () => plainImportCommand.run(argv.slice(1), io)),
  io,
);
