import * as fs from 'node:fs';
import * as path from 'node:path';
import { verifyFile } from './verify-file';

const dir = path.resolve(__dirname, '../fixtures');
const files = fs.readdirSync(dir).filter((f) => /^invalid-.*\.mlir$/.test(f));

describe.each(files)('%s', (file) => {
  it('produces exactly the expected diagnostics', () => {
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    const { rendered } = verifyFile(file, text);
    expect(rendered).toBe('');
  });
});
