#!/usr/bin/env node
// Local-memory floor of a model on the default 64-core target: what the scheduler's memory model
// asks for before any strategy runs. Per model, after the preprocessing the driver applies
// (input-channel split, column split of oversized computes, tiling of parallel scalar computes,
// lane splits): the fewest replicas that fit a core at window granularity (streamed, no room
// kept for a fallback to layer granularity) and at the granularity the strategies size for
// (window replicas with room for the layer fallback), their crossbars, the sum of the window
// replicas' bodies against the chip's local memory, and the sum of all results against the host
// memory. A streamed pipeline needs its stages live at once: a body sum above the chip's memory
// means the model only runs with layers time-multiplexed.
//
//   node tools/bench/scheduler/memory-floor.mjs [model ...]
//
// Models default to resnet18 and mobilenet_block. Sibling packages are read from source.
import { runTs } from '../run-ts.mjs';

process.exit(runTs(import.meta.url, 'memory-floor.ts', process.argv.slice(2)));
