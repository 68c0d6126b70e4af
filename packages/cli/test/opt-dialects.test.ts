import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '@raptor-pim/cli';
import { createRaptorContext } from '@raptor-pim/compiler';
import { createOptContext } from '../src/commands/opt';
import { captureIo } from './support/capture-io';

/** `raptor opt` knows every dialect Raptor defines, not only builtin/func/arith. */

const io = captureIo;

/** Input mixing the dialects (memory space 0 written explicitly, an inline affine map). */
const MIXED = `func.func @f(%lane: index, %x: tensor<1x8xf32>, %m: memref<4xf32, 0>) -> tensor<1x4xf32> {
  %off = affine.apply affine_map<(d0) -> (d0 * 4)>(%lane)
  %s = tensor.extract_slice %x[0, %off] [1, 4] [1, 1] : tensor<1x8xf32> to tensor<1x4xf32>
  %r = spat.relu(%s) : tensor<1x4xf32> -> tensor<1x4xf32>
  %c0 = arith.constant 0 : index
  %v = memref.load %m[%c0] : memref<4xf32, 0>
  return %r : tensor<1x4xf32>
}
`;

/**
 * What mlir-opt 22 prints for MIXED (with --allow-unregistered-dialect for the spat op): the map
 * hoisted to #map, memory space 0 dropped, SSA values renumbered.
 */
const MIXED_OUT = `#map = affine_map<(d0) -> (d0 * 4)>
module {
  func.func @f(%arg0: index, %arg1: tensor<1x8xf32>, %arg2: memref<4xf32>) -> tensor<1x4xf32> {
    %0 = affine.apply #map(%arg0)
    %extracted_slice = tensor.extract_slice %arg1[0, %0] [1, 4] [1, 1] : tensor<1x8xf32> to tensor<1x4xf32>
    %1 = spat.relu(%extracted_slice) : tensor<1x4xf32> -> tensor<1x4xf32>
    %c0 = arith.constant 0 : index
    %2 = memref.load %arg2[%c0] : memref<4xf32>
    return %1 : tensor<1x4xf32>
  }
}

`;

async function opt(text: string, ...flags: string[]): Promise<{ code: number; out: string; err: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'raptor-opt-dialects-'));
  const file = path.join(dir, 'input.mlir');
  fs.writeFileSync(file, text);
  const s = io();
  const code = await runCli(['opt', file, ...flags], s);
  fs.rmSync(dir, { recursive: true, force: true });
  return { code, out: s.out, err: s.err };
}

describe('raptor opt registers affine, tensor, scf, memref, spat and pim', () => {
  it('prints a module mixing the dialects back unchanged (custom form)', async () => {
    const r = await opt(MIXED);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toBe(MIXED_OUT);
  });

  it('survives custom -> generic -> custom', async () => {
    const generic = await opt(MIXED, '--print-generic');
    expect(generic.code).toBe(0);
    const back = await opt(generic.out);
    expect(back.err).toBe('');
    expect(back.out).toBe(MIXED_OUT);
  });

  it('verifies spat ops (a Verified rule reaches the user as a diagnostic, exit 1)', async () => {
    // ODS requires shaped operand and result types (a Verified rule; matching shapes is Assumed)
    const bad = MIXED.replace('%v = memref.load', '%bad = spat.relu(%c0) : index -> tensor<1x4xf32>\n  %v = memref.load');
    const r = await opt(bad);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/error: .*spat\.relu/);
  });

  it("registers the same dialects as the compiler's createRaptorContext (opt builds its context without loading the compiler)", () => {
    const names = (ctx: { registeredDialects: readonly { namespace: string }[] }): string[] => ctx.registeredDialects.map((d) => d.namespace).sort();
    const ours = createOptContext();
    const compilers = createRaptorContext();
    expect(names(ours)).toEqual(names(compilers));
    for (const d of compilers.registeredDialects) expect(ours.getDialect(d.namespace)).toBe(d);
  });
});
