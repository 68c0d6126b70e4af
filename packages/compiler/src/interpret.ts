/**
 * Running any IR level: finds the entry function of a module and interprets it with the rules
 * of every Raptor dialect (builtin, func, arith, affine, tensor, scf, memref, spat, pim), on
 * float32 arrays given in argument order. This is what `raptor import --run` and
 * `raptor opt --run` execute, so every stage's output can be checked on real inputs.
 */
import {
  Diagnostic,
  FuncOp,
  FunctionType,
  Interpreter,
  InterpreterRegistry,
  MemRefType,
  NameLoc,
  RankedTensorType,
  ShapedValue,
  printType,
  type Operation,
  type RuntimeValue,
  type Type,
} from '@raptor-pim/ir-core';
import { registerAllPimInterpreterRules } from '@raptor-pim/pim-dialect';
import { registerAllSpatialInterpreterRules } from '@raptor-pim/spatial-dialect';
import { CompilerMessages as M } from './diagnostics';

/** A float32 array with its shape (an input or output of {@link interpretFunction}). */
export interface F32Tensor {
  readonly shape: readonly number[];
  readonly data: Float32Array;
}

/** An argument or result of an entry function. */
export interface EntryValue {
  /** The argument's name (its `loc("name")`, as the ONNX importer gives graph inputs), or `arg<k>` / `result<k>`. */
  readonly name: string;
  /** The static shape. */
  readonly shape: readonly number[];
  /** The type as MLIR prints it. */
  readonly type: string;
}

/** The function {@link interpretFunction} runs, with its arguments and results. */
export interface EntryFunction {
  readonly name: string;
  readonly inputs: readonly EntryValue[];
  readonly outputs: readonly EntryValue[];
}

/** An entry function, or the diagnostics saying why none could be chosen. */
export type EntryFunctionResult =
  | { readonly ok: true; readonly entry: EntryFunction }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** Outputs of a run in result order, or the diagnostics that stopped it. */
export type InterpretResult =
  | { readonly ok: true; readonly outputs: readonly F32Tensor[] }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

interface FuncInfo {
  readonly op: Operation;
  readonly name: string;
  readonly isPublic: boolean;
}

function functionsOf(module: Operation): FuncInfo[] {
  const out: FuncInfo[] = [];
  for (const r of module.regions) {
    for (let b = r.firstBlock; b; b = b.next) {
      for (let o = b.firstOp; o; o = o.next) {
        const f = FuncOp.match(o);
        if (!f) continue;
        out.push({ op: o, name: f.sym_name.value, isPublic: (f.sym_visibility?.value ?? 'public') === 'public' });
      }
    }
  }
  return out;
}

/** The signature of a func.func (the verifier guarantees a function type). */
function signatureOf(func: Operation): FunctionType {
  const t = FuncOp.get(func).function_type.value;
  if (!(t instanceof FunctionType)) throw new Error(`internal error: func.func without a function type`);
  return t;
}

function staticShape(type: Type): readonly number[] | undefined {
  if (type instanceof RankedTensorType || type instanceof MemRefType) return type.shape.every((d) => d >= 0) ? type.shape : undefined;
  return undefined;
}

function describeValue(type: Type, name: string): EntryValue {
  return { name, shape: staticShape(type) ?? [], type: printType(type) };
}

/**
 * The function to run: `entry` when given, else `@main`, else the only public function.
 *
 * @example
 * ```ts
 * const r = findEntryFunction(module);
 * if (r.ok) console.log(r.entry.name, r.entry.inputs.map((i) => i.shape));
 * ```
 */
export function findEntryFunction(module: Operation, entry?: string): EntryFunctionResult {
  const fail = (message: string): EntryFunctionResult => ({ ok: false, diagnostics: [new Diagnostic('error', module.location, message)] });
  const funcs = functionsOf(module);
  let chosen: FuncInfo | undefined;
  if (entry !== undefined) {
    chosen = funcs.find((f) => f.name === entry);
    if (!chosen) return fail(M.unknownEntry(entry, funcs.map((f) => f.name)));
  } else {
    chosen = funcs.find((f) => f.name === 'main');
    if (!chosen) {
      const pub = funcs.filter((f) => f.isPublic);
      if (pub.length === 0) return fail(M.noEntryFunction());
      if (pub.length > 1) return fail(M.ambiguousEntry(pub.map((f) => f.name)));
      chosen = pub[0]!;
    }
  }
  const body = chosen.op.regions[0]!.firstBlock;
  if (!body) return fail(M.entryIsDeclaration(chosen.name));
  const fnType = signatureOf(chosen.op);
  const inputs = fnType.inputs.map((t, k) => {
    const loc = body.getArgument(k).loc;
    return describeValue(t, loc instanceof NameLoc ? loc.name : `arg${k}`);
  });
  const outputs = fnType.results.map((t, k) => describeValue(t, `result${k}`));
  return { ok: true, entry: { name: chosen.name, inputs, outputs } };
}

/** An interpreter registry with the rules of every Raptor dialect. */
export function createRaptorInterpreterRegistry(): InterpreterRegistry {
  const registry = new InterpreterRegistry();
  registerAllSpatialInterpreterRules(registry);
  registerAllPimInterpreterRules(registry);
  return registry;
}

function toRuntimeArgument(type: Type, input: F32Tensor): ShapedValue | undefined {
  if (!(type instanceof RankedTensorType || type instanceof MemRefType)) return undefined;
  const v = ShapedValue.allocate(type instanceof MemRefType ? 'buffer' : 'tensor', type.elementType, type.shape);
  if (!v) return undefined;
  const data = v.data as ArrayLike<number | bigint> & { [i: number]: number | bigint };
  if (data instanceof BigInt64Array || data instanceof BigUint64Array) {
    for (let i = 0; i < input.data.length; i++) data[i] = BigInt(Math.trunc(input.data[i]!));
  } else if (data instanceof Float32Array) data.set(input.data);
  else for (let i = 0; i < input.data.length; i++) data[i] = input.data[i]!;
  return v;
}

function toF32Tensor(value: RuntimeValue): F32Tensor | undefined {
  if (typeof value === 'number') return { shape: [], data: Float32Array.of(value) };
  if (typeof value === 'bigint') return { shape: [], data: Float32Array.of(Number(value)) };
  if (!(value instanceof ShapedValue)) return undefined;
  const flat = value.toContiguousArray() as ArrayLike<number | bigint>;
  const data = new Float32Array(flat.length);
  for (let i = 0; i < flat.length; i++) data[i] = Number(flat[i]!);
  return { shape: [...value.shape], data };
}

/**
 * Interprets function `entry` of `module` on `inputs` (argument order; each must have the
 * argument's static shape) and returns its results as float32 arrays. Never throws on bad
 * input: a wrong count or shape, an unsupported argument type, a failing op are diagnostics.
 *
 * @example
 * ```ts
 * const r = interpretFunction(module, 'main', [{ shape: [1, 784], data }]);
 * if (r.ok) console.log(r.outputs[0].data);
 * ```
 */
export function interpretFunction(module: Operation, entry: string, inputs: readonly F32Tensor[]): InterpretResult {
  const fail = (message: string, op: Operation = module): InterpretResult => ({ ok: false, diagnostics: [new Diagnostic('error', op.location, message)] });
  const found = findEntryFunction(module, entry);
  if (!found.ok) return found;
  const func = functionsOf(module).find((f) => f.name === entry)!.op;
  const fnType = signatureOf(func);
  if (inputs.length !== fnType.inputs.length) return fail(M.inputCount(entry, inputs.length, fnType.inputs.length), func);
  const args: RuntimeValue[] = [];
  for (let k = 0; k < inputs.length; k++) {
    const type = fnType.inputs[k]!;
    const expected = staticShape(type);
    if (!expected) return fail(M.unsupportedArgumentType(entry, k, printType(type)), func);
    const given = inputs[k]!;
    const count = expected.reduce((a, b) => a * b, 1);
    if (given.shape.join() !== expected.join() || given.data.length !== count) {
      return fail(M.inputShape(k, found.entry.inputs[k]!.name, given.shape, expected), func);
    }
    const v = toRuntimeArgument(type, given);
    if (!v) return fail(M.unsupportedArgumentType(entry, k, printType(type)), func);
    args.push(v);
  }
  const r = new Interpreter(createRaptorInterpreterRegistry()).runFunction(module, entry, args);
  if (!r.ok) return { ok: false, diagnostics: [new Diagnostic('error', r.diagnostic.location, M.interpretationFailed(r.diagnostic.message))] };
  const outputs: F32Tensor[] = [];
  for (let k = 0; k < r.values.length; k++) {
    const t = toF32Tensor(r.values[k]!);
    if (!t) return fail(M.unsupportedResult(k, fnType.results[k] ? printType(fnType.results[k]!) : '?'), func);
    outputs.push(t);
  }
  return { ok: true, outputs };
}
