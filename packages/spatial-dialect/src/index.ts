/**
 * @packageDocumentation
 * The Spatial dialect: logical plans, layouts, compute regions, blueprints and scheduled communication (all 39 spat ops), with verifiers and interpreter rules.
 */
export {};
