// Runs many small ONNX models in onnxruntime-node in one child process (jest's sandboxed typed
// arrays fail onnxruntime's instanceof checks), for the convolution/pooling/matrix-product
// lowering tests. stdin: [{"model": base64, "feeds": {name: {dims, data}}}, ...];
// stdout: [{"outputs": {name: {dims, data}}} | {"error": text}, ...] in the same order.
const { InferenceSession, Tensor } = require('onnxruntime-node');
let input = '';
process.stdin.on('data', (c) => (input += c));
process.stdin.on('end', async () => {
  const replies = [];
  for (const req of JSON.parse(input)) {
    try {
      const session = await InferenceSession.create(Buffer.from(req.model, 'base64'), { intraOpNumThreads: 1, graphOptimizationLevel: 'disabled', logSeverityLevel: 3 });
      const feeds = {};
      for (const [name, t] of Object.entries(req.feeds)) feeds[name] = new Tensor('float32', Float32Array.from(t.data), t.dims);
      const out = await session.run(feeds);
      const outputs = {};
      for (const [name, t] of Object.entries(out)) outputs[name] = { dims: [...t.dims], data: Array.from(t.data) };
      replies.push({ outputs });
    } catch (e) {
      replies.push({ error: String(e && e.message ? e.message : e) });
    }
  }
  process.stdout.write(JSON.stringify(replies));
});
