/**
 * @packageDocumentation
 * PIM code generation: verification, array-group and register allocation, instruction selection and bundle emission
 */
export {};
