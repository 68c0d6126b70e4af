// Runs an ONNX model in onnxruntime-node outside jest's sandbox (typed arrays created inside
// jest fail onnxruntime's instanceof checks). stdin: {"model": base64, "feeds": {name: {dims, data}}};
// stdout: {"outputs": {name: {dims, data}}} or {"error": text}.
const { errorText, runRequest, readStdin } = require('./ort-run-request.cjs');
readStdin(async (input) => {
  let reply;
  try {
    reply = await runRequest(JSON.parse(input));
  } catch (e) {
    reply = { error: errorText(e) };
  }
  process.stdout.write(JSON.stringify(reply));
});
