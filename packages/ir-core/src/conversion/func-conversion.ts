import { TypeAttr } from '../ir/builtin-attributes';
import { FunctionType } from '../ir/builtin-types';
import type { Operation } from '../ir/operation';
import { CallOp, FuncOp, ReturnOp } from '../dialects/func';
import { createConversionPattern, type OpConversionPattern } from './conversion-pattern';
import type { ConversionTarget } from './conversion-target';
import type { TypeConverter } from './type-converter';

function functionTypeOf(op: Operation): FunctionType | null {
  const t = FuncOp.get(op).function_type.value;
  return t instanceof FunctionType ? t : null;
}

/**
 * The patterns that convert the types of `func.func` signatures (and their entry block
 * arguments, through `convertRegionTypes`), `func.return` operands and `func.call` results
 * with `typeConverter` (MLIR's `populateFunctionOpInterfaceTypeConversionPattern`,
 * `populateReturnOpTypeConversionPattern`, `populateCallOpTypeConversionPattern`). Pair with
 * {@link markFuncOpsDynamicallyLegal}. Only 1:1 result conversions are supported; 1:N input
 * conversions are (the entry block gets the N arguments).
 */
export function populateFuncTypeConversionPatterns(
  typeConverter: TypeConverter,
): [OpConversionPattern<typeof FuncOp>, OpConversionPattern<typeof ReturnOp>, OpConversionPattern<typeof CallOp>] {
  const func = createConversionPattern(
    FuncOp,
    (op, _adaptor, rw) => {
      const ft = functionTypeOf(op.op);
      if (!ft) return false;
      const conv = typeConverter.convertSignature(ft.inputs);
      const results = typeConverter.convertTypes(ft.results);
      if (!conv || !results) return false;
      if (!op.body.empty && !rw.convertRegionTypes(op.body, typeConverter, conv)) return false;
      const type = FunctionType.get(op.op.context, conv.convertedTypes, results);
      rw.modifyOpInPlace(op.op, () => op.op.setProperty('function_type', TypeAttr.get(type)));
      return true;
    },
    { typeConverter, debugName: 'FuncSignatureConversion' },
  );
  const ret = createConversionPattern(
    ReturnOp,
    (op, adaptor, rw) => {
      rw.modifyOpInPlace(op.op, () => op.op.setOperands(adaptor.operands));
      return true;
    },
    { typeConverter, debugName: 'ReturnTypeConversion' },
  );
  const call = createConversionPattern(
    CallOp,
    (op, adaptor, rw) => {
      const results = typeConverter.convertTypes(op.op.resultTypes);
      if (!results) return false;
      const n = rw.create({
        name: op.op.name,
        location: op.location,
        operands: adaptor.operands,
        resultTypes: results,
        properties: op.op.properties,
        attributes: op.op.attributes,
      });
      rw.replaceOp(op.op, n.results);
      return true;
    },
    { typeConverter, debugName: 'CallTypeConversion' },
  );
  return [func, ret, call];
}

/**
 * Marks `func.func` legal when its signature and body block arguments are legal for
 * `typeConverter`, and `func.return` / `func.call` when their operand and result types are.
 */
export function markFuncOpsDynamicallyLegal(target: ConversionTarget, typeConverter: TypeConverter): ConversionTarget {
  return target
    .addDynamicallyLegalOp(FuncOp, (op) => {
      const ft = functionTypeOf(op);
      return ft !== null && typeConverter.isSignatureLegal(ft) && typeConverter.isRegionLegal(op.regions[0]!);
    })
    .addDynamicallyLegalOp([ReturnOp, CallOp], (op) => typeConverter.isLegal(op));
}
