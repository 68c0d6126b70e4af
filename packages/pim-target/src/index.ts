/**
 * @packageDocumentation
 * The contract between the Raptor compiler and a crossbar PIM machine: hardware configuration, instruction set, PIMB v1 binary, JSON instruction form, program bundles, assembler and disassembler.
 */
export {};
