/**
 * The `pim-bufferize` pass: tensors -> memrefs in every core stream (destination-passing
 * style, in place where allowed, counted copies otherwise), then buffers sized by their byte
 * accesses, whole-buffer copies forwarded, and MVM inputs read in place. The logic is
 * {@link bufferizeCoreBody}, {@link shrinkBuffersToAccesses}, {@link forwardWholeCopies},
 * {@link forwardCopiesThroughTemporaries} and {@link forwardSliceCopiesToViews}.
 */
import { FuncOp, Pass, type Operation, type Value } from '@raptor-pim/ir-core';
import { coreBatchSegments, CoreBatchOp } from '@raptor-pim/pim-dialect';
import { bufferizeCoreBody, type BufferizeCounts } from '../conversion/bufferize-core';
import { coresOf, isStream } from '../analysis/live-intervals';
import { forwardCopiesThroughTemporaries, forwardSliceCopiesToViews, forwardWholeCopies } from '../conversion/forward-copies';
import { shrinkBuffersToAccesses, type ShrinkCounts } from '../conversion/shrink-buffers';
import { localMemoryOf, targetConfigOf } from '../target';

/** What `pim-bufferize` did to a module (the compile report's bufferization entry). */
export interface BufferizeReport extends BufferizeCounts, ShrinkCounts {
  /** Streams bufferized. */
  streams: number;
  /** Whole-buffer copies dropped because the copy is a second name of its source ({@link forwardWholeCopies}). */
  forwarded: number;
  /** Temporaries dropped because their reads copy from the temporary's source instead ({@link forwardCopiesThroughTemporaries}). */
  temporariesForwarded: number;
  /** Slice copies into MVM inputs dropped because the MVM reads a view of their source ({@link forwardSliceCopiesToViews}). */
  slicesViewed: number;
}

/** Options of {@link PimBufferizePass}. */
export interface PimBufferizeOptions {
  /** Receives the report of each run. */
  readonly onReport?: (report: BufferizeReport) => void;
}

/**
 * `pim-bufferize`. Statistics: `copies-inserted`, `in-place`, `allocations`, `buffers-shrunk`,
 * `copies-forwarded`, `temporaries-forwarded`. After the conversion, buffers only accessed by
 * byte copies and transfers keep only the rows those reach ({@link shrinkBuffersToAccesses}),
 * then whole-buffer copies into a buffer of the same type are forwarded
 * ({@link forwardWholeCopies}), then copies through a temporary read right after it is written
 * ({@link forwardCopiesThroughTemporaries}), then slice copies into MVM inputs become views of
 * their source ({@link forwardSliceCopiesToViews}).
 */
export class PimBufferizePass extends Pass {
  readonly argument = 'pim-bufferize';
  override readonly description = 'Bufferize PIM core streams: tensors to memrefs in destination-passing style';
  private readonly copies = this.statistic('copies-inserted', 'destinations copied because their tensor was still needed');
  private readonly inPlace = this.statistic('in-place', 'destinations written in place');
  private readonly allocations = this.statistic('allocations', 'local buffers allocated');
  private readonly shrunk = this.statistic('buffers-shrunk', 'buffers given only the rows their byte accesses reach');
  private readonly forwarded = this.statistic('copies-forwarded', 'whole-buffer copies dropped (the copy is a second name of its source)');
  private readonly temporaries = this.statistic('temporaries-forwarded', 'temporaries dropped (their reads copy from the temporary\'s source)');
  private readonly slicesViewed = this.statistic('slices-viewed', 'slice copies into MVM inputs dropped (the MVM reads a view of the source)');

  constructor(private readonly options: PimBufferizeOptions = {}) {
    super();
  }

  runOnOperation(module: Operation): void {
    const { alignment } = localMemoryOf(targetConfigOf(this));
    const report: BufferizeReport = { streams: 0, allocations: 0, inPlace: 0, copies: 0, shrunk: 0, bytesSaved: 0, forwarded: 0, temporariesForwarded: 0, slicesViewed: 0 };
    for (const func of module.regions[0]?.firstBlock?.operations ?? []) {
      if (func.definition !== FuncOp) continue;
      for (const op of func.regions[0]?.firstBlock?.operations ?? []) {
        if (!isStream(op)) continue;
        const body = op.regions[0]!.firstBlock!;
        const args = body.arguments;
        const weights: Value[] = op.definition === CoreBatchOp ? args.slice(1, 1 + coreBatchSegments(op)[0]) : [...args];
        const counts = bufferizeCoreBody(body, new Set(weights), alignment);
        if (!counts) {
          this.signalPassFailure();
          continue;
        }
        report.streams++;
        report.allocations += counts.allocations;
        report.inPlace += counts.inPlace;
        report.copies += counts.copies;
        const lanes = coresOf(op).map((_, k) => new Map<Value, number>(op.definition === CoreBatchOp ? [[args[0]!, k]] : []));
        const shrink = shrinkBuffersToAccesses(body, lanes);
        report.shrunk += shrink.shrunk;
        report.bytesSaved += shrink.bytesSaved;
        report.forwarded += forwardWholeCopies(body);
        report.temporariesForwarded += forwardCopiesThroughTemporaries(body);
        report.slicesViewed += forwardSliceCopiesToViews(body);
      }
    }
    this.copies.value += report.copies;
    this.inPlace.value += report.inPlace;
    this.allocations.value += report.allocations;
    this.shrunk.value += report.shrunk;
    this.forwarded.value += report.forwarded;
    this.temporaries.value += report.temporariesForwarded;
    this.slicesViewed.value += report.slicesViewed;
    this.options.onReport?.(report);
  }
}
