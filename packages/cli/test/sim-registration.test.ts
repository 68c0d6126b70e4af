import { runCli } from '@raptor-pim/cli';
import type { CliIo } from '@raptor-pim/cli';

test('raptor lists and dispatches the sim command', async () => {
  let out = '';
  const io: CliIo = { stdout: (t) => void (out += t), stderr: () => undefined, readStdin: async () => '', isTty: false };
  expect(await runCli(['--help'], io)).toBe(0);
  expect(out).toMatch(/^ {2}sim +simulate a program bundle/m);
  out = '';
  expect(await runCli(['sim', '--help'], io)).toBe(0);
  expect(out).toContain('usage: raptor sim BUNDLE [options]');
});
