/** The placeholder that replaces a secret value. */
export const REDACTED = "***";

// Key names that hold secrets, compared without case, "-" and "_": token, botToken, appSecret,
// apiKey, password, ... Plural counters such as `maxTokens` do not match.
const SECRET_KEY = /(token|secret|password|passwd|passphrase|apikey|accesskey|privatekey)$/;

/** True when a config key names a secret (`token`, `apiKey`, `accessToken`, `clientSecret`, `appSecret`, `password`, ...). */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key.toLowerCase().replace(/[-_]/g, ""));
}

/**
 * A deep copy of `value` in which every value under a secret-named key is replaced by `"***"`
 * (a whole object or array under such a key too). Unset secrets (`undefined`, `null`, `""`),
 * numbers and booleans stay as they are, so a reader still sees what is configured.
 */
export function redactSecrets<T>(value: T): T {
  return redact(value) as T;
}

function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = isSecretKey(key) && (typeof v === "object" ? v !== null : typeof v === "string" && v !== "") ? REDACTED : redact(v);
  }
  return out;
}
