import type { CliIo } from '@raptor-pim/cli';

/** A CliIo that records what a command writes, for in-process CLI tests. */
export type CapturedIo = CliIo & { out: string; err: string };

/** Creates a {@link CapturedIo}; `stdin` is what `-` reads. */
export function captureIo(stdin = ''): CapturedIo {
  const s: CapturedIo = {
    out: '',
    err: '',
    stdout(t: string) {
      s.out += t;
    },
    stderr(t: string) {
      s.err += t;
    },
    readStdin: async () => stdin,
    isTty: false,
  };
  return s;
}
