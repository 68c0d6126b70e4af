/**
 * ONNX backend conformance end to end, on a bounded sample: for one fast case of every
 * operator that compiles today, and one case of every kind of refusal, `raptor-compile` on the
 * default target, pim-sim, and the comparison with the case's `output_<k>.pb`
 * (support/conformance-compile.ts). A sampled case that matched must keep matching; a known
 * refusal must stay a refusal with its diagnostic (or start matching, which is logged); no case
 * may give a wrong result or crash. The whole set (243 cases) is counted by
 * `node tools/bench/compile/conformance.mjs` (26 s at 42c2692); see the root README.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { collectCases, conformanceRatio, refusalGroup, runConformanceCase, type Case, type ConformanceOutcome } from './support/conformance-compile';
import { ONNX_TESTDATA_DIR } from '../../onnx-frontend/test/helpers';

jest.setTimeout(300_000);

/** The fastest matching case of each operator (from a full conformance run). */
const MATCHED: readonly string[] = [
  'node/test_add_bcast',
  'node/test_averagepool_2d_precomputed_strides',
  'pytorch-converted/test_BatchNorm3d_momentum_eval',
  'node/test_clip_splitbounds',
  'node/test_concat_2d_axis_0',
  'pytorch-converted/test_Conv1d_pad2size1',
  'node/test_depthtospace_example',
  'node/test_flatten_axis2',
  'node/test_gather_0',
  'node/test_globalaveragepool_precomputed',
  'node/test_hardsigmoid_default',
  'pytorch-converted/test_LeakyReLU_with_negval',
  'node/test_maxpool_2d_dilations',
  'node/test_mul_example',
  'node/test_constant_pad',
  'node/test_relu',
  'node/test_reshape_zero_and_negative_dim',
  'node/test_resize_upsample_sizes_nearest_round_prefer_ceil_asymmetric',
  'node/test_sigmoid',
  'node/test_slice_end_out_of_bounds',
  'pytorch-converted/test_Softmax',
  'node/test_split_variable_parts_1d',
  'node/test_squeeze_negative_axes',
  'node/test_sub_example',
  'pytorch-converted/test_Tanh',
  'node/test_transpose_all_permutations_1',
  'node/test_unsqueeze_two_axes',
  'node/test_upsample_nearest',
];

/** One case of each refusal of the full run, with its stage (or stages, `a|b`) and a substring of its diagnostic. */
const REFUSED: Readonly<Record<string, { stage: string; message: string }>> = {
  // A model without compute (its output is an input or a constant): nothing for pim-emit.
  'node/test_identity': { stage: 'codegen', message: "has no 'pim.core' or 'pim.core_batch' stream to emit" },
  // A graph output assembled on the host from several cores' fragments (batch 2 over two cores).
  'node/test_gemm_default_no_bias': { stage: 'spatial-to-pim', message: "a graph output is produced by 'spat.blueprint'" },
  // More live data on a core than its local memory (the scheduler checks it when it can, bufferization always).
  'pytorch-converted/test_MaxPool1d_stride_padding_dilation': { stage: 'scheduler|bufferization', message: '65536 bytes (target chip_config.core_config.local_memory_config.memory_size)' },
};

/** Cases that need vsoftmax (compiled again with raptor_config.allow_vsoftmax = true). */
const NEEDS_VSOFTMAX = new Set(['pytorch-converted/test_Softmax']);

const haveData = fs.existsSync(path.join(ONNX_TESTDATA_DIR, 'node'));

describe('conformance end to end (sample)', () => {
  let cases: Map<string, Case>;
  beforeAll(() => {
    cases = new Map(haveData ? collectCases().cases.map((c) => [c.key, c]) : []);
  });

  const run = (key: string): ConformanceOutcome => {
    const c = cases.get(key);
    if (!c) throw new Error(`conformance case ${key} is not collected (libonnx-testdata changed?)`);
    return runConformanceCase(c);
  };

  (haveData ? it : it.skip)('a case of every operator compiles, simulates and matches its reference', () => {
    const outcomes = MATCHED.map((key) => {
      const o = run(key);
      return [key, o.kind === 'matched' ? { kind: o.kind, vsoftmax: o.vsoftmax } : o];
    });
    expect(outcomes).toEqual(MATCHED.map((key) => [key, { kind: 'matched', vsoftmax: NEEDS_VSOFTMAX.has(key) }]));
  });

  (haveData ? it : it.skip)('the known refusals are diagnostics of the stage that lacks the piece (or now match)', () => {
    for (const [key, want] of Object.entries(REFUSED)) {
      const o = run(key);
      if (o.kind === 'matched') {
        console.log(`${key} now compiles and matches: drop it from REFUSED`);
        continue;
      }
      expect([key, o.kind]).toEqual([key, 'refused']);
      if (o.kind !== 'refused') continue;
      expect([key, want.stage.split('|').includes(o.stage), o.message]).toEqual([key, true, expect.stringContaining(want.message)]);
    }
  });
});

describe('conformance helpers', () => {
  it('conformanceRatio: onnx-frontend tolerance, exact non-finite references, length mismatches', () => {
    expect(conformanceRatio([1.0005, 2], [1, 2])).toBeLessThan(1);
    expect(conformanceRatio([1.01, 2], [1, 2])).toBeGreaterThan(1);
    expect(conformanceRatio([0, 0], [0, 0])).toBe(0);
    expect(conformanceRatio([NaN, Infinity], [NaN, Infinity])).toBe(0);
    expect(conformanceRatio([1, 0], [NaN, 0])).toBe(Infinity);
    expect(conformanceRatio([1], [1, 2])).toBe(Infinity);
  });

  it('refusalGroup: refusals for the same missing piece share a group', () => {
    const a = refusalGroup('bufferization', 'core 36: live data needs 1084008 bytes at op #441 but the local memory holds 65536 bytes');
    const b = refusalGroup('bufferization', 'core 2: live data needs 99 bytes at op #4 but the local memory holds 65536 bytes');
    expect(a).toBe(b);
    expect(a).toBe('bufferization: core N: live data needs N bytes at op #N but the local memory holds N bytes');
    expect(refusalGroup('scheduler', 'x')).not.toBe(refusalGroup('codegen', 'x'));
  });
});
