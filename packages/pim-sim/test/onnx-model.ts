/**
 * A minimal ONNX model writer for single-node float32 graphs (test oracle only): every node
 * input is a graph input, so onnxruntime computes exactly one operator.
 */
function varint(v: number): number[] {
  const out: number[] = [];
  while (v > 127) {
    out.push((v & 127) | 128);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}
const key = (no: number, wire: number): number[] => varint((no << 3) | wire);
const bytes = (no: number, b: number[]): number[] => [...key(no, 2), ...varint(b.length), ...b];
const str = (no: number, s: string): number[] => bytes(no, [...Buffer.from(s)]);
const int = (no: number, v: number): number[] => [...key(no, 0), ...varint(v)];

function valueInfo(name: string, dims: number[]): number[] {
  const dimBytes = dims.flatMap((d) => bytes(1, int(1, d)));
  const tensorType = [...int(1, 1), ...bytes(2, dimBytes)];
  return [...str(1, name), ...bytes(2, bytes(1, tensorType))];
}

/** An ONNX model (opset 13) with one node `op(inputs) -> Y`. */
export function singleNodeModel(op: string, inputs: { name: string; dims: number[] }[], outDims: number[]): Uint8Array {
  const node = [...inputs.flatMap((i) => str(1, i.name)), ...str(2, 'Y'), ...str(4, op)];
  const graph = [
    ...bytes(1, node),
    ...str(2, 'g'),
    ...inputs.flatMap((i) => bytes(11, valueInfo(i.name, i.dims))),
    ...bytes(12, valueInfo('Y', outDims)),
  ];
  return Uint8Array.from([...int(1, 8), ...bytes(8, [...str(1, ''), ...int(2, 13)]), ...bytes(7, graph)]);
}
