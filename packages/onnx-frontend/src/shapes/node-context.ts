/**
 * What a shape rule sees of one node: its inputs' inferred values, its attributes, the opset,
 * and a way to report errors located at the node.
 */
import { Messages, type OnnxDiagnostic } from '../diagnostics';
import { getAttribute, type OnnxAttributeKind, type OnnxAttributeValues, type OnnxNode, type OnnxTensor } from '../onnx/model';
import { tensorToNumbers } from './constant-eval';

/** The inferred type of a value: element type, static shape and, when folded, its constant value. */
export interface InferredValue {
  readonly dataType: number;
  readonly shape: readonly number[];
  /** The value, when it is an initializer or a folded constant. */
  readonly constant?: OnnxTensor;
}

/** Per-node view given to shape rules. */
export class NodeContext {
  constructor(
    readonly node: OnnxNode,
    readonly opset: number,
    private readonly values: ReadonlyMap<string, InferredValue>,
    private readonly diagnostics: OnnxDiagnostic[],
    private readonly file: string,
    /** Largest element count a folded constant may have. */
    readonly maxFoldElements: number,
  ) {}

  /** Number of inputs given (trailing omitted ones excluded). */
  get inputCount(): number {
    return this.node.inputs.length;
  }

  /** True if optional input #i is present. */
  has(i: number): boolean {
    return (this.node.inputs[i] ?? '') !== '';
  }

  /** The inferred value of input #i, reporting an error when it is missing or unknown. */
  input(i: number): InferredValue | undefined {
    const name = this.node.inputs[i] ?? '';
    if (name === '') {
      this.error(Messages.missingRequiredInput(this.node.opType, i));
      return undefined;
    }
    const v = this.values.get(name);
    if (!v) this.error(Messages.unknownShape(this.node.opType, i, name));
    return v;
  }

  /** The constant value of input #i as numbers, reporting an error if it is not constant. */
  constInput(i: number): number[] | undefined {
    const v = this.input(i);
    if (!v) return undefined;
    if (!v.constant) {
      this.error(Messages.nonConstantInput(this.node.opType, i, this.node.inputs[i]!));
      return undefined;
    }
    return tensorToNumbers(v.constant);
  }

  /** An attribute of the given kind, or `fallback`. */
  attr<K extends OnnxAttributeKind>(name: string, kind: K, fallback: OnnxAttributeValues[K]): OnnxAttributeValues[K];
  attr<K extends OnnxAttributeKind>(name: string, kind: K): OnnxAttributeValues[K] | undefined;
  attr<K extends OnnxAttributeKind>(name: string, kind: K, fallback?: OnnxAttributeValues[K]): OnnxAttributeValues[K] | undefined {
    return getAttribute(this.node, name, kind) ?? fallback;
  }

  /** Reports an error at this node; returns undefined for `return ctx.error(...)`. */
  error(message: string): undefined {
    this.diagnostics.push({ severity: 'error', location: { file: this.file, node: this.node.name, nodeIndex: this.node.index }, message });
    return undefined;
  }

  /** Reports a shape error in the standard `Op: what` form. */
  shapeError(what: string): undefined {
    return this.error(Messages.shapeError(this.node.opType, what));
  }

  /** Normalises an axis in [-rank, rank) to [0, rank), or reports an error. */
  axis(axis: number, rank: number, what = 'axis'): number | undefined {
    if (!Number.isInteger(axis) || axis < -rank || axis >= rank) return this.shapeError(`${what} ${axis} is out of range for rank ${rank}`);
    return axis < 0 ? axis + rank : axis;
  }
}
