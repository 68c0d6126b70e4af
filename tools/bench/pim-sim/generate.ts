/**
 * The generated benchmark bundle: a vector-heavy program for 64 cores (vector ops of 64 f32
 * elements, a ring send/recv every 64 operations, scalar address updates).
 */
import { createBundle, defaultHardwareConfig, meshNetworkTable } from '@raptor-pim/pim-target';
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
