import * as path from 'node:path';
import { createRaptorContext, registerCompilerPasses } from '@raptor-pim/compiler';
import { registerCorePasses } from '@raptor-pim/ir-core';
import { checkExpectedDiagnostics, passPipelineRunner } from '../../../tools/test-support/expected-diagnostics';
import { describeStageFixtures } from '../../../tools/test-support/stage-fixtures';

// test/fixtures: goldens and expected-error files, each naming its pipeline on its first line.
describeStageFixtures('compiler fixtures', {
  fixturesDir: path.join(__dirname, 'fixtures'),
  makeContext: createRaptorContext,
  register: registerCompilerPasses,
  registerOthers: registerCorePasses,
});

describe('the expected-diagnostics harness', () => {
  const options = { makeContext: createRaptorContext, run: passPipelineRunner('builtin.module(raptor-schedule)', registerCompilerPasses) };
  const chunk = (text: string) => ({ text, lineOffset: 0 });
  it('fails a case whose diagnostic differs, is missing or is unexpected', () => {
    const wrong = chunk('// expected-error@+1 {{something else}}\nmodule {\n}\n');
    expect(checkExpectedDiagnostics('t.mlir', wrong, options).map((d) => d.message)).toEqual([
      expect.stringContaining('unexpected error: raptor-schedule: no scheduler stage'),
      expect.stringContaining('expected error "something else" was not produced'),
    ]);
    const none = chunk('module {\n}\n');
    expect(checkExpectedDiagnostics('t.mlir', none, options)).toHaveLength(1);
    const passing = chunk('// expected-error@+1 {{no scheduler stage}}\nmodule {\n}\n');
    expect(checkExpectedDiagnostics('t.mlir', passing, options)).toEqual([]);
  });

  it('reports a pipeline that does not parse as a diagnostic of the case', () => {
    const run = passPipelineRunner('builtin.module(no-such-pass)', registerCompilerPasses);
    const problems = checkExpectedDiagnostics('t.mlir', chunk('module {\n}\n'), { makeContext: createRaptorContext, run });
    expect(problems.map((d) => d.message)).toEqual([expect.stringContaining("'no-such-pass' does not refer to a registered pass")]);
  });
});
