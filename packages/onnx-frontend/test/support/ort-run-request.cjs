// Test support shared by ort-run.cjs and ort-run-batch.cjs: one request run in onnxruntime-node
// outside jest's sandbox (typed arrays created inside jest fail onnxruntime's instanceof checks).
// request {"model": base64, "feeds": {name: {dims, data}}}; reply {"outputs": {name: {dims, data}}}
// or {"error": text}.
'use strict';
const { InferenceSession, Tensor } = require('onnxruntime-node');

/** The message of a thrown value. */
function errorText(e) {
  return String(e && e.message ? e.message : e);
}

/** Runs one request; resolves to its reply (an error becomes {"error": text}). */
async function runRequest(req) {
  try {
    const session = await InferenceSession.create(Buffer.from(req.model, 'base64'), { intraOpNumThreads: 1, graphOptimizationLevel: 'disabled', logSeverityLevel: 3 });
    const feeds = {};
    for (const [name, t] of Object.entries(req.feeds)) feeds[name] = new Tensor('float32', Float32Array.from(t.data), t.dims);
    const out = await session.run(feeds);
    const outputs = {};
    for (const [name, t] of Object.entries(out)) outputs[name] = { dims: [...t.dims], data: Array.from(t.data) };
    return { outputs };
  } catch (e) {
    return { error: errorText(e) };
  }
}

/** Calls `onInput` with the whole of stdin once it has ended. */
function readStdin(onInput) {
  let input = '';
  process.stdin.on('data', (c) => (input += c));
  process.stdin.on('end', () => onInput(input));
}

module.exports = { errorText, runRequest, readStdin };
