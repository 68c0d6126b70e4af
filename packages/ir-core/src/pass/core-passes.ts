import { CanonicalizerPass } from './canonicalize';
import { CSEPass } from './cse';
import type { PassRegistry } from './pass-registry';

/** Registers the generic passes of this package (`canonicalize`, `cse`) in `registry`. */
export function registerCorePasses(registry: PassRegistry): void {
  registry.registerPass(() => new CanonicalizerPass());
  registry.registerPass(() => new CSEPass());
}
