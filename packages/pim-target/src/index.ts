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
export { defaultHardwareConfig, pimsimDefaultConfig, defaultRaptorConfig } from './config/defaults';
export { formatDiagnostic, hasErrors } from './diagnostic';
export type { Severity, TargetDiagnostic, Result } from './diagnostic';
