/**
 * @packageDocumentation
 * Compact list syntax shared by the `spat` and `pim` custom assembly: type repetition
 * (`T x2`), inclusive integer ranges in core lists (`[0 to 3, 8]`), lane ranges
 * (`%lane = 0 to 4`), weight/input binding lists with their type signature
 * (`[%w] = [%x] (%a) = (%y) ... : [T] (U) -> R`) and `shared_outs(...)`, as parse/print helpers
 * over ir-core's `OpAsmParser`/`OpAsmPrinter`. Printers always choose the compact form, so
 * printing is canonical.
 */
export * from './type-repetition';
export * from './integer-ranges';
export * from './lane-range';
export * from './bindings';
export { CompactAsmMessages } from './diagnostics';
export * from './block-argument-names';
