import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { runCli } from '@raptor-pim/cli';
import { createPass } from '@raptor-pim/ir-core';
import { createRaptorPassRegistry } from '@raptor-pim/compiler';
import { parseOptArgs, runOpt } from '../src/commands/opt';
import { captureIo } from './support/capture-io';
import { temporaryDirectories } from './support/temp-dirs';

const EXAMPLES = path.resolve(__dirname, '../examples');
const QUICKSTART = path.join(EXAMPLES, 'quickstart.mlir');
const MLIR_OPT = process.env.MLIR_OPT ?? '/usr/lib/llvm-22/bin/mlir-opt';
const INVALID = path.resolve(__dirname, '../../ir-core/test/fixtures/corpus/invalid');
const NAMES = path.resolve(__dirname, '../../ir-core/test/fixtures/names');

const io = captureIo;

const tmp = temporaryDirectories('raptor-opt-');

/** The quickstart example as mlir-opt 22 prints it (and must keep printing it). */
const QUICKSTART_OUT = `module {
  func.func @relu_sum(%arg0: tensor<1x4xf32>, %arg1: tensor<1x4xf32>) -> tensor<1x4xf32> {
    %cst = arith.constant dense<0.000000e+00> : tensor<1x4xf32>
    %0 = arith.addf %arg0, %arg1 : tensor<1x4xf32>
    %1 = arith.maximumf %0, %cst : tensor<1x4xf32>
    return %1 : tensor<1x4xf32>
  }
  func.func @clamp(%arg0: i32) -> i32 {
    %c4_i32 = arith.constant 4 : i32
    %c1_i32 = arith.constant 1 : i32
    %c42_i32 = arith.constant 42 : i32
    %0 = arith.muli %arg0, %c4_i32 overflow<nsw> : i32
    %1 = arith.addi %0, %c1_i32 overflow<nsw> : i32
    %2 = arith.cmpi sgt, %1, %c42_i32 : i32
    %3 = arith.select %2, %c42_i32, %1 : i32
    return %3 : i32
  }
}

`;

describe('raptor opt', () => {
  it('prints the quickstart example exactly as mlir-opt does', async () => {
    const s = io();
    expect(await runCli(['opt', QUICKSTART], s)).toBe(0);
    expect(s.err).toBe('');
    expect(s.out).toBe(QUICKSTART_OUT);
    if (fs.existsSync(MLIR_OPT)) {
      const theirs = spawnSync(MLIR_OPT, [QUICKSTART], { encoding: 'utf8' });
      expect(s.out).toBe(theirs.stdout);
    }
  });

  it('prints the generic form with --print-generic and re-reads it to the same custom text', async () => {
    const g = io();
    expect(await runCli(['opt', QUICKSTART, '--print-generic'], g)).toBe(0);
    expect(g.out).toContain('"func.func"() <{function_type = (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>, sym_name = "relu_sum"}>');
    expect(g.out).toContain('"arith.muli"(%arg0, %0) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32');
    const back = io(g.out);
    expect(await runCli(['opt', '-'], back)).toBe(0);
    expect(back.out).toBe(QUICKSTART_OUT);
  });

  it('reads standard input when the file is - or absent', async () => {
    const a = io('func.func @f() {\n  return\n}\n');
    expect(await runCli(['opt'], a)).toBe(0);
    expect(a.out).toBe('module {\n  func.func @f() {\n    return\n  }\n}\n\n');
    const b = io('func.func @f() {\n  return\n}\n');
    expect(await runCli(['opt', '-'], b)).toBe(0);
    expect(b.out).toBe(a.out);
  });

  it('prints locations with --print-debuginfo', async () => {
    const s = io('"t.a"() : () -> () loc("x.py":3:4)\n');
    expect(await runCli(['opt', '-', '--print-debuginfo', '--allow-unregistered-dialect'], s)).toBe(0);
    expect(s.out).toBe('module {\n  "t.a"() : () -> () loc(#loc1)\n} loc(#loc)\n#loc = loc("<stdin>":0:0)\n#loc1 = loc("x.py":3:4)\n\n');
  });

  it('rejects unregistered ops unless --allow-unregistered-dialect, with a located diagnostic and exit 1', async () => {
    const text = '"t.a"() : () -> ()\n';
    const s = io(text);
    expect(await runCli(['opt', '-'], s)).toBe(1);
    expect(s.out).toBe('');
    // Located where mlir-opt locates it: just after the op name.
    expect(s.err).toContain('<stdin>:1:6: error: operation being parsed with an unregistered dialect');
    expect(s.err).toContain('"t.a"() : () -> ()\n     ^\n');
    const ok = io(text);
    expect(await runCli(['opt', '-', '--allow-unregistered-dialect'], ok)).toBe(0);
    expect(ok.out).toBe('module {\n  "t.a"() : () -> ()\n}\n\n');
  });

  it('reports verifier errors with the source line and a caret', async () => {
    const s = io('func.func @f(%a: i32) -> f32 {\n  return %a : i32\n}\n');
    expect(await runCli(['opt'], s)).toBe(1);
    expect(s.err.split('\n').slice(0, 3)).toEqual([
      "<stdin>:2:3: error: type of return operand 0 ('i32') doesn't match function result type ('f32') in function @f",
      '  return %a : i32',
      '  ^',
    ]);
  });

  it('writes -o only on success and leaves no partial output behind', async () => {
    const dir = tmp();
    const out = path.join(dir, 'out.mlir');
    expect(await runCli(['opt', QUICKSTART, '-o', out], io())).toBe(0);
    expect(fs.readFileSync(out, 'utf8')).toBe(QUICKSTART_OUT);
    const bad = path.join(dir, 'bad.mlir');
    fs.writeFileSync(bad, 'func.func @f() {\n  %0 = arith.addi %1, %1 : i32\n  return\n}\n');
    const failed = path.join(dir, 'failed.mlir');
    const s = io();
    expect(await runCli(['opt', bad, '-o', failed], s)).toBe(1);
    expect(fs.existsSync(failed)).toBe(false);
    expect(fs.readdirSync(dir).sort()).toEqual(['bad.mlir', 'out.mlir']);
    // An existing output is kept as it was when the run fails.
    expect(await runCli(['opt', bad, '-o', out], io())).toBe(1);
    expect(fs.readFileSync(out, 'utf8')).toBe(QUICKSTART_OUT);
  });

  it('-o - prints to standard output, as mlir-opt does', async () => {
    const dir = tmp();
    const cwd = process.cwd();
    const s = io();
    process.chdir(dir);
    try {
      expect(await runCli(['opt', QUICKSTART, '-o', '-'], s)).toBe(0);
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      process.chdir(cwd);
    }
    expect(s.out).toBe(QUICKSTART_OUT);
  });

  it('-o /dev/null writes to the device and leaves it a device', async () => {
    if (!fs.existsSync('/dev/null') || !fs.statSync('/dev/null').isCharacterDevice()) return;
    expect(await runCli(['opt', QUICKSTART, '-o', '/dev/null'], io())).toBe(0);
    expect(fs.statSync('/dev/null').isCharacterDevice()).toBe(true);
  });

  it('--split-input-file processes chunks separately and joins outputs with // -----', async () => {
    const s = io('func.func @a() {\n  return\n}\n// -----\nfunc.func @b() {\n  return\n}\n');
    expect(await runCli(['opt', '--split-input-file'], s)).toBe(0);
    expect(s.out).toBe('module {\n  func.func @a() {\n    return\n  }\n}\n\n// -----\nmodule {\n  func.func @b() {\n    return\n  }\n}\n\n');
    const bad = io('func.func @a() {\n  return\n}\n// -----\n%0 = arith.bogus\n');
    expect(await runCli(['opt', '--split-input-file'], bad)).toBe(1);
    expect(bad.err).toContain("<stdin>:5:6: error: custom op 'arith.bogus' is unknown");
  });

  it('--verify-diagnostics checks the invalid-input files (exit 0) and reports mismatches (exit 1)', async () => {
    const reg = io();
    expect(await runCli(['opt', path.join(INVALID, 'registered.mlir'), '--split-input-file', '--verify-diagnostics'], reg)).toBe(0);
    expect(reg.err).toBe('');
    const wrong = io('func.func @f() {\n  // expected-error@+1 {{something else}}\n  %0 = arith.constant 300 : i8\n  return\n}\n');
    expect(await runCli(['opt', '--verify-diagnostics'], wrong)).toBe(1);
    expect(wrong.err).toContain('unexpected error: integer constant out of range for attribute');
    expect(wrong.err).toContain('expected error "something else" was not produced');
  });

  it('--timing prints a time report to stderr', async () => {
    const s = io();
    expect(await runCli(['opt', QUICKSTART, '--timing'], s)).toBe(0);
    expect(s.err).toContain('Execution time report');
    expect(s.err).toMatch(/Parser\n/);
    expect(s.out).toBe(QUICKSTART_OUT);
  });

  it('rejects unknown options, extra inputs, unreadable files and unknown passes with exit 1', async () => {
    const a = io();
    expect(await runCli(['opt', '--bogus'], a)).toBe(1);
    expect(a.err).toContain("raptor opt: unknown option '--bogus'");
    const b = io();
    expect(await runCli(['opt', 'a.mlir', 'b.mlir'], b)).toBe(1);
    const c = io();
    expect(await runCli(['opt', path.join(tmp(), 'missing.mlir')], c)).toBe(1);
    expect(c.err).toContain('cannot read');
    const d = io('');
    expect(await runCli(['opt', '-', '--pass-pipeline=builtin.module(no-such-pass)'], d)).toBe(1);
    expect(d.err).toContain("invalid --pass-pipeline 'builtin.module(no-such-pass)'");
    expect(d.err).toContain("'no-such-pass' does not refer to a registered pass or pass pipeline");
    const e = io('');
    expect(await runCli(['opt', '-o'], e)).toBe(1);
  });

  it('an internal error exits 2 with "internal error", the stack and the invocation', async () => {
    const s = io();
    s.readStdin = async () => {
      throw new Error('boom');
    };
    expect(await runCli(['opt', '-'], s)).toBe(2);
    expect(s.err).toContain('internal error');
    expect(s.err).toContain('raptor opt -');
    expect(s.err).toContain('Error: boom');
  });

  it('--pass-pipeline=builtin.module(canonicalize) folds constants; --print-ir-after-all dumps to stderr', async () => {
    const text = 'func.func @f() -> i32 {\n  %a = arith.constant 6 : i32\n  %b = arith.constant 7 : i32\n  %c = arith.muli %a, %b : i32\n  return %c : i32\n}\n';
    const s = io(text);
    expect(await runCli(['opt', '-', '--pass-pipeline=builtin.module(canonicalize)', '--print-ir-after-all'], s)).toBe(0);
    expect(s.out).toBe('module {\n  func.func @f() -> i32 {\n    %c42_i32 = arith.constant 42 : i32\n    return %c42_i32 : i32\n  }\n}\n\n');
    expect(s.err).toContain('// -----// IR Dump After Canonicalizer (canonicalize) //----- //');
    if (fs.existsSync(MLIR_OPT)) {
      const theirs = spawnSync(MLIR_OPT, ['--pass-pipeline=builtin.module(canonicalize)', '-'], { input: text, encoding: 'utf8' });
      expect(s.out).toBe(theirs.stdout);
    }
  });

  it('an exception inside a pass is an internal error (exit 2) that saves the input for the report', async () => {
    const registry = createRaptorPassRegistry();
    registry.registerPass(() =>
      createPass({
        argument: 'explode',
        run() {
          throw new Error('invariant broken');
        },
      }),
    );
    const text = 'func.func @f() {\n  return\n}\n';
    const s = io(text);
    const args = parseOptArgs(['-', '--pass-pipeline=builtin.module(explode)'], s);
    let error: Error | undefined;
    try {
      await runOpt(args as Exclude<typeof args, number>, s, registry);
    } catch (e) {
      error = e as Error;
    }
    expect(error?.message).toBe('invariant broken');
    const saved = /saved to (\S+)/.exec(error?.stack ?? '')![1]!;
    expect(fs.readFileSync(saved, 'utf8')).toBe(text);
    fs.rmSync(saved);
  });

  it('--pass-pipeline runs cse and canonicalize like mlir-opt', async () => {
    const text =
      'func.func @f(%a: i32) -> i32 {\n  %0 = arith.addi %a, %a : i32\n  %1 = arith.addi %a, %a : i32\n  %2 = arith.muli %0, %1 : i32\n  %c0 = arith.constant 0 : i32\n  %3 = arith.addi %2, %c0 : i32\n  return %3 : i32\n}\n';
    const s = io(text);
    expect(await runCli(['opt', '-', '--pass-pipeline=builtin.module(func.func(cse),canonicalize)'], s)).toBe(0);
    expect(s.out).toBe('module {\n  func.func @f(%arg0: i32) -> i32 {\n    %0 = arith.addi %arg0, %arg0 : i32\n    %1 = arith.muli %0, %0 : i32\n    return %1 : i32\n  }\n}\n\n');
    if (fs.existsSync(MLIR_OPT)) {
      const theirs = spawnSync(MLIR_OPT, ['--pass-pipeline=builtin.module(func.func(cse),canonicalize)', '-'], { input: text, encoding: 'utf8' });
      expect(s.out).toBe(theirs.stdout);
    }
  });

  it('canonicalize reassociates arith constants exactly like mlir-opt --canonicalize', async () => {
    const file = path.join(EXAMPLES, 'canonicalize.mlir');
    const s = io();
    expect(await runCli(['opt', file, '--pass-pipeline=builtin.module(canonicalize)'], s)).toBe(0);
    expect(s.out).toContain('%0 = arith.addi %arg0, %c3_i32 overflow<nsw> : i32');
    expect(s.out).toContain('%3 = arith.muli %arg0, %c10_i32 : i32');
    expect(s.out).toContain('return %0, %1, %2, %3, %arg1 : i32, i32, i32, i32, index');
    if (fs.existsSync(MLIR_OPT)) {
      const theirs = spawnSync(MLIR_OPT, ['--canonicalize', file], { encoding: 'utf8' });
      expect(s.out).toBe(theirs.stdout);
    }
  });

  it('--help prints the usage', async () => {
    const s = io();
    expect(await runCli(['opt', '--help'], s)).toBe(0);
    expect(s.out).toContain('usage: raptor opt');
  });
});

describe('raptor opt SSA names', () => {
  /** The quickstart example with its own names (as mlir-opt would print it if it kept them). */
  const QUICKSTART_NAMED = QUICKSTART_OUT.replace('%arg0: tensor<1x4xf32>, %arg1', '%x: tensor<1x4xf32>, %y')
    .replace('%cst = arith.constant dense<0.000000e+00>', '%zero = arith.constant dense<0.000000e+00>')
    .replace('%0 = arith.addf %arg0, %arg1', '%sum = arith.addf %x, %y')
    .replace('%1 = arith.maximumf %0, %cst', '%relu = arith.maximumf %sum, %zero')
    .replace('return %1 : tensor', 'return %relu : tensor')
    .replace('@clamp(%arg0: i32)', '@clamp(%i: i32)')
    .replace(/%c(4|1|42)_i32/g, '%c$1')
    .replace('%0 = arith.muli %arg0, %c4', '%scaled = arith.muli %i, %c4')
    .replace('%1 = arith.addi %0, %c1', '%next = arith.addi %scaled, %c1')
    .replace('%2 = arith.cmpi sgt, %1, %c42', '%big = arith.cmpi sgt, %next, %c42')
    .replace('%3 = arith.select %2, %c42, %1', '%r = arith.select %big, %c42, %next')
    .replace('return %3 : i32', 'return %r : i32');

  it('--retain-identifier-names prints the names of the input', async () => {
    const s = io();
    expect(await runCli(['opt', QUICKSTART, '--retain-identifier-names'], s)).toBe(0);
    expect(s.err).toBe('');
    expect(s.out).toBe(QUICKSTART_NAMED);
    expect(s.out).not.toContain('%arg0');
    // its output is a fixed point, and survives the generic form
    const again = io(s.out);
    expect(await runCli(['opt', '--retain-identifier-names'], again)).toBe(0);
    expect(again.out).toBe(s.out);
    const generic = io();
    expect(await runCli(['opt', QUICKSTART, '--retain-identifier-names', '--print-generic'], generic)).toBe(0);
    expect(generic.out).toContain('^bb0(%x: tensor<1x4xf32>, %y: tensor<1x4xf32>):');
    const back = io(generic.out);
    expect(await runCli(['opt', '-', '--retain-identifier-names'], back)).toBe(0);
    expect(back.out).toBe(QUICKSTART_NAMED);
    // without the flag, mlir-opt's numbering
    const plain = io(s.out);
    expect(await runCli(['opt'], plain)).toBe(0);
    expect(plain.out).toBe(QUICKSTART_OUT);
  });

  it('--retain-identifier-names keeps the names of a spat compute batch (region arguments of a custom parser)', async () => {
    const text = [
      'module {',
      '  func.func @batch(%x: tensor<1x8xf32>) -> tensor<2x1x4xf32> {',
      '    %fragments = spat.graph_compute_batch %lane = 0 to 2 [] = [] (%in) = (%x) shared_outs(%slots) crossbarWeights 0 : [] (tensor<1x8xf32>) -> tensor<2x1x4xf32> {',
      '      %offset = affine.apply affine_map<(d0) -> (d0 * 4)>(%lane)',
      '      %fragment = tensor.extract_slice %in[0, %offset] [1, 4] [1, 1] : tensor<1x8xf32> to tensor<1x4xf32>',
      '      %v = spat.relu(%fragment) : tensor<1x4xf32> -> tensor<1x4xf32>',
      '      spat.in_parallel {',
      '        tensor.parallel_insert_slice %v into %slots[%lane, 0, 0] [1, 1, 4] [1, 1, 1] : tensor<1x4xf32> into tensor<2x1x4xf32>',
      '      }',
      '    }',
      '    return %fragments : tensor<2x1x4xf32>',
      '  }',
      '}',
      '',
      '',
    ].join('\n');
    const s = io(text);
    expect(await runCli(['opt', '--retain-identifier-names'], s)).toBe(0);
    expect(s.err).toBe('');
    expect(s.out).toBe(text.replace('affine_map<(d0) -> (d0 * 4)>', '#map').replace('module {', '#map = affine_map<(d0) -> (d0 * 4)>\nmodule {'));
    const plain = io(text);
    expect(await runCli(['opt'], plain)).toBe(0);
    expect(plain.out).toContain('spat.graph_compute_batch %lane = 0 to 2 [] = [] (%arg) = (%arg0) shared_outs(%out)');
  });

  it('--mlir-use-nameloc-as-prefix names values after their NameLocs exactly as mlir-opt 22', async () => {
    const input = path.join(NAMES, 'nameloc.mlir');
    const s = io();
    expect(await runCli(['opt', input, '--allow-unregistered-dialect', '--split-input-file', '--mlir-use-nameloc-as-prefix'], s)).toBe(0);
    expect(s.out).toBe(fs.readFileSync(path.join(NAMES, 'nameloc.expected'), 'utf8'));
    if (fs.existsSync(MLIR_OPT)) {
      const theirs = spawnSync(MLIR_OPT, ['--allow-unregistered-dialect', '--split-input-file', '--mlir-use-nameloc-as-prefix', input], { encoding: 'utf8' });
      expect(s.out).toBe(theirs.stdout);
    }
  });

  it('the usage lists both options', async () => {
    const s = io();
    expect(await runCli(['opt', '--help'], s)).toBe(0);
    expect(s.out).toContain('--retain-identifier-names');
    expect(s.out).toContain('--mlir-use-nameloc-as-prefix');
    expect(parseOptArgs(['--retain-identifier-names', '--mlir-use-nameloc-as-prefix'], io())).toMatchObject({ retainIdentifierNames: true, useNameLocAsPrefix: true });
  });
});
