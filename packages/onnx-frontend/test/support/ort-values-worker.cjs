// Test support: runs a model in onnxruntime-node in a child process (outside jest's module
// sandbox, whose cross-realm typed-array checks reject onnxruntime's outputs) and returns
// every output's dims and float32 values. Protocol over IPC (advanced serialization):
//   request  { id, model: Uint8Array, feeds: [{ name, dims, data: Float32Array }] }
//   response { id, outputs: [{ dims: number[], data: Float32Array }] } | { id, error }
'use strict';
const ort = require('onnxruntime-node');

const options = { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'disabled', logSeverityLevel: 4 };

process.on('message', async (request) => {
  try {
    const session = await ort.InferenceSession.create(request.model, options);
    try {
      const feeds = {};
      for (const feed of request.feeds) feeds[feed.name] = new ort.Tensor('float32', Float32Array.from(feed.data), feed.dims);
      const results = await session.run(feeds);
      const outputs = session.outputNames.map((name) => ({ dims: Array.from(results[name].dims), data: Float32Array.from(results[name].data) }));
      process.send({ id: request.id, outputs });
    } finally {
      await session.release();
    }
  } catch (error) {
    process.send({ id: request.id, error: String(error && error.message ? error.message : error) });
  }
});
