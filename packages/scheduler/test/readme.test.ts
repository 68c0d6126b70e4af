import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import * as irCore from '@raptor-pim/ir-core';
import * as spatial from '@raptor-pim/spatial-dialect';
import * as scheduler from '@raptor-pim/scheduler';

describe('README', () => {
  it('the example runs as written and prints what it says', () => {
    const readme = fs.readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');
    const code = /```ts\n([\s\S]*?)```/.exec(readme)![1]!;
    const js = ts.transpileModule(code, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
    const printed: string[] = [];
    const modules: Record<string, unknown> = { '@raptor-pim/ir-core': irCore, '@raptor-pim/spatial-dialect': spatial, '@raptor-pim/scheduler': scheduler };
    const fakeRequire = (name: string): unknown => {
      if (name in modules) return modules[name];
      throw new Error(`unexpected import ${name}`);
    };
    new Function('require', 'console', 'exports', js)(fakeRequire, { log: (...a: unknown[]) => printed.push(a.map(String).join(' ')) }, {});
    expect(printed[0]).toBe('true');
    expect(printed[1]).toMatch(/^#0 spat\.graph_compute: cores \d+; #1 spat\.graph_compute: cores \d+$/);
  });
});
