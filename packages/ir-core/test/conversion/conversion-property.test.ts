import fc from 'fast-check';
import { applyFullConversion, applyPartialConversion, parseSourceString, printOperation, verify } from '../../src';
import { toyContext, toyPatterns, toyTarget, toyTypeConverter } from './toy-dialects';

type Step = { kind: 'const' | 'add' | 'neg' | 'neg64' | 'mystery' | 'other-def' | 'other-use'; a: number; b: number };

const step = fc.record({
  kind: fc.constantFrom<Step['kind']>('const', 'add', 'neg', 'neg64', 'mystery', 'other-def', 'other-use'),
  a: fc.nat(),
  b: fc.nat(),
});

/**
 * A toy.func whose body is `steps` over i32 values (operands picked among the earlier ones) and
 * i64 values (`neg64`: a toy.neg on i64, dynamically legal).
 */
function func(steps: readonly Step[]): string {
  const lines = ['"toy.func"() ({', '^bb0(%v0: i32, %w0: i64):'];
  let n = 1;
  let w = 1;
  const pick = (k: number) => `%v${k % n}`;
  for (const s of steps) {
    switch (s.kind) {
      case 'const':
        lines.push(`  %v${n++} = "toy.const"() <{value = ${s.a} : i64}> : () -> i32`);
        break;
      case 'add':
        lines.push(`  %v${n} = "toy.add"(${pick(s.a)}, ${pick(s.b)}) : (i32, i32) -> i32`), n++;
        break;
      case 'neg':
        lines.push(`  %v${n} = "toy.neg"(${pick(s.a)}) : (i32) -> i32`), n++;
        break;
      case 'neg64':
        lines.push(`  %w${w} = "toy.neg"(%w${s.a % w}) : (i64) -> i64`), w++;
        break;
      case 'mystery':
        lines.push(`  %v${n} = "toy.mystery"(${pick(s.a)}) : (i32) -> i32`), n++;
        break;
      case 'other-def':
        lines.push(`  %v${n++} = "other.def"() : () -> i32`);
        break;
      case 'other-use':
        lines.push(`  "other.use"(${pick(s.a)}) : (i32) -> ()`);
        break;
    }
  }
  lines.push(`  "toy.return"(%v${n - 1}, %w${w - 1}) : (i32, i64) -> ()`, '}) : () -> ()');
  return lines.join('\n');
}

/** One or two sibling functions. */
function program(funcs: readonly (readonly Step[])[]): string {
  return funcs.map(func).join('\n');
}

describe('dialect conversion property', () => {
  test('1,000 random legal/illegal mixes either convert completely or leave the module unchanged', () => {
    const ctx = toyContext();
    fc.assert(
      fc.property(fc.array(fc.array(step, { minLength: 0, maxLength: 6 }), { minLength: 1, maxLength: 2 }), fc.boolean(), (funcs, full) => {
        const steps = funcs.flat();
        const m = parseSourceString(ctx, program(funcs), { filename: 'random.mlir' })!;
        const before = printOperation(m);
        const convertible = !steps.some((s) => s.kind === 'mystery') && !(full && steps.some((s) => s.kind.startsWith('other')));
        const target = toyTarget(ctx);
        const patterns = toyPatterns(toyTypeConverter(ctx));
        const { result } = ctx.diagnostics.capture(() =>
          full ? applyFullConversion(m, target, patterns) : applyPartialConversion(m, target, patterns),
        );
        const after = printOperation(m);
        expect(verify(m)).toBe(true);
        expect(result.success).toBe(convertible);
        if (!result.success) {
          expect(after).toBe(before);
          expect(result.failures.length).toBeGreaterThan(0);
          return;
        }
        // Converted completely: no toy op is left but the legal toy.neg on i64, and a full
        // conversion leaves no cast.
        expect(after.replace(/"toy\.neg"\(%\w+\) : \(i64\) -> i64/g, '')).not.toMatch(/"toy\./);
        expect(after.split('"toy.neg"').length - 1).toBe(steps.filter((x) => x.kind === 'neg64').length);
        if (full) expect(after).not.toContain('unrealized_conversion_cast');
        // Casts only where an unconverted op meets a converted value.
        if (!steps.some((s) => s.kind.startsWith('other'))) expect(after).not.toContain('unrealized_conversion_cast');
      }),
      { numRuns: 1000, seed: 20261201 },
    );
  });
});
