/** Every message text of the scheduler package. */
export const SchedulerMessages = {
  // spat-schedule
  unknownStrategy: (name: string, known: readonly string[]) =>
    `spat-schedule: unknown strategy '${name}'; the strategies are: ${known.join(', ')} (or give plugin=PATH)`,
  strategyAndPlugin: () => `spat-schedule: give either strategy=NAME or plugin=PATH, not both`,
  unknownStrategyOption: (strategy: string, option: string, known: readonly string[]) =>
    `spat-schedule: strategy '${strategy}' has no option '${option}'; its options are: ${known.join(', ') || '(none)'}`,
  badStrategyOption: (strategy: string, option: string, value: string, expected: string) =>
    `spat-schedule: option '${option}' of strategy '${strategy}' expects ${expected}, got '${value}'`,
  pluginNotLoaded: (path: string, reason: string) =>
    `spat-schedule: cannot load the scheduler plug-in '${path}': ${reason} (an ES module plug-in can be preloaded with loadSchedulerPlugin(path))`,
  pluginNotAScheduler: (path: string) =>
    `spat-schedule: the default export of plug-in '${path}' is not a Scheduler (needs name, optionsSchema and schedule(module, target, options))`,
  pluginThrew: (name: string, message: string) => `spat-schedule: scheduler '${name}' threw: ${message}`,
  noTarget: () => `spat-schedule: no target machine in the pass context (key 'raptor.target'); the default target is used`,
  unloweredPlan: (op: string) =>
    `spat-schedule: '${op}' is still a plan; lower plans to graph computes (plan-lowering) before scheduling`,
  hostOperation: (op: string) =>
    `spat-schedule: '${op}' between graph computes runs on the host; its consumers read it through SSA instead of a channel (only spat.blueprint is forwarded into consumers)`,
  capacity: (needed: number, available: number, largest: string, largestCrossbars: number) =>
    `spat-schedule: the model needs ${needed} crossbars for one copy of its weights but the target has ${available} ` +
    `(largest layer ${largest}: ${largestCrossbars} crossbars); use a target with more cores or crossbars per core`,
  computeTooLarge: (node: string, crossbars: number, perCore: number) =>
    `spat-schedule: ${node} holds ${crossbars} crossbars in one copy but a core has ${perCore}; splitting one compute across cores is not supported yet`,
  // spat-split-oversized-computes (run by spat-schedule before workload analysis)
  splitImpossible: (node: string, crossbars: number, perCore: number, reason: string) =>
    `spat-split-oversized-computes: ${node} holds ${crossbars} crossbars in one copy but a core has ${perCore}, and it cannot be split into column parts of at most ${perCore}: ${reason}`,
  splitReasonRows: (block: number, crossbars: number) =>
    `its column block ${block} (one accumulation chain) alone needs ${crossbars} crossbars; splitting one chain across cores (partial sums and an add) is not supported yet`,
  splitReasonNotConcat: () =>
    `its published value is not a spat.concat of column blocks (optionally followed by column-wise spat.vadd/vsub/vmul/vmax/relu/sigmoid); splitting this form is not supported yet`,
  splitReasonSideWeights: () => `some spat.wvmm is outside the concatenated column blocks; splitting this form is not supported yet`,
  splitReasonBlocks: () => `its body has more than one block; splitting it is not supported yet`,
  splitReasonResults: (n: number) => `it has ${n} results; splitting a compute with other than one result is not supported yet`,
  splitReasonPublication: () => `its body does not end in one publication (spat.in_parallel with one tensor.parallel_insert_slice, or spat.yield of one value); splitting it is not supported yet`,
  splitReasonUser: (op: string) => `its result is read by '${op}', not by graph computes or func.return; splitting a compute read that way is not supported yet`,
  noPacking: (strategy: string, cores: number, detail?: string) =>
    `spat-schedule: strategy '${strategy}' found no mapping of the graph computes onto ${cores} cores${detail ? ` (${detail})` : ''}`,
  replicaCrossbars: (needed: number, available: number, node: string, replicas: number, crossbars: number) =>
    `the replicas local memory needs take ${needed} crossbars and the target has ${available}; the largest share is ${node}: ${replicas} replicas x ${crossbars} crossbars`,
  localMemoryPacking: (replicas: number, largest: string, bytes: number, capacity: number) =>
    `the replicas fit the crossbars but no packing keeps every core within its local memory (the same search without that constraint finds packings): the fewest replicas local memory allows are ${replicas}, taking up to ${bytes} of a core's ${capacity} bytes each (${largest}), beside the partial results kept live for readers on the same core`,
  replicaBeyondCore: (node: string, replicas: number, bytes: number, capacity: number) =>
    `${node} needs ${bytes} bytes of live local memory ${replicas > 1 ? `per replica even split over ${replicas} cores` : 'on one core'} but a core has ${capacity}`,
  noCoreFor: (node: string, replica: number, replicas: number, bytes: number, crossbars: number) =>
    `no core has room for ${node} replica ${replica} of ${replicas} (${bytes} bytes of live local memory, ${crossbars} crossbars) beside what the earlier layers keep there`,
  alreadyScheduled: () => `spat-schedule: the function has no graph computes to schedule`,
  localMemory: (core: number, bytes: number, available: number) =>
    `core ${core}: estimated peak local memory ${bytes} bytes exceeds the ${available} bytes of the target; bufferization must tile it further`,
  nodeMemory: (node: string, bytes: number, available: number, parts: string, replicas: number) =>
    `spat-schedule: ${node} needs ${bytes} bytes of live local memory on one core even split over ${replicas} ${replicas === 1 ? 'core' : 'cores'} (each holding only the windows it reads and its own results) and at window granularity (${parts}) but a core has ${available} bytes ` +
    `(target chip_config.core_config.local_memory_config.memory_size); splitting one lane's data across cores is not supported (use a target with more local memory or cores, or local-memory=report to schedule anyway)`,
  coreMemory: (strategy: string, core: number, bytes: number, available: number, at: string) =>
    `spat-schedule: strategy '${strategy}' keeps ${bytes} bytes live on core ${core} (peak at ${at}) but a core has ${available} bytes of local memory`,
  windowFallbackMemory: (strategy: string, core: number, bytes: number, available: number) =>
    `spat-schedule: strategy '${strategy}': the window pipeline would deadlock with blocking sends and receives, and at layer granularity core ${core} would keep ${bytes} bytes live (local memory ${available} bytes)`,

  // spat-verify-communication
  placementMissing: (op: string) => `'${op}' has no core placement (coreId / coreIds)`,
  placementOutOfRange: (op: string, core: number, cores: number) => `'${op}' is placed on core ${core} but the target has cores 0..${cores - 1}`,
  placementDuplicate: (op: string, core: number) => `'${op}' places two lanes on core ${core} (core ids must be distinct)`,
  notStatic: (op: string, operand: string) => `'${op}' ${operand} does not resolve to a static integer`,
  endpointMismatch: (op: string, side: string, declared: number, actual: number) =>
    `'${op}' declares ${side} core ${declared} but runs on core ${actual}`,
  missingReceive: (key: string) => `send on ${key} has no matching receive (sends and receives must pair in program order)`,
  missingSend: (key: string) => `receive on ${key} has no matching send (sends and receives must pair in program order)`,
  sizeMismatch: (key: string, sent: number, received: number) =>
    `transfer on ${key} sends ${sent} bytes but the matching receive expects ${received} bytes`,
  deadlock: (cycle: string) => `communication deadlock: the cross-core happens-before graph has a cycle: ${cycle}`,
  strategyFallback: (fallback: string, why: string, replicaCrossbars = 0) =>
    `${why.replace(/^spat-schedule: /, '')}; scheduled as ${fallback} instead${replicaCrossbars > 0 ? `, with weight replicas in ${replicaCrossbars} more crossbars` : ''} (layer after layer, no pipeline between layers; option fallback=none refuses instead)`,
  fallbackName: (strategy: string, fallback: string) => `${strategy} as ${fallback}`,
  fallbackNote: (strategy: string, why: string) => `${strategy} fell back to layer-sequential because ${why.replace(/^spat-schedule: /, '')}`,
  fallbackRefused: (why: string, fallback: string, fallbackWhy: string) => `${why}; the ${fallback} fallback does not fit either: ${fallbackWhy.replace(/^spat-schedule: /, '')}`,
  windowFallbackHost: (strategy: string) =>
    `${strategy}: the window pipeline would deadlock with blocking sends and receives, and so would whole layers through channels; activations go through host slots instead (READY/FREE)`,
  windowSendOrder: (strategy: string) =>
    `${strategy}: the window pipeline would deadlock with each fragment sent as soon as it is made; its producers send in the order a simulation of the streams found (holding made fragments until their readers take them)`,
  windowRepair: (strategy: string, layers: number) =>
    `${strategy}: the window pipeline would deadlock with blocking sends and receives; ${layers} computes on the cycles found wait for whole layers (layer granularity), the others keep the window pipeline`,
  hostFallbackDeadlock: (strategy: string, fallbacks: number, slots: number, hostBytes: number) =>
    `spat-schedule: strategy '${strategy}': ${fallbacks} partial results do not fit the host slots (${slots} slots fit the ${hostBytes} bytes of host memory and the event registers), and the channels they fall back to deadlock in this schedule's order`,
  hostSlotMemory: (strategy: string, needed: number, budget: number, hostBytes: number) =>
    `spat-schedule: strategy '${strategy}': its host slots need ${needed} bytes, even sharing bytes between slots whose readers all ran before the other's writer, but host memory has room for ${budget} (${hostBytes} bytes less the graph's inputs, outputs and host constants)`,
  hostFallbacks: (strategy: string, fallbacks: number, slots: number, hostBytes: number) =>
    `${strategy}: ${fallbacks} partial results go through channels instead of host slots (${slots} slots fit the ${hostBytes} bytes of host memory and the event registers)`,
  windowFallbackDeadlock: (strategy: string) =>
    `spat-schedule: strategy '${strategy}': the window pipeline would deadlock with blocking sends and receives, and neither whole layers through channels nor host slots give a schedule that fits and does not deadlock`,
  windowFallback: (strategy: string) =>
    `${strategy}: the window pipeline would deadlock with blocking sends and receives; consumers wait for whole layers instead (layer granularity)`,
  cycleNote: (what: string) => `on the cycle: ${what}`,
  waitNoSignals: (core: number, reg: number, awaited: number, signals: number) =>
    `wait on core ${core} event ${reg} awaits ${awaited} signals in all but only ${signals} are sent`,
  waitOvershoot: (core: number, reg: number, awaited: number, possible: number) =>
    `wait on core ${core} event ${reg} awaits ${awaited} but ${possible} signals may arrive before it (the register would exceed its awaited count)`,
  barrierMalformed: (core: number, index: number, what: string) => `layer barrier ${index} on core ${core}: ${what}`,
  barrierRegisterShared: (core: number, reg: number) =>
    `event register ${reg} on core ${core} belongs to the layer barriers (spat.layer_barrier) and is also used outside them`,
  roleMixed: (core: number, reg: number) =>
    `event register ${reg} on core ${core} is used both as a READY register (host_wait_load) and by spat.wait (FREE); roles must use separate registers`,
  leftoverSignals: (core: number, reg: number, extra: number) =>
    `event register ${reg} on core ${core} receives ${extra} signal(s) no wait consumes`,
  registerOutOfRange: (op: string, reg: number, limit: number) => `'${op}' uses event register ${reg}; the target has registers 0..${limit - 1}`,
} as const;
