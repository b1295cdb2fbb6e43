/** A small in-memory cache of search answers with a time-to-live and a size bound. */
export interface SearchCache<T> {
  get(key: string, ttlMs: number): T | undefined;
  set(key: string, value: T): void;
  clear(): void;
}

/**
 * Entries older than the `ttlMs` given to `get` are misses (and dropped); past `maxEntries` the
 * oldest entry goes. `now` is the clock (default `Date.now`), injectable for tests.
 */
export function createSearchCache<T>(options: { maxEntries?: number; now?: () => number } = {}): SearchCache<T> {
  const maxEntries = options.maxEntries ?? 100;
  const now = options.now ?? Date.now;
  const entries = new Map<string, { at: number; value: T }>();
  return {
    get(key, ttlMs) {
      const hit = entries.get(key);
      if (!hit) return undefined;
      if (now() - hit.at >= ttlMs) {
        entries.delete(key);
        return undefined;
      }
      return hit.value;
    },
    set(key, value) {
      entries.delete(key);
      entries.set(key, { at: now(), value });
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    },
    clear: () => entries.clear(),
  };
}
