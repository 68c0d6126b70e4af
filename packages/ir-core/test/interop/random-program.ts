/** A generator of random func/arith programs (shared by the interop and folding tests). */
type Ty = 'i1' | 'i8' | 'i32' | 'i64' | 'index' | 'f16' | 'f32' | 'f64' | 'vector<4xi32>' | 'tensor<2x2xf32>';
const INT_TYPES: Ty[] = ['i8', 'i32', 'i64', 'index'];
const FLOAT_TYPES: Ty[] = ['f16', 'f32', 'f64'];
const INT_OPS = ['addi', 'subi', 'muli', 'divsi', 'divui', 'remsi', 'remui', 'ceildivsi', 'floordivsi', 'andi', 'ori', 'xori', 'shli', 'shrsi', 'shrui', 'maxsi', 'minsi', 'maxui', 'minui'];
const OVERFLOW_OPS = new Set(['addi', 'subi', 'muli', 'shli']);
const FLOAT_OPS = ['addf', 'subf', 'mulf', 'divf', 'remf', 'maximumf', 'minimumf', 'maxnumf', 'minnumf'];
const CMPI = ['eq', 'ne', 'slt', 'sle', 'sgt', 'sge', 'ult', 'ule', 'ugt', 'uge'];
const CMPF = ['false', 'oeq', 'ogt', 'oge', 'olt', 'ole', 'one', 'ord', 'ueq', 'ugt', 'uge', 'ult', 'ule', 'une', 'uno', 'true'];
const FASTMATH = ['', ' fastmath<fast>', ' fastmath<nnan>', ' fastmath<nnan,ninf>', ' fastmath<reassoc,contract>'];
const OVERFLOW = ['', ' overflow<nsw>', ' overflow<nuw>', ' overflow<nsw, nuw>'];

/** A small deterministic generator driven by fast-check's random numbers. */
export function program(seed: readonly number[]): string {
  let k = 0;
  const next = (n: number): number => seed[k++ % seed.length]! % n;
  const pick = <T>(xs: readonly T[]): T => xs[next(xs.length)]!;
  const lines: string[] = [];
  const vals: { name: string; ty: Ty }[] = [
    { name: '%a', ty: 'i32' },
    { name: '%b', ty: 'i64' },
    { name: '%x', ty: 'f32' },
    { name: '%i', ty: 'index' },
    { name: '%v', ty: 'vector<4xi32>' },
  ];
  let n = 0;
  const fresh = (): string => `%t${n++}`;
  const of = (ty: Ty) => vals.filter((v) => v.ty === ty);
  const ensure = (ty: Ty): string => {
    const have = of(ty);
    if (have.length && next(3) !== 0) return pick(have).name;
    const name = fresh();
    let lit: string;
    if (ty === 'i1') lit = next(2) ? 'true' : 'false';
    else if (ty === 'i8') lit = `${next(256) - 128} : i8`;
    else if (ty === 'i32') lit = `${pick([0, 1, -1, 42, 2147483647, -2147483648, next(100000) - 50000])} : i32`;
    else if (ty === 'i64') lit = `${pick(['0', '-9223372036854775808', '9223372036854775807', String(next(1e9) * 1e6)])} : i64`;
    else if (ty === 'index') lit = `${next(1000)} : index`;
    else if (ty === 'vector<4xi32>') lit = `dense<[${next(9)}, ${next(9) - 4}, 7, ${next(1000)}]> : vector<4xi32>`;
    else if (ty === 'tensor<2x2xf32>') lit = `dense<${pick(['1.5', '0.0', '-2.25e3', '[[1.0, 2.0], [3.0, 4.5]]'])}> : tensor<2x2xf32>`;
    else {
      const f = pick(['0.0', '-0.0', '1.0', '0.1', '3.14159', '1.0e-7', '6.5e4', '1.0e38', '-2.5e-3', (next(100000) / 7).toExponential(6)]);
      lit = `${ty === 'f16' && f === '1.0e38' ? '1.0' : f} : ${ty}`;
    }
    lines.push(`  ${name} = arith.constant ${lit}`);
    vals.push({ name, ty });
    return name;
  };
  const steps = 8 + next(10);
  for (let s = 0; s < steps; s++) {
    const kind = next(6);
    const name = fresh();
    if (kind <= 1) {
      const ty = next(5) === 0 ? 'vector<4xi32>' : pick(INT_TYPES);
      const op = pick(INT_OPS);
      const flags = OVERFLOW_OPS.has(op) ? pick(OVERFLOW) : '';
      lines.push(`  ${name} = arith.${op} ${ensure(ty)}, ${ensure(ty)}${flags} : ${ty}`);
      vals.push({ name, ty });
    } else if (kind === 2) {
      const ty = next(5) === 0 ? 'tensor<2x2xf32>' : pick(FLOAT_TYPES);
      lines.push(`  ${name} = arith.${pick(FLOAT_OPS)} ${ensure(ty)}, ${ensure(ty)}${pick(FASTMATH)} : ${ty}`);
      vals.push({ name, ty });
    } else if (kind === 3) {
      if (next(2)) lines.push(`  ${name} = arith.cmpi ${pick(CMPI)}, ${ensure('i32')}, ${ensure('i32')} : i32`);
      else lines.push(`  ${name} = arith.cmpf ${pick(CMPF)}, ${ensure('f32')}, ${ensure('f32')}${pick(FASTMATH)} : f32`);
      vals.push({ name, ty: 'i1' });
    } else if (kind === 4) {
      const ty = pick<Ty>(['i32', 'f32', 'i64']);
      lines.push(`  ${name} = arith.select ${ensure('i1')}, ${ensure(ty)}, ${ensure(ty)} : ${ty}`);
      vals.push({ name, ty });
    } else {
      const casts: [string, Ty, Ty][] = [
        ['extsi', 'i8', 'i32'], ['extui', 'i32', 'i64'], ['trunci', 'i64', 'i8'], ['index_cast', 'i32', 'index'],
        ['index_castui', 'index', 'i64'], ['sitofp', 'i32', 'f32'], ['uitofp', 'i8', 'f64'], ['fptosi', 'f32', 'i32'],
        ['fptoui', 'f64', 'i8'], ['extf', 'f16', 'f64'], ['truncf', 'f64', 'f16'], ['bitcast', 'f32', 'i32'],
      ];
      const [op, from, to] = pick(casts);
      lines.push(`  ${name} = arith.${op} ${ensure(from)} : ${from} to ${to}`);
      vals.push({ name, ty: to });
    }
  }
  const last = vals[vals.length - 1]!;
  return `func.func @f${seed[0]}(%a: i32, %b: i64, %x: f32, %i: index, %v: vector<4xi32>) -> ${last.ty} {\n${lines.join('\n')}\n  return ${last.name} : ${last.ty}\n}\n`;
}

