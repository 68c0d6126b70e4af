/** memref globals: `memref.global` and `memref.get_global`. */
import {
  attrConstraint,
  DenseElementsAttr,
  DenseResourceElementsAttr,
  defineOp,
  FlatSymbolRefAttr,
  formatType,
  getAttributeType,
  MemRefType,
  optProp,
  prop,
  RankedTensorType,
  single,
  StringAttr,
  SymbolRefAttr,
  SymbolNameAttr,
  Traits,
  TypeAttr,
  UnitAttr,
  UnitAttrConstraint,
  StrAttr,
  type Attribute,
  type Operation,
} from '@raptor-pim/ir-core';
import { addAttributes, printAttrDict } from '../asm';
import { AlignmentAttr, AnyStaticShapeMemRef } from '../constraints';
import { MemRefMessages as M } from '../diagnostics';

const MemRefTypeAttr = attrConstraint(
  'memref type attribute',
  (a): a is TypeAttr => a instanceof TypeAttr && a.value instanceof MemRefType,
);

/** The tensor type holding the initial value of a global of memref type `t`. */
export function globalTensorType(t: MemRefType): RankedTensorType {
  return RankedTensorType.get(t.context, t.shape, t.elementType);
}

/** `memref.global`: a named, statically shaped global memref with an optional initial value. */
export const GlobalOp = defineOp({
  name: 'memref.global',
  summary: 'declare or define a global memory variable',
  attributes: {
    sym_name: prop(SymbolNameAttr),
    sym_visibility: optProp(StrAttr),
    type: prop(MemRefTypeAttr),
    initial_value: optProp(attrConstraint('any attribute', (_a): _a is Attribute => true)),
    constant: optProp(UnitAttrConstraint),
    alignment: optProp(AlignmentAttr),
  },
  traits: [Traits.Symbol],
  verify(op) {
    const t = op.type.value as MemRefType;
    if (!t.shape.every((d) => d >= 0)) {
      op.emitOpError(M.globalTypeNotStatic(formatType(t)));
      return false;
    }
    const init = op.initial_value;
    if (init !== undefined && !(init instanceof UnitAttr)) {
      if (!(init instanceof DenseElementsAttr) && !(init instanceof DenseResourceElementsAttr)) {
        op.emitOpError(M.globalInitialValueKind);
        return false;
      }
      const got = getAttributeType(init);
      if (got instanceof RankedTensorType) {
        if (got.shape.length !== t.shape.length || got.shape.some((d, i) => d !== t.shape[i])) {
          op.emitOpError(M.globalInitialValueShape(t.shape, got.shape));
          return false;
        }
        if (got.elementType !== t.elementType) {
          op.emitOpError(M.globalInitialValueElement(formatType(t.elementType), formatType(got.elementType)));
          return false;
        }
      }
    }
    return true;
  },
  parse(parser, state) {
    const attrs: { name: string; value: Attribute }[] = [];
    const vis = parser.parseOptionalString();
    if (vis !== null) attrs.push({ name: 'sym_visibility', value: StringAttr.get(parser.context, vis) });
    if (parser.parseOptionalKeyword('constant')) attrs.push({ name: 'constant', value: UnitAttr.get(parser.context) });
    const name = parser.parseSymbolName();
    if (name === undefined) return false;
    attrs.push({ name: 'sym_name', value: StringAttr.get(parser.context, name) });
    const tloc = parser.getCurrentLocation();
    const t = parser.parseColonType();
    if (!t) return false;
    if (!(t instanceof MemRefType) || !t.shape.every((d) => d >= 0)) {
      parser.emitError(M.globalTypeNotStatic(formatType(t)), tloc);
      return false;
    }
    attrs.push({ name: 'type', value: TypeAttr.get(t) });
    if (parser.parseOptionalEqual()) {
      if (parser.parseOptionalKeyword('uninitialized')) attrs.push({ name: 'initial_value', value: UnitAttr.get(parser.context) });
      else {
        const vloc = parser.getCurrentLocation();
        const v = parser.parseAttribute(globalTensorType(t));
        if (!v) return false;
        if (!(v instanceof DenseElementsAttr) && !(v instanceof DenseResourceElementsAttr)) {
          parser.emitError(M.globalInitialValueKind, vloc);
          return false;
        }
        attrs.push({ name: 'initial_value', value: v });
      }
    }
    const dict = parser.parseOptionalAttrDict();
    if (!dict) return false;
    addAttributes(state, [...attrs, ...dict], ['sym_visibility', 'constant', 'sym_name', 'type', 'initial_value', 'alignment']);
    return true;
  },
  print(op, p) {
    const vis = op.getAttr('sym_visibility');
    if (vis instanceof StringAttr) {
      p.print(' ');
      p.printString(vis.value);
    }
    if (op.getAttr('constant')) p.print(' constant');
    p.print(' ');
    const name = op.getAttr('sym_name');
    p.printSymbolName(name instanceof StringAttr ? name.value : '');
    p.print(' : ');
    const t = op.getAttr('type');
    if (t instanceof TypeAttr) p.printType(t.value);
    const init = op.getAttr('initial_value');
    if (init instanceof UnitAttr) p.print(' = uninitialized');
    else if (init) {
      p.print(' = ');
      p.printAttributeWithoutType(init);
    }
    printAttrDict(p, op, ['sym_visibility', 'constant', 'sym_name', 'type', 'initial_value']);
  },
});

/** Looks up the `memref.global` named `name` in the symbol tables enclosing `op`. */
export function lookupGlobal(op: Operation, name: string): Operation | undefined {
  for (let p = op.getParentOp(); p; p = p.getParentOp()) {
    // By name: the parser's implicit top-level `builtin.module` has no definition in a context
    // without the builtin dialect registered, and it is still the symbol table to search.
    if (!p.hasTrait(Traits.SymbolTable) && p.name !== 'builtin.module') continue;
    for (const region of p.regions) {
      for (let b = region.firstBlock; b; b = b.next) {
        for (let o = b.firstOp; o; o = o.next) {
          const n = o.getAttr('sym_name');
          if (n instanceof StringAttr && n.value === name) return GlobalOp.isInstance(o) ? o : undefined;
        }
      }
    }
    return undefined;
  }
  return undefined;
}

/** `memref.get_global`: the memref of a named `memref.global`. */
export const GetGlobalOp = defineOp({
  name: 'memref.get_global',
  summary: 'get the memref pointing to a global variable',
  attributes: { name: prop(FlatSymbolRefAttr) },
  results: { result: single(AnyStaticShapeMemRef) },
  traits: [Traits.Pure],
  verify(op) {
    const ref = op.name as SymbolRefAttr;
    const global = lookupGlobal(op.op, ref.root);
    if (!global) {
      op.emitOpError(M.getGlobalUnknown(ref.root));
      return false;
    }
    const t: Attribute = GlobalOp.get(global).type;
    const want = t instanceof TypeAttr ? t.value : undefined;
    if (want !== op.result.type) {
      op.emitOpError(M.getGlobalType(formatType(op.result.type), want ? formatType(want) : '<none>', ref.root));
      return false;
    }
    return true;
  },
  parse(parser, state) {
    const name = parser.parseSymbolName();
    if (name === undefined) return false;
    const t = parser.parseColonType();
    if (!t) return false;
    state.resultTypes = [t];
    addAttributes(state, [{ name: 'name', value: SymbolRefAttr.get(parser.context, name) }], ['name']);
    const dict = parser.parseOptionalAttrDict();
    if (!dict) return false;
    addAttributes(state, dict, []);
    return true;
  },
  print(op, p) {
    p.print(' ');
    const n = op.getAttr('name');
    p.printSymbolName(n instanceof SymbolRefAttr ? n.root : '');
    p.print(' : ');
    p.printType(op.getResult(0).type);
    printAttrDict(p, op, ['name']);
  },
});
