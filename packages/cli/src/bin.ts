import { runCli } from './main';
import { createProcessIo, exitWith } from './process-io';

const io = createProcessIo();
exitWith(runCli(process.argv.slice(2), io), io);
