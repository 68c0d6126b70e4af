import type { Attribute, Type } from './attribute';
import type { Operation } from './operation';

type Formatter<T> = (value: T) => string;

let typeFormatter: Formatter<Type> | undefined;
let attrFormatter: Formatter<Attribute> | undefined;
let opFormatter: Formatter<Operation> | undefined;

/**
 * Installs the functions that render types and attributes inside diagnostic messages
 * (`operand #0 must be ..., but got 'f32'`). The syntax layer's printer installs them; until
 * then a placeholder naming the class is used.
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

/** Renders `op` (generic form when a formatter is installed; otherwise its quoted name). */
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
