/**
 * The builtin ops: `builtin.module` (custom form `module [@name] [attributes {...}] { ... }`,
 * a graph region and symbol table) and `builtin.unrealized_conversion_cast`.
 */
import { StringAttr } from '../ir/builtin-attributes';
import { StrAttr } from '../ir/constraints';
import { defineDialect, type Dialect } from '../ir/dialect';
import { anyRegion, defineOp, optProp, variadic, type AnyOpDefinition } from '../ir/op-definition';
import { Block } from '../ir/block';
import { Region } from '../ir/region';
import { Traits } from '../ir/traits';
import type { Type } from '../ir/attribute';
import type { Value } from '../ir/value';
import type { UnresolvedOperand } from '../syntax/op-asm';
import { addParsedAttributes, printAttrDict, printAttrDictWithKeyword, stateMaps } from './asm-helpers';
import { DM } from './dialect-messages';

/** `builtin.module`: the top-level container (one block, no terminator, graph region, symbol table). */
export const ModuleOp = defineOp({
  name: 'builtin.module',
  summary: 'A top level container operation',
  attributes: { sym_name: optProp(StrAttr), sym_visibility: optProp(StrAttr) },
  regions: { bodyRegion: anyRegion() },
  traits: [
    Traits.IsolatedFromAbove,
    Traits.NoTerminator,
    Traits.SingleBlock,
    Traits.SymbolTable,
    Traits.NoRegionArguments,
    Traits.HasOnlyGraphRegion,
    Traits.AffineScope,
  ],
  defaultDialect: 'builtin',
  parse(p, state) {
    const { properties } = stateMaps(state);
    const name = p.parseOptionalSymbolName();
    if (name !== null) properties.set('sym_name', StringAttr.get(p.context, name));
    const attrs = p.parseOptionalAttrDictWithKeyword();
    if (!attrs) return false;
    addParsedAttributes(state, attrs, new Set(['sym_name', 'sym_visibility']));
    const region = new Region();
    if (!p.parseRegion(region, [])) return false;
    if (region.empty) region.push(new Block());
    state.regions = [region];
    return true;
  },
  print(op, p) {
    const vis = op.getAttr('sym_visibility');
    if (vis instanceof StringAttr) p.print(' ' + vis.value);
    const name = op.getAttr('sym_name');
    if (name instanceof StringAttr) {
      p.print(' ');
      p.printSymbolName(name.value);
    }
    printAttrDictWithKeyword(p, op, ['sym_name', 'sym_visibility']);
    p.print(' ');
    p.printRegion(op.regions[0]!, false, false);
  },
});

/** `%r = builtin.unrealized_conversion_cast %a : i32 to f32` (any number of inputs and outputs). */
export const UnrealizedConversionCastOp = defineOp({
  name: 'builtin.unrealized_conversion_cast',
  summary: 'An unrealized conversion from one set of types to another',
  operands: { inputs: variadic() },
  results: { outputs: variadic() },
  traits: [Traits.Pure],
  parse(p, state) {
    const ops: UnresolvedOperand[] = [];
    let inTypes: Type[] = [];
    const first = p.parseOptionalOperand();
    if (first === undefined) return false;
    if (first) {
      ops.push(first);
      while (p.parseOptionalComma()) {
        const o = p.parseOperand();
        if (!o) return false;
        ops.push(o);
      }
      const ts = p.parseColonTypeList();
      if (!ts) return false;
      inTypes = ts;
    }
    if (!p.parseKeyword('to')) return false;
    const outTypes = p.parseTypeList();
    if (!outTypes) return false;
    const attrs = p.parseOptionalAttrDict();
    if (!attrs) return false;
    addParsedAttributes(state, attrs, new Set());
    const values: Value[] = [];
    if (!p.resolveOperands(ops, inTypes, values, p.getNameLocation())) return false;
    state.operands = values;
    state.resultTypes = outTypes;
    return true;
  },
  print(op, p) {
    if (op.numOperands) {
      p.print(' ');
      p.printOperands(op.operands);
      p.print(' : ');
      p.printTypes(op.operands.map((v) => v.type));
    }
    p.print(' to ');
    p.printTypes(op.resultTypes);
    printAttrDict(p, op);
  },
  verify(view) {
    if (view.op.numResults === 0) {
      view.emitOpError(DM.castNeedsResults);
      return false;
    }
    return true;
  },
});

/** The builtin op definitions. */
export const BUILTIN_OPS: readonly AnyOpDefinition[] = [ModuleOp, UnrealizedConversionCastOp];

/** The `builtin` dialect (its types and attributes are built into the parser and printer). */
export const BuiltinDialect: Dialect = defineDialect({ namespace: 'builtin', operations: BUILTIN_OPS });
