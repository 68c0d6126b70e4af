/**
 * The `func` dialect (MLIR 22): `func.func` (with MLIR's function syntax: visibility,
 * argument/result attributes, `attributes {...}`, external declarations), `func.return`,
 * `func.call` and `func.call_indirect`.
 */
import type { Attribute, Type } from '../ir/attribute';
import { ArrayAttr, DictionaryAttr, StringAttr, SymbolRefAttr, TypeAttr, UnitAttr, type NamedAttribute } from '../ir/builtin-attributes';
import { FunctionType } from '../ir/builtin-types';
import { attrConstraint, FlatSymbolRefAttr, StrAttr, UnitAttrConstraint, type AttrConstraint } from '../ir/constraints';
import { CallableOpInterface, CallOpInterface } from '../ir/core-interfaces';
import { defineDialect, type Dialect } from '../ir/dialect';
import { formatType } from '../ir/format-hooks';
import { implement } from '../ir/interfaces';
import { anyRegion, defineOp, optProp, prop, single, variadic, type AnyOpDefinition } from '../ir/op-definition';
import type { Operation, OperationState } from '../ir/operation';
import { Region } from '../ir/region';
import { SymbolTable } from '../ir/symbol-table';
import { Traits } from '../ir/traits';
import type { Value } from '../ir/value';
import type { OpAsmArgument, OpAsmParser, OpAsmPrinter } from '../syntax/op-asm';
import { addParsedAttributes, printAttrDict, printAttrDictWithKeyword, stateMaps } from './asm-helpers';
import { DM } from './dialect-messages';

const FunctionTypeAttrC: AttrConstraint<TypeAttr> = attrConstraint(
  'type attribute of function type',
  (a): a is TypeAttr => a instanceof TypeAttr && a.value instanceof FunctionType,
);
const DictArrayAttrC: AttrConstraint<ArrayAttr> = attrConstraint(
  'Array of dictionary attributes',
  (a): a is ArrayAttr => a instanceof ArrayAttr && a.elements.every((e) => e instanceof DictionaryAttr),
);

/** The properties `func.func` prints through its signature instead of `attributes {...}`. */
const FUNC_ELIDED = ['sym_name', 'function_type', 'arg_attrs', 'res_attrs', 'sym_visibility'];
const FUNC_INHERENT = new Set(['sym_name', 'function_type', 'arg_attrs', 'res_attrs', 'sym_visibility', 'no_inline']);

function dictEntries(list: ArrayAttr | undefined, i: number): readonly NamedAttribute[] {
  const d = list?.elements[i];
  return d instanceof DictionaryAttr ? d.entries : [];
}

/** An `ArrayAttr` of dictionaries, or undefined when every dictionary is empty (as MLIR stores it). */
function attrsArray(op: { context: OperationState['context'] }, lists: readonly (readonly NamedAttribute[])[]): ArrayAttr | undefined {
  if (lists.every((l) => l.length === 0)) return undefined;
  return ArrayAttr.get(
    op.context,
    lists.map((l) => DictionaryAttr.get(op.context, l)),
  );
}

function functionTypeOf(op: Operation): FunctionType | undefined {
  const t = op.getAttr('function_type');
  return t instanceof TypeAttr && t.value instanceof FunctionType ? t.value : undefined;
}

function parseResultList(p: OpAsmParser, types: Type[], attrs: NamedAttribute[][]): boolean {
  if (!p.parseOptionalLParen()) {
    const t = p.parseType();
    if (!t) return false;
    types.push(t);
    attrs.push([]);
    return true;
  }
  if (p.parseOptionalRParen()) return true;
  do {
    const t = p.parseType();
    if (!t) return false;
    types.push(t);
    const a = p.parseOptionalAttrDict();
    if (!a) return false;
    attrs.push(a);
  } while (p.parseOptionalComma());
  return p.parseRParen();
}

function printResultList(p: OpAsmPrinter, types: readonly Type[], attrs: ArrayAttr | undefined): void {
  const needsParens = types.length > 1 || types[0] instanceof FunctionType || dictEntries(attrs, 0).length > 0;
  if (needsParens) p.print('(');
  types.forEach((t, i) => {
    if (i) p.print(', ');
    p.printType(t);
    const a = dictEntries(attrs, i);
    if (a.length) p.printOptionalAttrDict(a);
  });
  if (needsParens) p.print(')');
}

/** `func.func [visibility] @name(%arg: T {attrs}, ...) -> (R {attrs}) [attributes {...}] [{ body }]`. */
export const FuncOp = defineOp({
  name: 'func.func',
  summary: 'An operation with a name containing a single `SSACFG` region',
  attributes: {
    sym_name: prop(StrAttr),
    function_type: prop(FunctionTypeAttrC),
    sym_visibility: optProp(StrAttr),
    arg_attrs: optProp(DictArrayAttrC),
    res_attrs: optProp(DictArrayAttrC),
    no_inline: optProp(UnitAttrConstraint),
  },
  regions: { body: anyRegion() },
  traits: [Traits.IsolatedFromAbove, Traits.Symbol, Traits.AutomaticAllocationScope, Traits.AffineScope],
  interfaces: [implement(CallableOpInterface, { getCallableRegion: (op: Operation) => (op.regions[0]!.empty ? null : op.regions[0]!) })],
  defaultDialect: 'func',
  parse(p, state) {
    const ctx = p.context;
    const { properties } = stateMaps(state);
    const vis = p.parseOptionalKeyword(['private', 'public', 'nested']);
    if (vis !== null) properties.set('sym_visibility', StringAttr.get(ctx, vis));
    const name = p.parseSymbolName();
    if (name === undefined) return false;
    properties.set('sym_name', StringAttr.get(ctx, name));
    // Signature: either named arguments (definition) or bare types (declaration).
    if (!p.parseLParen()) return false;
    const args: OpAsmArgument[] = [];
    const argTypes: Type[] = [];
    const argAttrs: NamedAttribute[][] = [];
    let named: boolean | undefined;
    if (!p.parseOptionalRParen()) {
      do {
        const loc = p.getCurrentLocation();
        const arg = p.parseOptionalArgument(true, true);
        if (arg === undefined) return false;
        if (named !== undefined && named !== (arg !== null)) {
          p.emitError(DM.argNamesMixed, loc);
          return false;
        }
        named = arg !== null;
        if (arg) {
          args.push(arg);
          argTypes.push(arg.type!);
          argAttrs.push([...(arg.attributes ?? [])]);
        } else {
          const t = p.parseType();
          if (!t) return false;
          const a = p.parseOptionalAttrDict();
          if (!a) return false;
          if (p.parseOptionalLocationSpecifier() === undefined) return false;
          argTypes.push(t);
          argAttrs.push(a);
        }
      } while (p.parseOptionalComma());
      if (!p.parseRParen()) return false;
    }
    const resultTypes: Type[] = [];
    const resultAttrs: NamedAttribute[][] = [];
    if (p.parseOptionalArrow() && !parseResultList(p, resultTypes, resultAttrs)) return false;
    properties.set('function_type', TypeAttr.get(FunctionType.get(ctx, argTypes, resultTypes)));
    const aa = attrsArray(p, argAttrs);
    if (aa) properties.set('arg_attrs', aa);
    const ra = attrsArray(p, resultAttrs);
    if (ra) properties.set('res_attrs', ra);
    const extra = p.parseOptionalAttrDictWithKeyword();
    if (!extra) return false;
    addParsedAttributes(state, extra, FUNC_INHERENT);
    const region = new Region();
    const bodyLoc = p.getCurrentLocation();
    const parsed = p.parseOptionalRegion(region, args);
    if (parsed === false) return false;
    if (parsed === true) {
      if (named === false) {
        p.emitError(DM.externalArgNamed, bodyLoc);
        return false;
      }
      if (region.empty) {
        p.emitError('expected non-empty function body', bodyLoc);
        return false;
      }
    }
    state.regions = [region];
    return true;
  },
  print(op, p) {
    p.print(' ');
    const vis = op.getAttr('sym_visibility');
    if (vis instanceof StringAttr) p.print(vis.value + ' ');
    const name = op.getAttr('sym_name');
    p.printSymbolName(name instanceof StringAttr ? name.value : '');
    const type = functionTypeOf(op);
    const inputs = type?.inputs ?? [];
    const results = type?.results ?? [];
    const body = op.regions[0]!;
    const external = body.empty;
    const argAttrs = op.getAttr('arg_attrs');
    const aa = argAttrs instanceof ArrayAttr ? argAttrs : undefined;
    p.print('(');
    inputs.forEach((t, i) => {
      if (i) p.print(', ');
      const entry = body.firstBlock;
      if (!external && entry && i < entry.numArguments) p.printRegionArgument(entry.getArgument(i), dictEntries(aa, i));
      else {
        p.printType(t);
        const a = dictEntries(aa, i);
        if (a.length) p.printOptionalAttrDict(a);
      }
    });
    p.print(')');
    if (results.length) {
      p.print(' -> ');
      const resAttrs = op.getAttr('res_attrs');
      printResultList(p, results, resAttrs instanceof ArrayAttr ? resAttrs : undefined);
    }
    printAttrDictWithKeyword(p, op, FUNC_ELIDED);
    if (!external) {
      p.print(' ');
      p.printRegion(body, false, true);
    }
  },
  verify(view) {
    const op = view.op;
    const type = functionTypeOf(op)!;
    for (const [attrName, n] of [
      ['arg_attrs', type.inputs.length],
      ['res_attrs', type.results.length],
    ] as const) {
      const a = op.getAttr(attrName);
      if (a instanceof ArrayAttr && a.elements.length !== n) {
        view.emitOpError(DM.argAttrsCount(attrName, n, a.elements.length));
        return false;
      }
    }
    const body = op.regions[0]!;
    if (body.empty) {
      const vis = op.getAttr('sym_visibility');
      if (!(vis instanceof StringAttr) || vis.value === 'public') {
        view.emitOpError(DM.externalPublic);
        return false;
      }
      return true;
    }
    const entry = body.firstBlock!;
    if (entry.numArguments !== type.inputs.length) {
      view.emitOpError(DM.entryBlockArgCount(type.inputs.length));
      return false;
    }
    for (let i = 0; i < type.inputs.length; i++) {
      const actual = entry.getArgument(i).type;
      if (actual !== type.inputs[i]) {
        view.emitOpError(DM.entryBlockArgType(i, formatType(actual), formatType(type.inputs[i]!)));
        return false;
      }
    }
    return true;
  },
});

/** `func.return %a, %b : i32, f32` (printed `return` inside a `func.func`). */
export const ReturnOp = defineOp({
  name: 'func.return',
  summary: 'Function return operation',
  operands: { operands: variadic() },
  traits: [Traits.Pure, Traits.HasParent('func.func'), Traits.ReturnLike, Traits.IsTerminator],
  parse(p, state) {
    const attrs = p.parseOptionalAttrDict();
    if (!attrs) return false;
    addParsedAttributes(state, attrs, new Set());
    const ops = p.parseOperandList();
    if (!ops) return false;
    const values: Value[] = [];
    if (ops.length) {
      const types = p.parseColonTypeList();
      if (!types) return false;
      if (!p.resolveOperands(ops, types, values, p.getNameLocation())) return false;
    }
    state.operands = values;
    return true;
  },
  print(op, p) {
    printAttrDict(p, op);
    if (op.numOperands) {
      p.print(' ');
      p.printOperands(op.operands);
      p.print(' : ');
      p.printTypes(op.operands.map((v) => v.type));
    }
  },
  verify(view) {
    const op = view.op;
    const fn = op.getParentOp();
    const type = fn ? functionTypeOf(fn) : undefined;
    if (!fn || !type) return true;
    const fnName = (FuncOp.match(fn)?.sym_name as StringAttr | undefined)?.value ?? '';
    if (op.numOperands !== type.results.length) {
      view.emitOpError(DM.returnCount(op.numOperands, fnName, type.results.length));
      return false;
    }
    for (let i = 0; i < op.numOperands; i++) {
      const t = op.getOperand(i).type;
      if (t !== type.results[i]) {
        view.op.emitError(DM.returnType(i, formatType(t), formatType(type.results[i]!), fnName));
        return false;
      }
    }
    return true;
  },
});

function verifyCallAgainst(op: Operation, calleeType: FunctionType): boolean {
  const args = CallIndirectOp.isInstance(op) ? op.operands.slice(1) : op.operands;
  if (args.length !== calleeType.inputs.length) {
    op.emitOpError(DM.callOperandCount);
    return false;
  }
  for (let i = 0; i < args.length; i++) {
    if (args[i]!.type !== calleeType.inputs[i]) {
      op.emitOpError(DM.callOperandType(formatType(calleeType.inputs[i]!), formatType(args[i]!.type), i));
      return false;
    }
  }
  if (op.numResults !== calleeType.results.length) {
    op.emitOpError(DM.callResultCount);
    return false;
  }
  for (let i = 0; i < op.numResults; i++) {
    if (op.getResult(i).type !== calleeType.results[i]) {
      const d = op.emitOpError(DM.callResultType(i));
      d.attachNote(DM.callOpResultTypes(op.resultTypes.map((t) => `'${formatType(t)}'`).join(', ')));
      d.attachNote(DM.callFunctionResultTypes(calleeType.results.map((t) => `'${formatType(t)}'`).join(', ')));
      return false;
    }
  }
  return true;
}

/** `func.call @callee(%a) : (i32) -> i32`. The callee must be a `func.func` with a matching type. */
export const CallOp = defineOp({
  name: 'func.call',
  summary: 'call operation',
  operands: { operands: variadic() },
  results: { results: variadic() },
  attributes: {
    callee: prop(FlatSymbolRefAttr),
    arg_attrs: optProp(DictArrayAttrC),
    res_attrs: optProp(DictArrayAttrC),
    no_inline: optProp(UnitAttrConstraint),
  },
  interfaces: [
    implement(CallOpInterface, {
      getCallee: (op: Operation) => (op.getAttr('callee') as SymbolRefAttr | undefined)?.leaf,
      getArgOperands: (op: Operation) => op.operands,
    }),
  ],
  parse(p, state) {
    const name = p.parseSymbolName();
    if (name === undefined) return false;
    stateMaps(state).properties.set('callee', SymbolRefAttr.get(p.context, name));
    const ops = p.parseOperandList('paren');
    if (!ops) return false;
    const attrs = p.parseOptionalAttrDict();
    if (!attrs) return false;
    addParsedAttributes(state, attrs, new Set(['callee', 'arg_attrs', 'res_attrs', 'no_inline']));
    if (!p.parseColon()) return false;
    const type = p.parseFunctionType();
    if (!type) return false;
    const values: Value[] = [];
    if (!p.resolveOperands(ops, type.inputs, values, p.getNameLocation())) return false;
    state.operands = values;
    state.resultTypes = type.results;
    return true;
  },
  print(op, p) {
    const callee = op.getAttr('callee');
    p.print(' ');
    p.printAttribute(callee instanceof SymbolRefAttr ? callee : SymbolRefAttr.get(op.context, ''));
    p.print('(');
    p.printOperands(op.operands);
    p.print(')');
    printAttrDict(p, op, ['callee']);
    p.print(' : ');
    p.printFunctionalTypeOf(op);
  },
  verify(view) {
    const op = view.op;
    const callee = view.callee;
    const fn = SymbolTable.lookupNearestSymbolFrom(op, callee);
    if (!fn || !FuncOp.isInstance(fn)) {
      op.emitOpError(DM.calleeNotFunction(callee.leaf));
      return false;
    }
    const type = functionTypeOf(fn);
    return type ? verifyCallAgainst(op, type) : true;
  },
});

/** `func.call_indirect %f(%a) : (i32) -> i32`. */
export const CallIndirectOp = defineOp({
  name: 'func.call_indirect',
  summary: 'indirect call operation',
  operands: { callee: single(), callee_operands: variadic() },
  results: { results: variadic() },
  attributes: { arg_attrs: optProp(DictArrayAttrC), res_attrs: optProp(DictArrayAttrC) },
  parse(p, state) {
    const callee = p.parseOperand();
    if (!callee) return false;
    const ops = p.parseOperandList('paren');
    if (!ops) return false;
    const attrs = p.parseOptionalAttrDict();
    if (!attrs) return false;
    addParsedAttributes(state, attrs, new Set(['arg_attrs', 'res_attrs']));
    if (!p.parseColon()) return false;
    const type = p.parseFunctionType();
    if (!type) return false;
    const values: Value[] = [];
    if (!p.resolveOperand(callee, type, values)) return false;
    if (!p.resolveOperands(ops, type.inputs, values, p.getNameLocation())) return false;
    state.operands = values;
    state.resultTypes = type.results;
    return true;
  },
  print(op, p) {
    p.print(' ');
    p.printOperand(op.getOperand(0));
    p.print('(');
    p.printOperands(op.operands.slice(1));
    p.print(')');
    printAttrDict(p, op);
    p.print(' : ');
    p.printType(op.getOperand(0).type);
  },
  verify(view) {
    const t = view.callee.type;
    if (!(t instanceof FunctionType)) {
      view.emitOpError(DM.indirectCalleeType);
      return false;
    }
    return verifyCallAgainst(view.op, t);
  },
});

/** Every func op definition. */
export const FUNC_OPS: readonly AnyOpDefinition[] = [FuncOp, ReturnOp, CallOp, CallIndirectOp];

/** The `func` dialect. */
export const FuncDialect: Dialect = defineDialect({ namespace: 'func', operations: FUNC_OPS });

/** The attribute used by {@link FuncOp} for a unit `no_inline` flag (re-exported for builders). */
export function noInlineAttr(context: OperationState['context']): Attribute {
  return UnitAttr.get(context);
}
