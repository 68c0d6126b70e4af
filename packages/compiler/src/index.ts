/**
 * @packageDocumentation
 * The Raptor compiler: pass registry, named pipelines and compile()
 */
export {};
