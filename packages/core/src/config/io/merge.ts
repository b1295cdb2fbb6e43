/** True for `{}`-style objects (what JSON5 produces), false for arrays, null and class instances. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Assigns an own property, also for keys such as `__proto__` (no prototype pollution). */
export function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Merges `override` onto `base` without mutating either: plain objects merge key by key
 * recursively; arrays, scalars and anything else in `override` replace the base value.
 * An `undefined` override keeps the base value.
 */
export function deepMerge(base: unknown, override: unknown): unknown {
  if (override === undefined) return base;
  if (!isPlainObject(base) || !isPlainObject(override)) return override;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(base)) defineOwn(out, key, value);
  for (const [key, value] of Object.entries(override)) {
    defineOwn(out, key, Object.hasOwn(out, key) ? deepMerge(out[key], value) : value);
  }
  return out;
}
