/**
 * @packageDocumentation
 * Spatial layout planning: per-plan layout choice (spat-plan-layouts), materializations and the layout checking pass
 */
export {};
