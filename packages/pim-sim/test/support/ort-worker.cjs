// onnxruntime-node in a child process (outside jest's module sandbox, whose typed-array
// realm onnxruntime's tensor checks reject). Request: { id, model, feeds: { name: { data, dims } } };
// reply: { id, data } or { id, error }. One intra-op thread.
'use strict';
const ort = require('onnxruntime-node');

process.on('message', async (req) => {
  try {
    const session = await ort.InferenceSession.create(Buffer.from(req.model), { intraOpNumThreads: 1, interOpNumThreads: 1 });
    const feeds = {};
    for (const [name, t] of Object.entries(req.feeds)) feeds[name] = new ort.Tensor('float32', Float32Array.from(t.data), t.dims);
    const out = await session.run(feeds);
    process.send({ id: req.id, data: Float32Array.from(out.Y.data) });
  } catch (e) {
    process.send({ id: req.id, error: String(e && e.message ? e.message : e) });
  }
});
