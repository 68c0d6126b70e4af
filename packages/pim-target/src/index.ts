/**
 * @packageDocumentation
 * The contract between the Raptor compiler and a crossbar PIM machine: hardware configuration,
 * instruction set, PIMB v1 binary, JSON instruction form, program bundles, assembler and
 * disassembler.
 */
export {
  MNEMONICS,
  Opcode,
  MAX_OPCODE,
  INSTRUCTION_CLASS,
  REGISTER_COUNT,
  EVENT_REGISTER_COUNT,
  mnemonicOfOpcode,
  isMnemonic,
} from './isa/opcodes';
export type { Mnemonic, InstructionClass } from './isa/opcodes';
export { OPERAND_FIELDS, isRegisterField, makeInstruction, getField, instructionsEqual } from './isa/instruction';
export type {
  Register,
  OffsetFields,
  NopInstruction,
  SldiInstruction,
  SldInstruction,
  ScalarRegisterInstruction,
  SaddInstruction,
  SsubInstruction,
  SmulInstruction,
  ScalarImmediateInstruction,
  SaddiInstruction,
  SmuliInstruction,
  SetbwInstruction,
  MvmulInstruction,
  VectorBinaryMnemonic,
  VectorValueMnemonic,
  VectorUnaryMnemonic,
  VectorBinaryInstruction,
  VvaddInstruction,
  VvsubInstruction,
  VvmulInstruction,
  VvdmulInstruction,
  VvmaxInstruction,
  VvsllInstruction,
  VvsraInstruction,
  VectorValueInstruction,
  VavgInstruction,
  VmvInstruction,
  VrsuInstruction,
  VrslInstruction,
  VectorUnaryInstruction,
  VreluInstruction,
  VtanhInstruction,
  VsigmInstruction,
  VsoftmaxInstruction,
  LdInstruction,
  StInstruction,
  LldiInstruction,
  LmvInstruction,
  SendInstruction,
  RecvInstruction,
  WaitInstruction,
  SyncInstruction,
  Instruction,
  InstructionOf,
  OperandField,
} from './isa/instruction';
export type {
  MemoryConfig,
  MatrixConfig,
  CoreConfig,
  NetworkConfig,
  ChipConfig,
  SimConfig,
  WaitSemantics,
  RaptorConfig,
  HardwareConfig,
  NetworkTable,
  Target,
  PartialConfig,
} from './config/hardware-config';
export { defaultHardwareConfig, defaultTarget, pimsimDefaultConfig, defaultRaptorConfig } from './config/defaults';
export { formatDiagnostic, hasErrors } from './target-diagnostic';
export type { Severity, TargetDiagnostic, Result } from './target-diagnostic';
export { Messages, describeValue, describeSpec } from './diagnostics';
export { decodeNpy, encodeNpy, readNpyHeader, npyDescr, npyElementSize, npyTypedArray, npyBytes } from './io/npy';
export type { NpyDtype, NpyData, NpyArray, NpyHeader, NpyError, NpyHeaderResult, NpyDecodeResult } from './io/npy';
export type { Message } from './diagnostics';
export {
  PIMB_HEADER_SIZE,
  PIMB_RECORD_SIZE,
  PIMB_VERSION,
  PIMB_MAGIC,
  PIMB_SLOTS,
  PIMB_SLOT_ORDER,
  encodePimb,
  decodePimb,
  readPimbRecords,
  instructionToRecord,
  recordToInstruction,
  isPimb,
} from './encoding/pimb';
export type { PimbSlot, PimbRecord, PimbRecords, PimbOptions, PimbEncoding, PimbDecoding } from './encoding/pimb';
export {
  instructionToJson,
  instructionFromJson,
  parseJsonText,
  parseProgramJson,
  programFromJson,
  formatProgramJson,
} from './encoding/json-form';
export type { JsonValue, JsonInstruction, JsonReadOptions } from './encoding/json-form';
export { formatInstruction, disassemble, dumpPimb } from './text/disassembler';
export type { DisassembleOptions, PimbDump } from './text/disassembler';
export { assemble, syntaxOf } from './text/assembler';
export type { AssembleOptions, AssembleResult } from './text/assembler';
export { KEYWORD, KEYWORD_ALIASES } from './text/syntax';
export { HARDWARE_SCHEMA } from './config/schema';
export type { FieldSpec, SchemaFields } from './config/schema';
export { validateHardwareConfig, exportArchitectureJson, cloneConfig } from './config/validate';
export type { ValidateConfigOptions, ExportArchitectureOptions } from './config/validate';
export {
  emptyNetworkTable,
  networkTableFromJson,
  parseNetworkTable,
  formatNetworkTable,
  meshNetworkTable,
  networkCost,
} from './config/network';
export type { MeshNetworkOptions } from './config/network';
export { parseArchitectureJson, resolveTarget, loadTarget, saveTarget } from './config/architecture-file';
export {
  ELEMENT_SIZE,
  isElementType,
  MANIFEST_FORMAT,
  MANIFEST_VERSION,
  BUNDLE_FILES,
  coreFileName,
  tensorByteSize,
  createBundle,
} from './bundle/bundle';
export type { ElementType, TensorLocation, WeightBlock, ProgramBundle } from './bundle/bundle';
export { readBundleFiles, readBundle } from './bundle/reader';
export type { BundleFiles } from './bundle/reader';
export { writeBundleFiles, writeBundle, formatBundleConfig } from './bundle/writer';
export type { WriteBundleOptions, BundleWriting } from './bundle/writer';
export { validateBundle, isPimsimCompatibilityDiagnostic } from './bundle/validator';
export type { ValidateBundleOptions, BundleValidation } from './bundle/validator';
export { loadBundle, loadBundleFiles } from './bundle/load';
export type { LoadedBundle } from './bundle/load';
export { parseSingleFileProgram, formatSingleFileProgram } from './bundle/single-file';
// Analytic cost model and lower bounds (hardware-defaults.md), shared by the scheduler's estimates and the simulator.
export { PROGRAM_ELEMENT_BITS, createCostModel, mvmLatencyNs } from './cost/cost-model';
export type { CostModel } from './cost/cost-model';
export { computeBounds, weightLayerFromShape } from './cost/bounds';
export type { Bounds, ModelWork, WeightLayerWork } from './cost/bounds';
