/**
 * The `spat-to-pim` pass: scheduled Spatial functions -> per-core PIM streams on tensors (host
 * memory as memrefs). Runs on every `func.func` of the module; the logic is
 * {@link convertScheduledFunction} and the patterns of `conversion/patterns`.
 */
import { FuncOp, Pass, type Operation } from '@raptor-pim/ir-core';
import { convertScheduledFunction } from '../conversion/convert-function';
import { targetConfigOf } from '../target';

/** `spat-to-pim`: see the file comment. Statistics: streams, batches kept and expanded, ops emitted. */
export class SpatToPimPass extends Pass {
  readonly argument = 'spat-to-pim';
  override readonly description =
    'Convert scheduled Spatial computes to pim.core / pim.core_batch streams with pim ops on tensors';
  private readonly cores = this.statistic('cores', 'pim.core streams created');
  private readonly batches = this.statistic('core-batches', 'pim.core_batch streams created (lanes kept as lane expressions)');
  private readonly expanded = this.statistic('expanded-batches', 'scheduled batches expanded lane by lane (their cores run other work)');
  private readonly transfers = this.statistic('transfers', 'pim.send / pim.receive emitted');
  private readonly hostLoads = this.statistic('host-loads', 'pim.memcp_hd emitted');
  private readonly hostStores = this.statistic('host-stores', 'pim.memcp_dh emitted');
  private readonly copies = this.statistic('local-copies', 'pim.memcp / pim.concat emitted for data movement');
  private readonly aliases = this.statistic('aliases', 'reshapes and layout conversions lowered without a copy');
  private readonly unrolled = this.statistic('unrolled-iterations', 'iterations of static scf.for loops unrolled into streams');
  private readonly dropped = this.statistic('dropped-computes', 'scheduled computes nothing observes (no result used, no transfer, host slot or event)');

  runOnOperation(module: Operation): void {
    const config = targetConfigOf(this);
    for (const op of module.regions[0]?.firstBlock?.operations ?? []) {
      if (op.definition !== FuncOp) continue;
      const r = convertScheduledFunction(op, config);
      this.cores.value += r.stats.cores;
      this.batches.value += r.stats.coreBatches;
      this.expanded.value += r.stats.expandedBatches;
      this.transfers.value += r.stats.transfers;
      this.hostLoads.value += r.stats.hostLoads;
      this.hostStores.value += r.stats.hostStores;
      this.copies.value += r.stats.copies;
      this.aliases.value += r.stats.aliases;
      this.unrolled.value += r.stats.unrolledIterations;
      this.dropped.value += r.stats.droppedComputes;
      if (!r.ok) this.signalPassFailure();
    }
  }
}

/** Creates the `spat-to-pim` pass. */
export function createSpatToPimPass(): SpatToPimPass {
  return new SpatToPimPass();
}
