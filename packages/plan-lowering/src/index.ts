/**
 * @packageDocumentation
 * Lowering of spat plans and layout materializations to graph computes with crossbar-tiled weights (spat-lower-plans)
 */
export {};
