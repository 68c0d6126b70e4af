/**
 * The generated benchmark bundle: a vector-heavy program for 64 cores (vector ops of 64 f32
 * elements, a ring send/recv every 64 operations, scalar address updates).
 *
 * As a script it writes the program as a bundle directory that both simulators read:
 *
 *     node tools/bench/pim-sim/run-ts.mjs generate.ts --write DIR [--instructions N] [--cores C]
 *
 * DIR receives `config.json` and `core_<id>.pim` (pimsim-nn's directory mode), Raptor's
 * `manifest.json` with the target, the NoC table `network.json`, and `arch.json`, the same
 * target as pimsim-nn's architecture JSON (its table path is `network.json`, resolved beside
 * it; pimsim-nn ignores files not starting with `core_`). Then:
 *
 *     raptor sim DIR --mode latency --json
 *     ChipTest DIR DIR/arch.json --instruction-mode=directory
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createBundle, defaultHardwareConfig, exportArchitectureJson, formatDiagnostic, meshNetworkTable, writeBundle } from '@raptor-pim/pim-target';
import type { Instruction, ProgramBundle } from '@raptor-pim/pim-target';

/** Builds the bundle with about `total` instructions over `cores` cores. */
export function vectorHeavyBundle(total: number, cores = 64): ProgramBundle {
  const perCore = Math.floor(total / cores);

  const coreProgram = (id: number): Instruction[] => {
    const p: Instruction[] = [{ op: 'setbw', ibiw: 32, obiw: 32 }];
    const v = (op: 'vvadd' | 'vvmul' | 'vvmax' | 'vvsub', rd: number, rs1: number, rs2: number): Instruction =>
      ({ op, rd, rs1, rs2, len: 64, offsetSelect: 0, offsetValue: 0 }) as Instruction;
    p.push({ op: 'sldi', rd: 1, imm: 0 }, { op: 'sldi', rd: 2, imm: 4096 }, { op: 'sldi', rd: 3, imm: 8192 }, { op: 'sldi', rd: 4, imm: 12288 });
    p.push({ op: 'sldi', rd: 8, imm: 0 }, { op: 'sldi', rd: 9, imm: id * 1024 });
    p.push({ op: 'ld', rd: 1, rs1: 8, size: 256, offsetSelect: 0, offsetValue: 0 });
    const next = (id + 1) % cores;
    const prev = (id + cores - 1) % cores;
    let k = 0;
    while (p.length < perCore - 2) {
      k++;
      if (k % 64 === 0) {
        const send: Instruction = { op: 'send', rd: 3, rs1: 3, core: next, size: 256, offsetSelect: 0, offsetValue: 0 };
        const recv: Instruction = { op: 'recv', rd: 4, core: prev, size: 256, offsetSelect: 0, offsetValue: 0 };
        if (id % 2 === 0) p.push(send, recv);
        else p.push(recv, send);
        continue;
      }
      switch (k % 5) {
        case 0:
          p.push(v('vvadd', 3, 1, 2));
          break;
        case 1:
          p.push({ op: 'vrelu', rd: 4, rs1: 3, len: 64, offsetSelect: 0, offsetValue: 0 });
          break;
        case 2:
          p.push(v('vvmul', 2, 4, 1));
          break;
        case 3:
          p.push(v('vvmax', 1, 2, 3));
          break;
        default:
          p.push({ op: 'saddi', rd: 5, rs1: 5, imm: 1 }, v('vvsub', 3, 3, 4));
      }
    }
    p.push({ op: 'st', rd: 8, rs1: 3, size: 256, offsetSelect: 0, offsetValue: 0 });
    return p;
  };

  const config = defaultHardwareConfig();
  config.chip_config.network_config.net_config_file_path = 'network.json';
  const network = meshNetworkTable({ layout: [8, 8], hopLatency: 1, hopEnergy: 1, memoryLatency: 15, memoryEnergy: 46 });
  const bundle = createBundle(cores);
  bundle.programs = Array.from({ length: cores }, (_, i) => coreProgram(i));
  bundle.arrayGroupMap = Array.from({ length: cores }, () => [1]);
  bundle.target = { config, network };
  return bundle;
}

/** What {@link writeGeneratedBundle} wrote. */
export interface GeneratedBundle {
  /** Instructions over all cores. */
  instructions: number;
  /** Core count. */
  cores: number;
  /** Files written, relative to the directory. */
  files: string[];
}

/**
 * Writes {@link vectorHeavyBundle}`(total, cores)` as a bundle directory plus `arch.json`
 * (pimsim-nn's architecture JSON of the same target). Returns undefined (after printing the
 * diagnostics) when the bundle cannot be encoded.
 */
export function writeGeneratedBundle(directory: string, total: number, cores = 64): GeneratedBundle | undefined {
  const bundle = vectorHeavyBundle(total, cores);
  const diagnostics = writeBundle(directory, bundle);
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) {
    for (const d of errors) console.error(formatDiagnostic(d));
    return undefined;
  }
  fs.writeFileSync(path.join(directory, 'arch.json'), exportArchitectureJson(bundle.target!.config));
  const files = fs.readdirSync(directory).sort();
  return { instructions: bundle.programs.reduce((a, p) => a + p.length, 0), cores: bundle.coreCount, files };
}

function option(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const dir = option(args, '--write');
  const total = Number(option(args, '--instructions') ?? 1_000_000);
  const cores = Number(option(args, '--cores') ?? 64);
  if (dir === undefined || !Number.isInteger(total) || total <= 0 || !Number.isInteger(cores) || cores < 2) {
    console.error('usage: node tools/bench/pim-sim/run-ts.mjs generate.ts --write DIR [--instructions N (default 1000000)] [--cores C >= 2 (default 64)]');
    process.exit(1);
  }
  const written = writeGeneratedBundle(path.resolve(dir), total, cores);
  if (written === undefined) process.exit(1);
  console.log(`${dir}: ${written.cores} cores, ${written.instructions} instructions (${written.files.length} files)`);
}
