/**
 * A typed key for a value the pass manager hands to every pass (the target machine, a
 * scheduler, ...). Create keys with {@link definePassContextKey}; keys are interned by name, so
 * two packages that define `'raptor.target'` get the same key (and see the same value) without
 * importing each other.
 */
export class PassContextKey<T> {
  /** @internal Phantom marker carrying `T`. */
  declare readonly phantom?: T;

  /** @internal Use {@link definePassContextKey}. */
  constructor(
    /** The key's name (`raptor.target`). */
    readonly name: string,
  ) {}
}

const interned = new Map<string, PassContextKey<unknown>>();

/**
 * The key named `name`, created on first use and shared by every later call with the same
 * name (so the `T` of all definitions of one name must agree: that is the callers' contract).
 *
 * @example
 * ```ts
 * // in a stage package (no dependency on the compiler):
 * export const TargetKey = definePassContextKey<HardwareConfig>('raptor.target');
 * // in the compiler:  pm.setContext(TargetKey, config);
 * // in a pass:        const target = this.getContext(TargetKey);
 * ```
 */
export function definePassContextKey<T>(name: string): PassContextKey<T> {
  let k = interned.get(name);
  if (!k) interned.set(name, (k = new PassContextKey<unknown>(name)));
  return k as PassContextKey<T>;
}

/** The typed values a pass manager carries for its passes (a map keyed by {@link PassContextKey}). */
export class PassContext {
  /** An empty, shared context (what a pass sees when run outside a pass manager). */
  static readonly empty: PassContext = new PassContext();
  private readonly values = new Map<PassContextKey<unknown>, unknown>();

  /** The value under `key`, or undefined. */
  get<T>(key: PassContextKey<T>): T | undefined {
    return this.values.get(key) as T | undefined;
  }

  /** Stores `value` under `key` (replacing an earlier one). */
  set<T>(key: PassContextKey<T>, value: T): void {
    if (this === PassContext.empty) throw new Error('internal error: the empty pass context is immutable');
    this.values.set(key, value);
  }

  /** Removes the value under `key`; returns whether there was one. */
  delete(key: PassContextKey<unknown>): boolean {
    return this.values.delete(key);
  }

  /** The keys that have values, in insertion order. */
  get keys(): PassContextKey<unknown>[] {
    return [...this.values.keys()];
  }
}
