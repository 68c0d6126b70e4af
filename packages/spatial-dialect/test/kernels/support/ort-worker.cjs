// Test support: runs onnxruntime-node in a child process, outside jest's module sandbox
// (onnxruntime builds its output Float32Arrays in the main realm, which fails jest's
// cross-realm instanceof check). Protocol over IPC (advanced serialization):
//   request  { id, model: Uint8Array, feeds: [{ name, dims, data: Float32Array }] }
//   response { id, dims, data } | { id, error }
'use strict';
const ort = require('onnxruntime-node');

const options = { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'disabled', logSeverityLevel: 3 };

process.on('message', async (request) => {
  try {
    const session = await ort.InferenceSession.create(request.model, options);
    try {
      const feeds = {};
      for (const feed of request.feeds) feeds[feed.name] = new ort.Tensor('float32', feed.data, feed.dims);
      const results = await session.run(feeds);
      const y = results[session.outputNames[0]];
      process.send({ id: request.id, dims: Array.from(y.dims), data: Float32Array.from(y.data) });
    } finally {
      await session.release();
    }
  } catch (error) {
    process.send({ id: request.id, error: String(error && error.message ? error.message : error) });
  }
});
