// Runs several ONNX models in onnxruntime-node in one process (outside jest's sandbox, whose
// typed arrays fail onnxruntime's instanceof checks). stdin: [{"model": base64, "feeds":
// {name: {dims, data}}}, ...]; stdout: [{"outputs": {name: {dims, data}}} | {"error": text}, ...].
const { runRequest, readStdin } = require('./ort-run-request.cjs');
readStdin(async (input) => {
  const replies = [];
  for (const req of JSON.parse(input)) replies.push(await runRequest(req));
  process.stdout.write(JSON.stringify(replies));
});
