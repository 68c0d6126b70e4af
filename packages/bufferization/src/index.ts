/**
 * @packageDocumentation
 * PIM bufferization: tensors to memrefs, the per-core memory plan and its checking pass
 */
export {};
