/**
 * Convenience builders for the Spatial ops that stages create from scratch (the ONNX importer,
 * plan lowering): planning ops in logical NCHW, `spat.graph_compute` and
 * `spat.graph_compute_batch` around a body block built beforehand, the `spat.in_parallel`
 * publication block, and a fragment-assembly `spat.blueprint`. Every op is created through its
 * definition's typed `build`.
 */
import {
  FloatType,
  IntegerAttr,
  IntegerType,
  DenseArrayAttr,
  RankedTensorType,
  type AnyOpDefinition,
  type Attribute,
  type Operation,
  type Block,
  type Location,
  type MLIRContext,
  type OpBuilder,
  type Type,
  type Value,
} from '@raptor-pim/ir-core';
import { SpatEnumAttr } from './attributes';
import { BlueprintOp, GraphComputeBatchOp, GraphComputeOp, InParallelOp, YieldOp } from './ops/compute';

/** A static f32 tensor type of `shape` (`tensor<f32>` for rank 0). */
export function f32TensorType(ctx: MLIRContext, shape: readonly number[]): RankedTensorType {
  return RankedTensorType.get(ctx, shape, FloatType.f32(ctx));
}

/** An op definition built from operands in declaration order (the planning ops' definitions are). */
export interface PlanOpDefinition extends AnyOpDefinition {
  build(builder: OpBuilder, args: never, location: Location): { readonly op: Operation };
}

/**
 * A planning op of definition `def` (`spat.conv2d_plan`, `spat.relu_plan`, ...) over
 * `operands` in the definition's operand order (a variadic group takes all remaining
 * operands), with `attributes` plus `logicalLayout = #spat<logical_layout nchw>`; returns its result.
 *
 * @example
 * const y = createPlan(b, loc, ReluPlanOp, [x], x.type);
 */
export function createPlan(b: OpBuilder, loc: Location, def: PlanOpDefinition, operands: readonly Value[], outputType: Type, attributes: Readonly<Record<string, Attribute>> = {}): Value {
  const args: Record<string, unknown> = { ...attributes, logicalLayout: SpatEnumAttr.get(b.context, 'logical_layout', 'nchw') };
  const names = def.operandNames;
  const kinds = def.operandKinds;
  let next = 0;
  names.forEach((name, i) => {
    if (kinds[i] === 'variadic') {
      args[name] = operands.slice(next);
      next = operands.length;
    } else if (next < operands.length) args[name] = operands[next++];
  });
  if (next !== operands.length) throw new Error(`internal error: ${operands.length} operands for '${def.name}'`);
  args[def.resultNames[0]!] = outputType;
  return def.build(b, args as never, loc).op.getResult(0);
}

/** What a compute op binds: resident crossbar weights (constants) and runtime inputs. */
export interface ComputeOperands {
  readonly weights: readonly Value[];
  readonly inputs: readonly Value[];
}

/**
 * A `spat.graph_compute` binding `bindings`, with results of `resultTypes`, whose body is
 * `body`: a detached block whose arguments are the weights then the inputs and which ends with
 * a `spat.yield` (see {@link createYield}). The block is moved into the op. Returns the results.
 */
export function createGraphCompute(b: OpBuilder, loc: Location, bindings: ComputeOperands, resultTypes: readonly Type[], body: Block): Value[] {
  const op = GraphComputeOp.build(b, { weights: bindings.weights, inputs: bindings.inputs, outputs: resultTypes }, loc);
  op.op.regions[0]!.push(body);
  return [...op.op.results];
}

/**
 * A `spat.graph_compute_batch` of `laneCount` lanes binding `bindings`, with one collection
 * result of `collectionType`, whose body is `body`: a detached block whose arguments are the
 * lane index, the weights, the inputs and the shared output, ending with a `spat.in_parallel`
 * (see {@link createInParallel}). The block is moved into the op. Returns the collection.
 */
export function createGraphComputeBatch(b: OpBuilder, loc: Location, laneCount: number, bindings: ComputeOperands, collectionType: Type, body: Block): Value {
  const op = GraphComputeBatchOp.build(
    b,
    { weights: bindings.weights, inputs: bindings.inputs, outputs: [collectionType], laneCount: IntegerAttr.get(IntegerType.get(b.context, 32), laneCount) },
    loc,
  );
  op.op.regions[0]!.push(body);
  return op.op.getResult(0);
}

/** `spat.yield` of `values` at the builder's point. */
export function createYield(b: OpBuilder, loc: Location, values: readonly Value[]): void {
  YieldOp.build(b, { outputs: values }, loc);
}

/**
 * `spat.in_parallel` at the builder's point; returns its (empty) block, where the caller puts
 * the `tensor.parallel_insert_slice` publications. The builder's insertion point is unchanged.
 */
export function createInParallel(b: OpBuilder, loc: Location): Block {
  const par = InParallelOp.build(b, {}, loc);
  const saved = b.saveInsertionPoint();
  const block = b.createBlock(par.op.regions[0]!, null, [], []);
  b.restoreInsertionPoint(saved);
  return block;
}

/** One piece of a fragment assembly: slot `sourceSlot` of operand `operandIndex` placed at `offsets` with `sizes`. */
export interface AssemblyPiece {
  readonly operandIndex: number;
  readonly sourceSlot: number;
  readonly sourceOffset: number;
  readonly offsets: readonly number[];
  readonly sizes: readonly number[];
  readonly strides: readonly number[];
}

/**
 * `spat.blueprint ... physical fragmented ... map explicit mode fragment_assembly` building the
 * logical NCHW tensor of `outputType` from `pieces` of `fragments` (disjoint, complete coverage).
 */
export function createFragmentAssembly(b: OpBuilder, loc: Location, fragments: readonly Value[], outputType: Type, pieces: readonly AssemblyPiece[]): Value {
  const ctx = b.context;
  const i64 = (values: readonly number[]): DenseArrayAttr => DenseArrayAttr.i64(ctx, values);
  return BlueprintOp.build(
    b,
    {
      fragments,
      output: outputType,
      logicalLayout: SpatEnumAttr.get(ctx, 'logical_layout', 'nchw'),
      physicalLayout: SpatEnumAttr.get(ctx, 'physical_layout', 'fragmented'),
      offsets: i64(pieces.flatMap((p) => p.offsets)),
      sizes: i64(pieces.flatMap((p) => p.sizes)),
      indexMap: SpatEnumAttr.get(ctx, 'index_map', 'explicit'),
      mode: SpatEnumAttr.get(ctx, 'blueprint_mode', 'fragment_assembly'),
      operandIndices: i64(pieces.map((p) => p.operandIndex)),
      sourceSlots: i64(pieces.map((p) => p.sourceSlot)),
      sourceOffsets: i64(pieces.map((p) => p.sourceOffset)),
      fragmentStrides: i64(pieces.flatMap((p) => p.strides)),
      conflictPolicy: SpatEnumAttr.get(ctx, 'conflict_policy', 'disjoint'),
      coveragePolicy: SpatEnumAttr.get(ctx, 'coverage_policy', 'complete'),
    },
    loc,
  ).output;
}
