// pim-bufferize + pim-plan-memory + pim-verify-memory on PIM streams on tensors (the goldens of
// spat-to-pim): the interpreter gives the same outputs on memrefs as on tensors, the plan
// verifies, every planned peak is within 1.05x of its lower bound, and the printed IR matches
// its golden file.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { printOperation } from '@raptor-pim/ir-core';
import { PimBufferizePass, PimPlanMemoryPass, type BufferizeReport, type ModuleMemoryReport } from '../src';
import { FIXTURES, parseOk, randomInputs, readFixture, runPim, runPipeline } from './support/harness';

const CASES = fs.readdirSync(path.join(FIXTURES, 'tensor-streams')).filter((f) => f.endsWith('.mlir'));

describe.each(CASES)('%s', (name) => {
  it('bufferizes, plans and verifies; the memref program computes what the tensor program does', () => {
    const module = parseOk(readFixture(`tensor-streams/${name}`));
    const inputs = randomInputs(module, name.length);
    const expected = runPim(module, inputs);
    let buf: BufferizeReport | undefined;
    let plan: ModuleMemoryReport | undefined;
    const r = runPipeline(module, 'pim-bufferize,pim-plan-memory,pim-verify-memory', [
      () => new PimBufferizePass({ onReport: (x) => (buf = x) }),
      () => new PimPlanMemoryPass({ onReport: (x) => (plan = x) }),
    ]);
    expect(r.diagnostics.map((d) => d.message)).toEqual([]);
    expect(r.ok).toBe(true);
    const printed = printOperation(module);
    expect(printed).not.toMatch(/tensor\.empty/);
    expect(runPim(module, inputs)).toEqual(expected);
    expect(buf!.streams).toBeGreaterThan(0);
    for (const s of plan!.streams) {
      expect(s.peak).toBeGreaterThanOrEqual(s.lowerBound);
      expect(s.peak).toBeLessThanOrEqual(Math.ceil(s.lowerBound * 1.05));
    }
    const again = parseOk(printed);
    expect(printOperation(again)).toBe(printed);
    const golden = path.join(FIXTURES, 'planned', name);
    fs.mkdirSync(path.dirname(golden), { recursive: true });
    if (process.env.UPDATE_GOLDEN) fs.writeFileSync(golden, printed);
    expect(fs.existsSync(golden) ? fs.readFileSync(golden, 'utf8') : `missing golden ${name} (UPDATE_GOLDEN=1 writes it)`).toBe(printed);
  });
});

it('copies a destination that is still needed and writes a dead one in place (data-movement.mlir)', () => {
  const module = parseOk(readFixture('tensor-streams/data-movement.mlir'));
  let buf: BufferizeReport | undefined;
  const r = runPipeline(module, 'pim-bufferize', [() => new PimBufferizePass({ onReport: (x) => (buf = x) })]);
  expect(r.ok).toBe(true);
  // tensor.insert_slice into %a, which later ops still read: one copy of %a.
  expect(buf!.copies).toBe(1);
  expect(buf!.inPlace).toBeGreaterThan(5);
});

it('keeps only the rows a reconstruction buffer is accessed in, then forwards the whole copy of the fragment (fragment-reconstruction.mlir)', () => {
  const module = parseOk(readFixture('tensor-streams/fragment-reconstruction.mlir'));
  let buf: BufferizeReport | undefined;
  const r = runPipeline(module, 'pim-bufferize', [() => new PimBufferizePass({ onReport: (x) => (buf = x) })]);
  expect(r.ok).toBe(true);
  // core 1: the 4x4 reconstruction buffer keeps row 2 (offsets rebased), the 4x4 host load its
  // first two rows; the copy of the received row into the reconstruction buffer is dropped.
  expect(buf).toMatchObject({ shrunk: 2, bytesSaved: 48 + 32, forwarded: 1, copies: 0 });
});

it('a reshape copy becomes a view of its source (blueprint-output.mlir: memref.collapse_shape + expand_shape, no memcp)', () => {
  const module = parseOk(readFixture('tensor-streams/blueprint-output.mlir'));
  let buf: BufferizeReport | undefined;
  const r = runPipeline(module, 'pim-bufferize,pim-plan-memory,pim-verify-memory', [() => new PimBufferizePass({ onReport: (x) => (buf = x) })]);
  expect(r.diagnostics.map((d) => d.message)).toEqual([]);
  expect(buf!.forwarded).toBe(2);
  const printed = printOperation(module);
  expect(printed.match(/memref\.expand_shape/g)).toHaveLength(2);
  expect(printed).not.toMatch(/pim\.memcp\[[^\]]*\]\([^)]*\) \{size = 32 : i32\} : memref<2x1x4xf32>, memref<2x4xf32>/);
});
