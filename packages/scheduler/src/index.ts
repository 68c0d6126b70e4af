/**
 * @packageDocumentation
 * Scheduling of Spatial graph computes onto physical cores: the Scheduler interface, built-in strategies, communication and checking passes
 */
export {};
