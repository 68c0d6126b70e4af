import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * Returns a function that creates a fresh directory for a test in the OS temporary folder (its
 * name is `prefix` plus six random characters, as `fs.mkdtempSync` makes it); every directory it
 * created is removed after the test file's tests (`afterAll`), so tests leave nothing behind.
 * Call it at the top level of a test file.
 */
export function temporaryDirectories(prefix: string): () => string {
  const created: string[] = [];
  afterAll(() => {
    for (const dir of created) fs.rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    created.push(dir);
    return dir;
  };
}
