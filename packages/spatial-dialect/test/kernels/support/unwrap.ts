import type { KernelResult } from '../../../src';

/** Returns the value of a successful kernel result; fails the test with the kernel's message otherwise. */
export function unwrap<T>(result: KernelResult<T>): T {
  if (!result.ok) throw new Error(`kernel failed: ${result.message}`);
  return result.value;
}

/** Returns the failure message of a kernel result; fails the test if the kernel succeeded. */
export function failureOf<T>(result: KernelResult<T>): string {
  if (result.ok) throw new Error('expected the kernel to fail, it succeeded');
  return result.message;
}

/** Fixed fast-check seed for all kernel property tests (determinism). */
export const SEED = 20261130;
