/** Every message text of `@raptor-pim/bufferization`, in one place. */
export const BufferizationMessages = {
  unsupportedTensorOp: (op: string) =>
    `pim-bufferize: '${op}' with tensor operands or results inside a core stream is not supported yet (spat-to-pim emits pim ops, tensor.empty and index arithmetic only)`,
  constantTensorOperand: (op: string) =>
    `pim-bufferize: operand of '${op}' is a constant tensor that has no local storage; materialize it through host memory (pim.memcp_hd) before bufferization`,
  dynamicShape: (type: string) => `pim-bufferize: ${type} has no static byte size; local buffers need static shapes`,
  capacity: (core: string, need: number, position: number, capacity: number) =>
    `${core}: live data needs ${need} bytes at op #${position} but the local memory holds ${capacity} bytes (target chip_config.core_config.local_memory_config.memory_size); the schedule must keep less data live on this core`,
  plannedPeak: (core: string, peak: number, bound: number, capacity: number) =>
    `${core}: the memory plan needs ${peak} bytes (lower bound ${bound}) but the local memory holds ${capacity} bytes`,
  hostCapacity: (need: number, capacity: number) =>
    `host memory layout needs ${need} bytes but the global memory holds ${capacity} bytes (target chip_config.global_memory_config.memory_size)`,
  // pim-verify-memory
  noAddress: (core: string, alloc: string) => `${core}: ${alloc} has no planned address (run pim-plan-memory first)`,
  negativeAddress: (core: string, alloc: string, address: number) => `${core}: ${alloc} has the negative address ${address}`,
  misaligned: (core: string, alloc: string, address: number, alignment: number) =>
    `${core}: ${alloc} at address ${address} is not ${alignment}-byte aligned`,
  outOfArena: (core: string, alloc: string, start: number, end: number, capacity: number) =>
    `${core}: ${alloc} occupies bytes [${start}, ${end}) outside the local arena [0, ${capacity})`,
  overlap: (core: string, a: string, b: string, lo: number, hi: number) =>
    `${core}: ${a} and ${b} are live at the same time and overlap in bytes [${lo}, ${hi})`,
  useAfterEnd: (core: string, alloc: string, op: string, position: number, start: number, end: number) =>
    `${core}: ${alloc} is accessed by '${op}' at op #${position}, outside its live interval [${start}, ${end}]`,
  accessOutside: (core: string, alloc: string, op: string, start: number, end: number, size: number) =>
    `${core}: '${op}' accesses bytes [${start}, ${end}) of ${alloc}, which has ${size} bytes`,
  notStatic: (core: string, op: string, what: string) => `${core}: ${what} of '${op}' does not resolve to a static integer`,
  localMemorySize: (core: string, recorded: number, needed: number) =>
    `${core}: pim.local_memory_size is ${recorded} but the allocations reach byte ${needed}`,
} as const;
