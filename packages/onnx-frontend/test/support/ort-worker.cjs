// Test support: runs a model in onnxruntime-node in a child process (outside jest's module
// sandbox, whose cross-realm typed-array checks reject onnxruntime's outputs) and returns the
// dims of every output and, when asked, its float32 values. Protocol over IPC (advanced
// serialization):
//   request  { id, model: Uint8Array, feeds: [{ name, dims, data?: Float32Array }], withValues }
//            (a feed without data is zero-filled)
//   response { id, outputs: [{ dims: number[], data?: Float32Array }] } | { id, error }
'use strict';
const ort = require('onnxruntime-node');

const options = { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'disabled', logSeverityLevel: 4 };

function feedData(feed) {
  return feed.data ? Float32Array.from(feed.data) : new Float32Array(feed.dims.reduce((a, b) => a * b, 1));
}

process.on('message', async (request) => {
  try {
    const session = await ort.InferenceSession.create(request.model, options);
    try {
      const feeds = {};
      for (const feed of request.feeds) feeds[feed.name] = new ort.Tensor('float32', feedData(feed), feed.dims);
      const results = await session.run(feeds);
      const outputs = session.outputNames.map((name) =>
        request.withValues ? { dims: Array.from(results[name].dims), data: Float32Array.from(results[name].data) } : { dims: Array.from(results[name].dims) },
      );
      process.send({ id: request.id, outputs });
    } finally {
      await session.release();
    }
  } catch (error) {
    process.send({ id: request.id, error: String(error && error.message ? error.message : error) });
  }
});
