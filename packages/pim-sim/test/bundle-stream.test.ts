/**
 * The streaming reader: programs decoded one core at a time and kept compiled, with views
 * that rebuild the decoder's instruction objects; it must not change what is simulated or
 * validated, and anything unusual must go through pim-target's reader.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MNEMONICS, OPERAND_FIELDS, decodePimb, encodePimb, instructionsEqual, loadTarget, makeInstruction, readBundle, readBundleFiles } from '@raptor-pim/pim-target';
import { simulateBundle, simulateDirectory, compileProgram } from '@raptor-pim/pim-sim';
import { instructionAt, programView, readForSimulation } from '../src/bundle-stream';
import { SHARED } from './helpers';

const EXAMPLE = path.join(SHARED, 'spec/pimsim-nn-example');
const BENCH = path.join(SHARED, 'spec/pimsim-nn-bench');

function filesOf(dir: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  for (const name of fs.readdirSync(dir)) files.set(name, new Uint8Array(fs.readFileSync(path.join(dir, name))));
  return files;
}

describe('bundle-stream', () => {
  test('instructionAt rebuilds what the PIMB decoder gives, field order included', () => {
    // Every micro-benchmark program (JSON in the bench), through PIMB and back.
    const names = fs.readdirSync(BENCH).filter((n) => fs.existsSync(path.join(BENCH, n, 'prog/config.json')));
    expect(names.length).toBe(185);
    let checked = 0;
    for (const name of names) {
      const bundle = readBundle(path.join(BENCH, name, 'prog')).value;
      for (const program of bundle?.programs ?? []) {
        const bytes = encodePimb(program).bytes;
        if (!bytes) continue;
        const decoded = decodePimb(bytes);
        if (!decoded.instructions || decoded.diagnostics.some((d) => d.severity === 'error')) continue;
        const compiled = compileProgram(decoded.instructions);
        decoded.instructions.forEach((ins, pc) => {
          const again = instructionAt(compiled, pc);
          expect(instructionsEqual(again, ins)).toBe(true);
          expect(Object.keys(again)).toEqual(Object.keys(ins));
          checked++;
        });
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  test('instructionAt matches the decoder for every mnemonic', () => {
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % 200;
    let checked = 0;
    for (const op of MNEMONICS) {
      const fields: Record<string, number | boolean> = {};
      for (const f of OPERAND_FIELDS[op]) fields[f] = f === 'relu' ? next() % 2 === 1 : f === 'rs2' && (op === 'sadd' || op === 'ssub' || op === 'smul') ? 0 : next() % 32;
      const encoded = encodePimb([makeInstruction(op, fields as never)]);
      if (!encoded.bytes) continue; // opcodes PIMB cannot hold
      const decoded = decodePimb(encoded.bytes).instructions;
      if (!decoded || decoded.length !== 1) continue;
      const again = instructionAt(compileProgram(decoded), 0);
      expect(again).toEqual(decoded[0]);
      expect(Object.keys(again)).toEqual(Object.keys(decoded[0]));
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(MNEMONICS.length - 1);
  });

  test('a program view reads like the array it stands for', () => {
    const decoded = decodePimb(new Uint8Array(fs.readFileSync(path.join(EXAMPLE, 'prog-pim/core_0.pim')))).instructions!;
    const view = programView(compileProgram(decoded));
    expect(view.length).toBe(decoded.length);
    expect(view[0]).toEqual(decoded[0]);
    expect(view[decoded.length]).toBeUndefined();
    const seen: string[] = [];
    view.forEach((ins, i) => seen.push(`${i}:${ins.op}`));
    expect(seen).toEqual(decoded.map((ins, i) => `${i}:${ins.op}`));
    expect(view.map((ins) => ins.op)).toEqual(decoded.map((ins) => ins.op));
    expect(Reflect.set(view, 0, decoded[1])).toBe(false);
  });

  test('PIMB directories are streamed; JSON programs go through the reader', () => {
    const pim = readForSimulation(filesOf(path.join(EXAMPLE, 'prog-pim')));
    expect(pim.compiled).toHaveLength(2);
    const reference = readBundleFiles(filesOf(path.join(EXAMPLE, 'prog-pim'))).value!;
    pim.read.value!.programs.forEach((program, core) => {
      expect(program.length).toBe(reference.programs[core].length);
      program.forEach((ins, pc) => expect(instructionsEqual(ins, reference.programs[core][pc])).toBe(true));
    });
    const json = readForSimulation(filesOf(path.join(EXAMPLE, 'prog-json')));
    expect(json.compiled).toBeUndefined();
    expect(json.read.value!.programs[0].length).toBe(reference.programs[0].length);
  });

  test('a bad PIMB file gives exactly the reader’s diagnostics', () => {
    const files = filesOf(path.join(EXAMPLE, 'prog-pim'));
    const bad = files.get('core_1.pim')!.slice(0, 30); // truncated records
    files.set('core_1.pim', bad);
    const streamed = readForSimulation(files);
    expect(streamed.compiled).toBeUndefined();
    expect(streamed.read.diagnostics).toEqual(readBundleFiles(files).diagnostics);
  });

  test('simulating a directory equals simulating the bundle pim-target reads', () => {
    const target = loadTarget(path.join(EXAMPLE, 'arch/latency_config.json')).value!;
    const streamed = simulateDirectory(path.join(EXAMPLE, 'prog-pim'), { target });
    const whole = simulateBundle(readBundle(path.join(EXAMPLE, 'prog-pim')).value!, { target });
    expect(streamed.ok).toBe(true);
    expect(streamed.timing).toEqual(whole.timing);
    expect(streamed.compatibility).toEqual(whole.compatibility);
    expect(streamed.diagnostics).toEqual(whole.diagnostics);
  });
});
