import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as ts from 'typescript';
import * as pimTarget from '@raptor-pim/pim-target';

describe('README', () => {
  test('the example runs as written and prints what it says', () => {
    const readme = fs.readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');
    const code = /```ts\n([\s\S]*?)```/.exec(readme)![1]!;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-readme-'));
    try {
      const source = code.replaceAll("'out/example.bundle'", JSON.stringify(path.join(dir, 'example.bundle')));
      const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
      const printed: string[] = [];
      const fakeConsole = { log: (...args: unknown[]) => printed.push(args.map(String).join(' ')) };
      const fakeRequire = (name: string): unknown => {
        if (name === '@raptor-pim/pim-target') return pimTarget;
        throw new Error(`unexpected import ${name}`);
      };
      new Function('require', 'console', 'exports', js)(fakeRequire, fakeConsole, {});
      expect(printed).toEqual([
        [
          'setbw ibiw=8, obiw=8',
          'sldi r0, 0',
          'sldi r1, 0',
          'sldi r2, 0',
          'sldi r3, 16',
          'sldi r4, 32',
          'ld r2, r0, size=32',
          'vvadd r4, r2, r3, len=16',
          'st r0, r4, size=16',
          '',
        ].join('\n'),
        'true',
      ]);
      expect(fs.readdirSync(path.join(dir, 'example.bundle')).sort()).toEqual(
        ['config.json', 'core_0.json', 'core_0.pim', 'manifest.json', 'memory.bin'],
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
