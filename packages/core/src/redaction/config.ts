import { isHeadersKey, isSecretHeader, isSecretKey, REDACTED } from "./keys.js";
import { redactText } from "./text.js";

/** Configured secrets shorter than this are not scrubbed from free text (too likely to match words). */
export const MIN_SCRUBBED_SECRET_LENGTH = 8;

const isSet = (v: unknown) => (typeof v === "object" ? v !== null : typeof v === "string" && v !== "");

/**
 * A deep copy of `value` with its secrets replaced by `"***"`, by key and by value:
 * - every value under a secret-named key ({@link isSecretKey}; a whole object or array too), and
 *   under a secret header name inside a `headers` object ({@link isSecretHeader});
 * - in every other string, credentials recognised by their form (URL userinfo and secret query
 *   parameters, bearer tokens, header values; see {@link redactText}) and each of `known`.
 * Unset secrets (`undefined`, `null`, `""`), numbers and booleans stay as they are, so a reader
 * still sees what is configured.
 */
export function redactSecrets<T>(value: T, known: readonly string[] = []): T {
  return redact(value, false, known) as T;
}

function redact(value: unknown, inHeaders: boolean, known: readonly string[]): unknown {
  if (typeof value === "string") return redactText(value, known);
  if (Array.isArray(value)) return value.map((v) => redact(v, false, known));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const secret = inHeaders ? isSecretHeader(key) : isSecretKey(key);
    out[key] = secret && isSet(v) ? REDACTED : redact(v, isHeadersKey(key), known);
  }
  return out;
}

/**
 * Every configured secret value in `config`, longest first: each string (at least
 * {@link MIN_SCRUBBED_SECRET_LENGTH} characters) under a secret key or a secret header name, and
 * the credential of a `Bearer x` / `Basic x` value on its own. What a log scrubber looks for.
 */
export function collectSecretValues(config: unknown): string[] {
  const found = new Set<string>();
  const addAll = (v: unknown) => {
    if (typeof v === "string") {
      for (const s of [v.trim(), v.trim().split(/\s+/).at(-1) ?? ""]) if (s.length >= MIN_SCRUBBED_SECRET_LENGTH) found.add(s);
    } else if (Array.isArray(v)) v.forEach(addAll);
    else if (v !== null && typeof v === "object") Object.values(v).forEach(addAll);
  };
  const walk = (v: unknown, inHeaders: boolean) => {
    if (Array.isArray(v)) return v.forEach((item) => walk(item, false));
    if (v === null || typeof v !== "object") return;
    for (const [key, child] of Object.entries(v)) {
      if (inHeaders ? isSecretHeader(key) : isSecretKey(key)) addAll(child);
      else walk(child, isHeadersKey(key));
    }
  };
  walk(config, false);
  return [...found].sort((a, b) => b.length - a.length);
}
