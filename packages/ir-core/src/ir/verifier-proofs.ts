import type { Operation } from './operation';

/**
 * @internal State shared by the verifier and the IsolatedFromAbove trait (not exported from
 * the package). While the verifier runs the region invariants of an isolated op whose
 * operands it has already seen to be defined inside the op's regions (during the walk that
 * verified those ops), it sets `isolated` to that op, and the trait's region verifier returns
 * true for it without walking the regions again. Any other caller gets the full check.
 */
export const verifierProofs: { isolated: Operation | null } = { isolated: null };
