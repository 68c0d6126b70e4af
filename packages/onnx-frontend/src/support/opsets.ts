/**
 * Opset imports the frontend accepts.
 */

/**
 * Oldest ai.onnx opset the frontend reads. The issue asks for 7; 6 is accepted too (with
 * the legacy `broadcast`/`axis` attributes of Add/Sub/Mul) because most older PyTorch
 * exports, including ONNX's own pytorch-converted tests, use it.
 */
export const MIN_OPSET = 6;
/** Newest ai.onnx opset the frontend reads (opset 24 of onnx 1.19 only added element types to our operators). */
export const MAX_OPSET = 24;

/**
 * Domains that are known (a model may import them) besides ai.onnx. Importing them is fine;
 * their operators are reported as unsupported when a node uses one.
 */
export const KNOWN_DOMAINS: ReadonlySet<string> = new Set([
  'ai.onnx.ml',
  'ai.onnx.training',
  'ai.onnx.preview.training',
  'com.microsoft',
  'com.microsoft.nchwc',
  'com.microsoft.experimental',
  'com.ms.internal.nhwc',
  'org.pytorch.aten',
]);

/** Normalises the ai.onnx domain to `''` (files spell it `''` or `ai.onnx`). */
export function normalizeDomain(domain: string): string {
  return domain === 'ai.onnx' ? '' : domain;
}
