// Test support: runs a model in onnxruntime-node in a child process (outside jest's module
// sandbox, whose cross-realm typed-array checks reject onnxruntime's outputs) and returns
// the dims of every output. Protocol over IPC (advanced serialization):
//   request  { id, model: Uint8Array, feeds: [{ name, dims }] }   (inputs are zero-filled)
//   response { id, dims: number[][] } | { id, error }
'use strict';
const ort = require('onnxruntime-node');

const options = { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'disabled', logSeverityLevel: 4 };

process.on('message', async (request) => {
  try {
    const session = await ort.InferenceSession.create(request.model, options);
    try {
      const feeds = {};
      for (const feed of request.feeds) {
        const n = feed.dims.reduce((a, b) => a * b, 1);
        feeds[feed.name] = new ort.Tensor('float32', new Float32Array(n), feed.dims);
      }
      const results = await session.run(feeds);
      process.send({ id: request.id, dims: session.outputNames.map((name) => Array.from(results[name].dims)) });
    } finally {
      await session.release();
    }
  } catch (error) {
    process.send({ id: request.id, error: String(error && error.message ? error.message : error) });
  }
});
