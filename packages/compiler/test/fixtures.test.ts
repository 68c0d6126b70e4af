import * as path from 'node:path';
import { createRaptorContext } from '@raptor-pim/compiler';
import { Diagnostic, UnitAttr, registerCorePasses, type Operation } from '@raptor-pim/ir-core';
import { checkExpectedDiagnostics, passPipelineRunner } from '../../../tools/test-support/expected-diagnostics';
import { describeStageFixtures } from '../../../tools/test-support/stage-fixtures';

// test/fixtures: goldens and expected-error files, each naming its pipeline on its first line.
// The compiler registers no passes of its own; its fixtures check the frontend stage's clean-up.
describeStageFixtures('compiler fixtures', {
  fixturesDir: path.join(__dirname, 'fixtures'),
  makeContext: createRaptorContext,
  register: registerCorePasses,
});

describe('the expected-diagnostics harness', () => {
  const options = { makeContext: createRaptorContext, run: passPipelineRunner('builtin.module(cse)', registerCorePasses) };
  const chunk = (text: string) => ({ text, lineOffset: 0 });
  const BAD_RETURN = "func.func @f(%x: i32) -> i64 {\n  return %x : i32\n}\n";
  it('fails a case whose diagnostic differs, is missing or is unexpected', () => {
    const wrong = chunk(`// expected-error@+2 {{something else}}\n${BAD_RETURN}`);
    expect(checkExpectedDiagnostics('t.mlir', wrong, options).map((d) => d.message)).toEqual([
      expect.stringContaining("unexpected error: type of return operand 0 ('i32') doesn't match function result type ('i64')"),
      expect.stringContaining('expected error "something else" was not produced'),
    ]);
    expect(checkExpectedDiagnostics('t.mlir', chunk(BAD_RETURN), options)).toHaveLength(1);
    expect(checkExpectedDiagnostics('t.mlir', chunk('// expected-error@+1 {{never}}\nmodule {\n}\n'), options)).toHaveLength(1);
    const passing = chunk(`// expected-error@+2 {{doesn't match function result type}}\n${BAD_RETURN}`);
    expect(checkExpectedDiagnostics('t.mlir', passing, options)).toEqual([]);
  });

  it('with checkOutcome, a run must fail exactly when the case expects an error; with unchangedOnFailure, a failed run must not touch the module', () => {
    const clean = chunk('func.func @f() {\n  return\n}\n');
    const expectsError = chunk('// expected-error@+1 {{boom}}\nfunc.func @f() {\n  return\n}\n');
    const outcome = (succeeds: boolean, emit: boolean) => ({
      makeContext: createRaptorContext,
      checkOutcome: true,
      run: (m: Operation): boolean => {
        if (emit) m.context.diagnostics.emit(new Diagnostic('error', m.regions[0]!.firstBlock!.firstOp!.location, 'boom'));
        return succeeds;
      },
    });
    expect(checkExpectedDiagnostics('t.mlir', clean, outcome(true, false))).toEqual([]);
    expect(checkExpectedDiagnostics('t.mlir', expectsError, outcome(false, true))).toEqual([]);
    expect(checkExpectedDiagnostics('t.mlir', clean, outcome(false, false)).map((d) => d.message)).toEqual(['the run failed although the case expects no error']);
    expect(checkExpectedDiagnostics('t.mlir', expectsError, outcome(true, true)).map((d) => d.message)).toEqual(['the run succeeded although the case expects an error']);
    const touches = {
      makeContext: createRaptorContext,
      unchangedOnFailure: true,
      run: (m: Operation): boolean => {
        m.setAttr('touched', UnitAttr.get(m.context));
        return false;
      },
    };
    expect(checkExpectedDiagnostics('t.mlir', clean, touches).map((d) => d.message)).toEqual(['the failed run changed the module']);
  });

  it('reports a pipeline that does not parse as a diagnostic of the case', () => {
    const run = passPipelineRunner('builtin.module(no-such-pass)', registerCorePasses);
    const problems = checkExpectedDiagnostics('t.mlir', chunk('module {\n}\n'), { makeContext: createRaptorContext, run });
    expect(problems.map((d) => d.message)).toEqual([expect.stringContaining("'no-such-pass' does not refer to a registered pass")]);
  });
});
