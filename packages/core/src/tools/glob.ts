const cache = new Map<string, RegExp>();

/** Case-insensitive match of `value` against a pattern where `*` stands for any run of characters. */
export function matchesGlob(pattern: string, value: string): boolean {
  let re = cache.get(pattern);
  if (!re) {
    const body = pattern
      .trim()
      .split("*")
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*");
    re = new RegExp(`^${body}$`, "i");
    cache.set(pattern, re);
  }
  return re.test(value.trim());
}
