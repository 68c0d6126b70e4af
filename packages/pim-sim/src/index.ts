/**
 * @packageDocumentation
 * A functional, timing and energy simulator for crossbar PIM program bundles (PIMB v1 / pimsim-nn directory mode).
 */
export {};
