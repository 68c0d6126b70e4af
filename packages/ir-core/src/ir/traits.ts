import { M } from '../diagnostics/ir-messages';
import type { Type } from './attribute';
import { StringAttr } from './builtin-attributes';
import { isShapedType, hasRank, RankedTensorType, isDynamic } from './builtin-types';
import type { Operation } from './operation';
import { verifySymbolTableOp } from './symbol-table';
import { verifierProofs } from './verifier-proofs';

/**
 * An operation trait: a named property of an op definition, optionally with verifiers.
 * `verify` runs with the op's other invariants (before the op's custom verifier);
 * `verifyRegion` runs after the op's regions have been verified (MLIR's
 * `verifyRegionTrait`). Both emit diagnostics and return `false` on failure.
 *
 * Unparameterized traits are singletons compared by identity ({@link Operation.hasTrait});
 * parameterized ones (e.g. {@link Traits.HasParent}) share a `kind` and are found with
 * {@link OpDefinition.findTrait}.
 */
export interface OpTrait {
  /** The trait's kind, as MLIR names it (`IsTerminator`, `HasParent`, ...). */
  readonly kind: string;
  /** Traits implied by this one (added to the definition too). */
  readonly implied?: readonly OpTrait[];
  /** Per-op invariant check (runs before the custom verifier). */
  verify?(op: Operation): boolean;
  /** Check that needs verified regions (runs after the nested ops were verified). */
  verifyRegion?(op: Operation): boolean;
}

/** `HasParent<...>`: the op must be directly nested in one of `parents`. */
export interface HasParentTrait extends OpTrait {
  readonly kind: 'HasParent';
  /** Allowed parent op names. */
  readonly parents: readonly string[];
}

/** `SingleBlockImplicitTerminator<name>`. */
export interface ImplicitTerminatorTrait extends OpTrait {
  readonly kind: 'SingleBlockImplicitTerminator';
  /** The terminator op name implied by the custom syntax. */
  readonly terminatorName: string;
}

/** The element type of a shaped type, or the type itself (MLIR's `getElementTypeOrSelf`). */
export function getElementTypeOrSelf(type: Type): Type {
  return isShapedType(type) ? type.elementType : type;
}

/** True when two types have compatible shapes (MLIR's `verifyCompatibleShape`). */
export function areCompatibleShapes(a: Type, b: Type): boolean {
  const sa = isShapedType(a);
  const sb = isShapedType(b);
  if (!sa && !sb) return true;
  if (sa !== sb) return false;
  if (!hasRank(a) || !hasRank(b)) return true;
  if (a.shape.length !== b.shape.length) return false;
  for (let i = 0; i < a.shape.length; i++) {
    const x = a.shape[i]!;
    const y = b.shape[i]!;
    if (x !== y && !isDynamic(x) && !isDynamic(y)) return false;
  }
  return true;
}

function atLeastOneOperand(op: Operation): boolean {
  if (op.numOperands < 1) {
    op.emitOpError(M.expectedAtLeastNOperands(1, op.numOperands));
    return false;
  }
  return true;
}
function atLeastOneResult(op: Operation): boolean {
  if (op.numResults < 1) {
    op.emitOpError(M.expectedAtLeastNResults(1));
    return false;
  }
  return true;
}

function encodingOf(t: Type): unknown {
  return t instanceof RankedTensorType ? t.encoding : undefined;
}

function verifySameOperandsAndResultType(op: Operation): boolean {
  if (!atLeastOneOperand(op) || !atLeastOneResult(op)) return false;
  const type = op.getResult(0).type;
  const elt = getElementTypeOrSelf(type);
  const enc = encodingOf(type);
  const check = (t: Type): boolean => {
    if (t === type) return true;
    if (getElementTypeOrSelf(t) !== elt || !areCompatibleShapes(t, type)) {
      op.emitOpError(M.sameOperandsAndResultType);
      return false;
    }
    if (enc !== undefined && encodingOf(t) !== enc) {
      op.emitOpError('requires the same encoding for all operands and results');
      return false;
    }
    return true;
  };
  for (let i = 1; i < op.numResults; i++) if (!check(op.getResult(i).type)) return false;
  for (let i = 0; i < op.numOperands; i++) if (!check(op.getOperand(i).type)) return false;
  return true;
}

function verifyIsolatedFromAbove(isolated: Operation): boolean {
  // The running verifier saw every operand in these regions defined inside them.
  if (isolated === verifierProofs.isolated) return true;
  for (const region of isolated.regions) {
    const pending = [region];
    while (pending.length > 0) {
      const r = pending.pop()!;
      for (let b = r.firstBlock; b; b = b.next) {
        for (let o = b.firstOp; o; o = o.next) {
          for (let i = 0; i < o.numOperands; i++) {
            const operandRegion = o.getOperand(i).parentRegion;
            if (operandRegion === r || operandRegion === region) continue;
            if (!operandRegion) {
              o.emitError(M.operandUnlinked);
              return false;
            }
            if (!region.isAncestor(operandRegion)) {
              o.emitOpError(M.usingValueDefinedOutside).attachNote(M.requiredByIsolation, isolated.location);
              return false;
            }
          }
          if (o.regions.length > 0 && !o.hasTrait(Traits.IsolatedFromAbove)) {
            for (const sub of o.regions) pending.push(sub);
          }
        }
      }
    }
  }
  return true;
}

function verifySingleBlock(op: Operation): boolean {
  const regions = op.regions;
  for (let i = 0; i < regions.length; i++) {
    const r = regions[i]!;
    if (r.empty) continue;
    if (!r.hasOneBlock) {
      op.emitOpError(M.expectsRegionZeroOrOneBlock(i));
      return false;
    }
    if (r.firstBlock!.empty && !op.hasTrait(Traits.NoTerminator)) {
      op.emitOpError(M.expectsNonEmptyBlock);
      return false;
    }
  }
  return true;
}

const IsTerminator: OpTrait = {
  kind: 'IsTerminator',
  verify(op) {
    const b = op.parent;
    if (!b || b.lastOp !== op) {
      op.emitOpError(M.mustBeLastInBlock);
      return false;
    }
    return true;
  },
};

const SingleBlock: OpTrait = { kind: 'SingleBlock', verify: verifySingleBlock };

const Symbol: OpTrait = {
  kind: 'Symbol',
  verify(op) {
    const name = op.getAttr('sym_name');
    if (!(name instanceof StringAttr)) {
      op.emitOpError(M.requiresStringAttr('sym_name'));
      return false;
    }
    const vis = op.getAttr('sym_visibility');
    if (vis !== undefined) {
      if (!(vis instanceof StringAttr)) {
        op.emitOpError(M.visibilityMustBeString('sym_visibility'));
        return false;
      }
      if (vis.value !== 'public' && vis.value !== 'private' && vis.value !== 'nested') {
        op.emitOpError(M.visibilityInvalid(vis.value));
        return false;
      }
    }
    return true;
  },
};

/**
 * The built-in traits, with MLIR's verifiers and messages. Parameterized traits are
 * functions returning a trait object.
 */
export const Traits = {
  /** The op terminates its block (must be last). */
  IsTerminator,
  /** The op's single-block regions need no terminator (e.g. `builtin.module`). */
  NoTerminator: { kind: 'NoTerminator' } as OpTrait,
  /** Regions may not use values defined above the op. */
  IsolatedFromAbove: { kind: 'IsIsolatedFromAbove', verifyRegion: verifyIsolatedFromAbove } as OpTrait,
  /** Each region has at most one block (non-empty unless `NoTerminator`). */
  SingleBlock,
  /** Single block whose terminator is `terminatorName` (implied by the custom syntax). */
  SingleBlockImplicitTerminator(terminatorName: string): ImplicitTerminatorTrait {
    return {
      kind: 'SingleBlockImplicitTerminator',
      terminatorName,
      implied: [SingleBlock],
      verify(op) {
        for (const r of op.regions) {
          if (r.empty) continue;
          const last = r.firstBlock!.lastOp;
          if (last === null) continue;
          if (last.name !== terminatorName) {
            op.emitOpError(M.expectsRegionsToEndWith(terminatorName, last.name)).attachNote(
              M.implicitTerminatorNote(terminatorName),
            );
            return false;
          }
        }
        return true;
      },
    };
  },
  /** All operands and results have the same type (compatible shapes, same element type). */
  SameOperandsAndResultType: { kind: 'SameOperandsAndResultType', verify: verifySameOperandsAndResultType } as OpTrait,
  /** All operands have the same type. */
  SameTypeOperands: {
    kind: 'SameTypeOperands',
    verify(op) {
      if (op.numOperands < 2) return true;
      const t = op.getOperand(0).type;
      for (let i = 1; i < op.numOperands; i++) {
        if (op.getOperand(i).type !== t) {
          op.emitOpError(M.sameTypeOperands);
          return false;
        }
      }
      return true;
    },
  } as OpTrait,
  /** All operands have the same element type. */
  SameOperandsElementType: {
    kind: 'SameOperandsElementType',
    verify(op) {
      if (!atLeastOneOperand(op)) return false;
      const e = getElementTypeOrSelf(op.getOperand(0).type);
      for (let i = 1; i < op.numOperands; i++) {
        if (getElementTypeOrSelf(op.getOperand(i).type) !== e) {
          op.emitOpError(M.sameOperandsElementType);
          return false;
        }
      }
      return true;
    },
  } as OpTrait,
  /** All operands and results have the same element type. */
  SameOperandsAndResultElementType: {
    kind: 'SameOperandsAndResultElementType',
    verify(op) {
      if (!atLeastOneOperand(op) || !atLeastOneResult(op)) return false;
      const e = getElementTypeOrSelf(op.getResult(0).type);
      const all = [...op.resultTypes, ...op.operands.map((v) => v.type)];
      for (const t of all) {
        if (getElementTypeOrSelf(t) !== e) {
          op.emitOpError(M.sameOperandsAndResultElementType);
          return false;
        }
      }
      return true;
    },
  } as OpTrait,
  /** All operands and results have compatible shapes. */
  SameOperandsAndResultShape: {
    kind: 'SameOperandsAndResultShape',
    verify(op) {
      if (!atLeastOneOperand(op) || !atLeastOneResult(op)) return false;
      const all = [...op.operands.map((v) => v.type), ...op.resultTypes];
      for (let i = 1; i < all.length; i++) {
        if (!areCompatibleShapes(all[0]!, all[i]!)) {
          op.emitOpError(M.sameOperandsAndResultShape);
          return false;
        }
      }
      return true;
    },
  } as OpTrait,
  /** The op must be directly nested in an op named one of `parents`. */
  HasParent(...parents: string[]): HasParentTrait {
    return {
      kind: 'HasParent',
      parents,
      verify(op) {
        const p = op.getParentOp();
        if (p && parents.includes(p.name)) return true;
        op.emitOpError(M.expectsParentOp(parents));
        return false;
      },
    };
  },
  /** The op's regions have no arguments. */
  NoRegionArguments: {
    kind: 'NoRegionArguments',
    verify(op) {
      for (const r of op.regions) {
        if (r.empty || r.firstBlock!.numArguments === 0) continue;
        op.emitOpError(op.numRegions > 1 ? M.regionNShouldHaveNoArguments(r.regionNumber) : M.regionShouldHaveNoArguments);
        return false;
      }
      return true;
    },
  } as OpTrait,
  /** The op's region defines a symbol table: one block, unique `sym_name`s among its ops. */
  SymbolTable: { kind: 'SymbolTable', verifyRegion: verifySymbolTableOp } as OpTrait,
  /** The op defines a symbol: a `sym_name` string attribute, optional `sym_visibility`. */
  Symbol,
  /** No side effects and always speculatable (MLIR's `Pure`). Trivially dead ones are erased. */
  Pure: { kind: 'Pure' } as OpTrait,
  /** No memory effects (without the speculation guarantee of `Pure`). */
  NoMemoryEffect: { kind: 'NoMemoryEffect' } as OpTrait,
  /** The op's memory effects are those of the ops in its regions. */
  RecursiveMemoryEffects: { kind: 'RecursiveMemoryEffects' } as OpTrait,
  /** Operands can be swapped (the canonicalizer moves constants right). */
  Commutative: { kind: 'Commutative' } as OpTrait,
  /** The op materializes a constant; its `fold` returns its value attribute. */
  ConstantLike: { kind: 'ConstantLike' } as OpTrait,
  /** The op returns control to its parent (like `func.return`, `scf.yield`). */
  ReturnLike: { kind: 'ReturnLike' } as OpTrait,
  /** The op's regions are graph regions (no SSA dominance inside them). */
  HasOnlyGraphRegion: { kind: 'HasOnlyGraphRegion' } as OpTrait,
  /** Elementwise op (scalars or same-shaped tensors/vectors). */
  Elementwise: { kind: 'Elementwise' } as OpTrait,
  /** The op starts a new affine scope. */
  AffineScope: { kind: 'AffineScope' } as OpTrait,
  /** Allocations in the op's region are freed when it exits. */
  AutomaticAllocationScope: { kind: 'AutomaticAllocationScope' } as OpTrait,
} as const;

