/** The memref dialect: op definitions, layout arithmetic and interpreter. */
export * from './dialect';
export * from './layout';
export * from './constraints';
export { MemRefMessages } from './diagnostics';
export * from './ops/allocation';
export * from './ops/access';
export * from './ops/globals';
export * from './ops/queries';
export * from './ops/views';
export * from './interpreter/buffer';
export * from './interpreter/interpreter';
export * from './interpreter/rules';
export * from './builders';
