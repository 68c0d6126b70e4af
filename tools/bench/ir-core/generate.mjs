// Generates the benchmark input: one func.func holding a chain of N "spat.vadd" ops in
// generic form (N = 100,000 gives about 9.5 MB).
import fs from 'node:fs';

/** The text of a chain of `n` generic `spat.vadd` ops inside one `func.func`. */
export function generateChain(n) {
  const t = 'tensor<1x4xf32>';
  const parts = [`func.func @chain(%arg0: ${t}) -> ${t} {\n`];
  parts.push(`  %0 = "spat.vadd"(%arg0, %arg0) : (${t}, ${t}) -> ${t}\n`);
  for (let i = 1; i < n; i++) parts.push(`  %${i} = "spat.vadd"(%${i - 1}, %${i - 1}) : (${t}, ${t}) -> ${t}\n`);
  parts.push(`  return %${n - 1} : ${t}\n}\n`);
  return parts.join('');
}

if (process.argv[1] && new URL(import.meta.url).pathname === fs.realpathSync(process.argv[1])) {
  const n = Number(process.argv[2] ?? 100000);
  const out = process.argv[3] ?? `chain-${n}.mlir`;
  fs.writeFileSync(out, generateChain(n));
  process.stdout.write(`${out}: ${n} ops, ${fs.statSync(out).size} bytes\n`);
}
