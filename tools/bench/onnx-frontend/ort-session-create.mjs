#!/usr/bin/env node
// The yardstick of `raptor import` as a whole process: a node process that creates one
// onnxruntime-node session for the model (1 intra-op thread, all graph optimizations) and exits.
//   node tools/bench/onnx-frontend/ort-session-create.mjs MODEL.onnx
import { InferenceSession } from 'onnxruntime-node';

const model = process.argv[2];
if (!model) {
  console.error('usage: ort-session-create.mjs MODEL.onnx');
  process.exit(2);
}
const session = await InferenceSession.create(model, { intraOpNumThreads: 1, interOpNumThreads: 1, logSeverityLevel: 3 });
await session.release();
