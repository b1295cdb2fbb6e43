// For the esbuild plugins of scripts/bundle-extension.mjs: an `onResolve`/`onLoad` filter that
// matches exactly the given specifiers or paths (esbuild filters are Go regular expressions, so
// every special character is escaped).

/** `text` with the regular-expression special characters escaped. */
export const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** A filter matching exactly one of `texts`. */
export const exactFilter = (texts) => new RegExp(`^(${texts.map(escapeRegExp).join("|")})$`);
