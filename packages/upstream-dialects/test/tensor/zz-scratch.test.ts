import * as fs from 'node:fs';
import { roundTrip } from './helpers';
it('scratch', () => {
  const r = roundTrip(fs.readFileSync(process.env.F!, 'utf8'));
  fs.writeFileSync('/tmp/ts/out.custom', r.custom + '\n');
  fs.writeFileSync('/tmp/ts/out.generic', r.generic + '\n');
});
