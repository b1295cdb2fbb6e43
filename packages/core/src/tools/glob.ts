const cache = new Map<string, RegExp>();

/**
 * Match of `value` against a pattern where `*` stands for any run of characters (`/` included).
 * Case-insensitive unless `options.caseSensitive`; both sides are trimmed.
 */
export function matchesGlob(pattern: string, value: string, options: { caseSensitive?: boolean } = {}): boolean {
  const flags = options.caseSensitive ? "" : "i";
  const key = `${flags}:${pattern}`;
  let re = cache.get(key);
  if (!re) {
    const body = pattern
      .trim()
      .split("*")
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*");
    re = new RegExp(`^${body}$`, flags);
    cache.set(key, re);
  }
  return re.test(value.trim());
}
