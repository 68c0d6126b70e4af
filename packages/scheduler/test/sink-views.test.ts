/**
 * `sinkViewsToFirstUse`: slices and reshapes of a body move right before their first user, the
 * body computes the same values, and nothing else moves.
 */
import fc from 'fast-check';
import { printOperation, type Operation } from '@raptor-pim/ir-core';
import { sinkViewsToFirstUse } from '@raptor-pim/scheduler';
import { funcOf, parseVerified, randomArgs, run, verifierMessages } from './helpers';

/** The names of the ops of the function body, in order. */
function bodyNames(module: Operation): string[] {
  return funcOf(module).regions[0]!.firstBlock!.operations.map((o) => o.name);
}

const POOL = `
func.func @main(%w: tensor<3x4xf32>) -> tensor<1x4xf32> {
  %a = tensor.extract_slice %w[0, 0] [1, 4] [1, 1] : tensor<3x4xf32> to tensor<1x4xf32>
  %b = tensor.extract_slice %w[1, 0] [1, 4] [1, 1] : tensor<3x4xf32> to tensor<1x4xf32>
  %c = tensor.extract_slice %w[2, 0] [1, 4] [1, 1] : tensor<3x4xf32> to tensor<1x4xf32>
  %m = spat.vmax %a, %b : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %n = spat.vmax %m, %c : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  func.return %n : tensor<1x4xf32>
}
`;

describe('sinkViewsToFirstUse', () => {
  it('interleaves the slices of a max-pool chain with the maxima that use them', () => {
    const module = parseVerified(POOL, 'pool.mlir');
    const args = randomArgs(funcOf(module), 7);
    const before = run(module, 'main', args);
    expect(before.ok).toBe(true);
    // %a and %b go to the first vmax, %c to the second.
    expect(sinkViewsToFirstUse(funcOf(module).regions[0]!.firstBlock!)).toBe(3);
    expect(bodyNames(module)).toEqual([
      'tensor.extract_slice',
      'tensor.extract_slice',
      'spat.vmax',
      'tensor.extract_slice',
      'spat.vmax',
      'func.return',
    ]);
    expect(verifierMessages(module)).toEqual([]);
    expect(run(module, 'main', args)).toEqual(before);
  });

  it('moves nothing when every view is already next to its first user', () => {
    const text = `
func.func @main(%w: tensor<2x4xf32>) -> tensor<1x4xf32> {
  %a = tensor.extract_slice %w[0, 0] [1, 4] [1, 1] : tensor<2x4xf32> to tensor<1x4xf32>
  %r = spat.relu(%a) : tensor<1x4xf32> -> tensor<1x4xf32>
  func.return %r : tensor<1x4xf32>
}
`;
    const module = parseVerified(text, 'next.mlir');
    const printed = printOperation(module);
    expect(sinkViewsToFirstUse(funcOf(module).regions[0]!.firstBlock!)).toBe(0);
    expect(printOperation(module)).toBe(printed);
  });

  it('keeps a chain of views in order before their user (slice, then reshape)', () => {
    const text = `
func.func @main(%w: tensor<2x2x2xf32>) -> tensor<1x4xf32> {
  %a = tensor.extract_slice %w[0, 0, 0] [1, 2, 2] [1, 1, 1] : tensor<2x2x2xf32> to tensor<2x2xf32>
  %b = tensor.collapse_shape %a [[0, 1]] : tensor<2x2xf32> into tensor<4xf32>
  %c = tensor.expand_shape %b [[0, 1]] output_shape [1, 4] : tensor<4xf32> into tensor<1x4xf32>
  %d = tensor.extract_slice %w[1, 0, 0] [1, 2, 2] [1, 1, 1] : tensor<2x2x2xf32> to tensor<2x2xf32>
  %e = tensor.collapse_shape %d [[0, 1]] : tensor<2x2xf32> into tensor<4xf32>
  %f = tensor.expand_shape %e [[0, 1]] output_shape [1, 4] : tensor<4xf32> into tensor<1x4xf32>
  %r = spat.relu(%f) : tensor<1x4xf32> -> tensor<1x4xf32>
  %s = spat.vadd %c, %r : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  func.return %s : tensor<1x4xf32>
}
`;
    const module = parseVerified(text, 'chain.mlir');
    expect(sinkViewsToFirstUse(funcOf(module).regions[0]!.firstBlock!)).toBe(3);
    expect(verifierMessages(module)).toEqual([]);
    // %a, %b, %c sink together, in order, to the vadd that uses %c (after the relu).
    expect(bodyNames(module)).toEqual([
      'tensor.extract_slice',
      'tensor.collapse_shape',
      'tensor.expand_shape',
      'spat.relu',
      'tensor.extract_slice',
      'tensor.collapse_shape',
      'tensor.expand_shape',
      'spat.vadd',
      'func.return',
    ]);
  });

  it('keeps values and dominance on random bodies of slices and element-wise ops (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.nat(), fc.nat()), { minLength: 1, maxLength: 24 }), (steps) => {
        // Values: v0..; each step either slices a row of the argument or combines two values.
        const lines: string[] = [];
        let count = 0;
        for (const [kind, x, y] of steps) {
          if (kind <= 1 || count === 0) lines.push(`  %v${count} = tensor.extract_slice %w[${x % 4}, 0] [1, 4] [1, 1] : tensor<4x4xf32> to tensor<1x4xf32>`);
          else if (kind === 2) lines.push(`  %v${count} = spat.vadd %v${x % count}, %v${y % count} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>`);
          else lines.push(`  %v${count} = spat.vmax %v${x % count}, %v${y % count} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>`);
          count++;
        }
        const text = `func.func @main(%w: tensor<4x4xf32>) -> tensor<1x4xf32> {\n${lines.join('\n')}\n  func.return %v${count - 1} : tensor<1x4xf32>\n}\n`;
        const module = parseVerified(text, 'random.mlir');
        const args = randomArgs(funcOf(module), steps.length);
        const before = run(module, 'main', args);
        sinkViewsToFirstUse(funcOf(module).regions[0]!.firstBlock!);
        expect(verifierMessages(module)).toEqual([]);
        expect(run(module, 'main', args)).toEqual(before);
        // Every slice with a user comes right before an op that uses it, or before another slice sunk to the same user.
        const ops = funcOf(module).regions[0]!.firstBlock!.operations;
        ops.forEach((op, i) => {
          if (op.name !== 'tensor.extract_slice' || op.getResult(0).useEmpty) return;
          const users = new Set(op.getResult(0).users);
          let j = i + 1;
          while (j < ops.length && ops[j]!.name === 'tensor.extract_slice' && !users.has(ops[j]!)) j++;
          expect(users.has(ops[j]!)).toBe(true);
        });
      }),
      { numRuns: 60 },
    );
  });
});
