export * from './type-converter';
export * from './conversion-target';
export * from './conversion-pattern';
export * from './conversion-rewriter';
export * from './dialect-conversion';
export * from './func-conversion';
