/**
 * The destination-style contract of the `pim` ops: ir-core's `DestinationStyleOpInterface`
 * names the destination operand; the single result is tied to it (same storage, and a partial
 * write keeps the destination's other bytes). {@link getPimDestination} is the convenience
 * accessor the interpreter uses.
 */
import {
  DestinationStyleOpInterface,
  bufferEffects,
  defineSideEffectResource,
  implement,
  memoryEffects,
  type InterfaceImplementation,
  type Operation,
  type Value,
} from '@raptor-pim/ir-core';

/** The implementation of the destination-style interface for an op whose destination is operand `index` (negative: from the end). */
export function destinationAt(index: number): InterfaceImplementation {
  return implement(DestinationStyleOpInterface, {
    getDpsInits: (op: Operation): Value[] => [op.getOperand(index < 0 ? op.numOperands + index : index)],
  });
}

/** The destination operand of a pim destination-style op, or undefined. */
export function getPimDestination(op: Operation): Value | undefined {
  const impl = op.getInterface(DestinationStyleOpInterface);
  return impl?.getDpsInits(op)[0];
}

/**
 * Memory effects of a destination-style pim op: on memrefs it reads every other buffer operand
 * and writes the destination; on tensors (value semantics) it has none.
 */
export const destinationBufferEffects: InterfaceImplementation = memoryEffects((op: Operation) => {
  const dst = getPimDestination(op);
  return bufferEffects(
    op.operands.filter((v) => v !== dst),
    [dst],
  );
});

/** The channels between cores: `pim.send` writes them, `pim.receive` reads and consumes. */
export const PimChannelResource = defineSideEffectResource('pim.channel');
/** The event registers of the cores: `pim.sync` increments them, `pim.wait` reads and resets. */
export const PimEventRegisterResource = defineSideEffectResource('pim.event_register');
