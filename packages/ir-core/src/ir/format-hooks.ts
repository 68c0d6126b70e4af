import type { Attribute, Type } from './attribute';
import type { Operation } from './operation';

type Formatter<T> = (value: T) => string;

let typeFormatter: Formatter<Type> | undefined;
let attrFormatter: Formatter<Attribute> | undefined;
let opFormatter: Formatter<Operation> | undefined;

/**
 * Overrides the functions that render types, attributes and ops inside diagnostic messages
 * (`operand #0 must be ..., but got 'f32'`). The syntax layer's printer installs MLIR's renderings
 * when it is loaded (it is, through the package entry point); before that, values render as their
 * class name (`<FloatType>`).
 */
export function setDiagnosticFormatters(
  types: Formatter<Type>,
  attrs?: Formatter<Attribute>,
  ops?: Formatter<Operation>,
): void {
  typeFormatter = types;
  attrFormatter = attrs;
  opFormatter = ops;
}

/** Renders `op` in generic form with local scope (with the installed formatter). */
export function formatOperation(op: Operation): string {
  if (opFormatter) return opFormatter(op);
  const p = op.context.operationPrinter;
  return p ? p(op) : `"${op.name}"`;
}

/** Renders `type` as MLIR prints it (when a formatter is installed). */
export function formatType(type: Type): string {
  return typeFormatter ? typeFormatter(type) : `<${type.constructor.name}>`;
}

/** Renders `attr` as MLIR prints it (when a formatter is installed). */
export function formatAttribute(attr: Attribute): string {
  return attrFormatter ? attrFormatter(attr) : `<${attr.constructor.name}>`;
}
