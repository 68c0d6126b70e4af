/**
 * Every message text the layout planner emits, in one place: gate refusals (why a row-strip
 * alternative is not offered), planner diagnostics and layout-verification errors.
 */

/** Gate refusal reasons (the `reason` of a failed {@link GateVerdict}). */
export const GateMessages = {
  notStaticTensor: (what: string, type: string) => `${what} must be a static ranked tensor, got ${type}`,
  notRank: (what: string, type: string, rank: number) => `${what} must have rank ${rank}, got ${type}`,
  notPositive: (what: string, value: number) => `${what} must be positive, got ${value}`,
  negative: (what: string, value: number) => `${what} must be non-negative, got ${value}`,
  groupDivides: (group: number, what: string, value: number) => `group ${group} must divide ${what} ${value}`,
  weightShape: (got: string, expected: string) => `weight shape ${got} does not match [Cout, Cin/group, kh, kw] = ${expected}`,
  outputShape: (what: string, got: number, expected: number) => `output ${what} is ${got}, the window formula gives ${expected}`,
  batchChannel: (input: string, output: string) => `batch and channel dimensions of ${input} and ${output} must match`,
  padCoversWindow: (axis: string, pad: number, extent: number) =>
    `${axis} padding ${pad} is not smaller than the dilated window extent ${extent} (a window would contain only padding)`,
  workingSet: (what: string, bytes: number, limit: number) =>
    `${what} needs ${bytes} bytes of local memory per lane, the target has ${limit} (local_memory_config.memory_size)`,
  crossbarBudget: (tiles: number, limit: number) =>
    `the weights need ${tiles} crossbar tiles, the target has ${limit} (core_cnt x xbar_array_count)`,
  flattenOrder: (channels: number, spatial: number) =>
    `row strips of ${channels} channels x ${spatial} pixels are not in NCHW flatten order (needs channels == 1 or H*W == 1; use a materialization)`,
  biasShape: (type: string, channels: number) => `bias ${type} is not a scalar, [${channels}], [1, ${channels}] or [1, ${channels}, 1, 1] static tensor`,
} as const;

/** Diagnostics of `spat-plan-layouts`. */
export const PlannerMessages = {
  noCapability: (name: string) =>
    `spat-plan-layouts: '${name}' declares SpatialLayoutCapabilityInterface but has no registered layout capability (register one with LayoutCapabilityRegistry)`,
  nonConvergence: (rounds: number, plans: number) =>
    `spat-plan-layouts: layout selection did not converge within ${rounds} rounds (2 x ${plans} plans + 1); rerun with solver=exact or disable-spatial-planning`,
  infeasible: (name: string, operand: number, from: string, to: string) =>
    `spat-plan-layouts: '${name}' operand #${operand} is supplied in ${from}, which no supported materialization converts to ${to}`,
  exactBudget: (budget: number) =>
    `spat-plan-layouts: the exact solver needs more than ${budget} branchings on this plan graph; using local search instead`,
  debugScore: (label: string, total: number, intrinsic: number, mismatches: number, downstream: number) =>
    `${label} score ${total} (intrinsic ${intrinsic}, mismatches ${mismatches}, downstream ${downstream})`,
  debugNotOffered: (label: string, required: string) => `${label} not offered (needs operands already in ${required})`,
  debugRefused: (label: string, gate: string, parameter: string, reason: string) => `${label} refused by ${gate} (${parameter}: ${reason})`,
  debugDisabled: () => 'spatial planning is disabled: alternative 0',
  debugExact: (total: number) => `minimum-cost labelling of the plan graph (total cost ${total})`,
  debugOnly: () => 'the only offered alternative',
  debugTie: (other: string, score: number) => `ties keep the current selection (${other} also scores ${score})`,
  debugCheaper: (kept: boolean, score: number, other: string, otherScore: number) =>
    `${kept ? 'dense start kept' : 'strictly cheaper'}: ${score} < ${other} ${otherScore}`,
  debugRound: (round: number) => `; last visited in round ${round}`,
  debugPlan: (name: string, index: number, parts: readonly string[], winner: string, why: string) =>
    `spat-plan-layouts: '${name}' #${index}: alternatives: ${parts.join('; ')}; winner ${winner}: ${why}`,
  infeasibleUse: (from: string, to: string) =>
    `spat-plan-layouts: this use needs ${to}, but the value is ${from} and no supported materialization converts it`,
} as const;

/** Diagnostics of `spat-verify-layouts`. */
export const VerifyMessages = {
  missing: () => `has no selected layouts (spat.operand_layouts / spat.result_layout); run spat-plan-layouts first`,
  malformed: (operands: number) => `has malformed selected layouts: expected spat.operand_layouts with ${operands} #spat<physical_layout> entries and a #spat<physical_layout> spat.result_layout`,
  operandMismatch: (operand: number, recorded: string, supplied: string) =>
    `operand #${operand} is recorded as ${recorded} but its producer supplies ${supplied} (insert spat.materialize_layout)`,
  notAnAlternative: (combination: string) => `selected layouts ${combination} are not an alternative of this plan in the compatibility matrix`,
  gateRefused: (combination: string, gate: string, reason: string) => `selected layouts ${combination} need ${gate}, which refuses: ${reason}`,
  useOfNonDense: (layout: string, user: string) => `result in ${layout} is used by '${user}', which only takes dense_nchw (insert spat.materialize_layout)`,
  rowStripType: (layout: string, type: string) => `${layout} needs a static rank-4 tensor, got ${type}`,
  materializeSource: (recorded: string, supplied: string) => `sourcePhysicalLayout is ${recorded} but the input is ${supplied}`,
  materializeIdentity: (layout: string) => `converts ${layout} to itself`,
  materializeUnsupported: (source: string, target: string, supported: string) => `converts ${source} to ${target}, which is not a supported conversion (${supported})`,
  materializeShape: (input: string, output: string) => `changes the logical type from ${input} to ${output}`,
} as const;
