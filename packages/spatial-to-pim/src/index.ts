/**
 * @packageDocumentation
 * Conversion of scheduled Spatial programs to per-core PIM streams on tensors (spat-to-pim)
 */
export {};
