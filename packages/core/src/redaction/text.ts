import { redactUrl } from "@openclaw/plugin-sdk";
import { REDACTED } from "./keys.js";

// Absolute URLs in running text; a quote, bracket or whitespace ends one.
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;

// `Authorization: Bearer …`, `"cookie":"…"`, `x-api-key=…` in error dumps and header listings: the
// value up to the end of the line or the closing quote.
const HEADER_VALUE = /\b((?:proxy-)?authorization|(?:set-)?cookie|x-api-key|api-key)(["']?\s*[:=]\s*["']?)([^"'\r\n}]+)/gi;

// A bearer token anywhere else: 8 or more token characters, at least one not a letter (so prose
// such as "bearer tokens" stays).
const BEARER = /\b(bearer)\s+(?=[A-Za-z]*[0-9._~+/=-])[A-Za-z0-9._~+/=-]{8,}/gi;

/**
 * `text` with the secrets it shows by their form replaced by `***`: header values of
 * Authorization, Proxy-Authorization, Cookie, Set-Cookie, X-Api-Key and Api-Key; bearer tokens;
 * and in every URL its userinfo and secret query parameters (see `redactUrl` of the plugin SDK).
 * Each of `known` (configured secret values) is replaced wherever it appears. Text without any
 * of these comes back unchanged.
 */
export function redactText(text: string, known: readonly string[] = []): string {
  let out = text
    .replace(HEADER_VALUE, (_match, name: string, separator: string) => `${name}${separator}${REDACTED}`)
    .replace(URL_IN_TEXT, (url) => redactUrl(url))
    .replace(BEARER, (_match, scheme: string) => `${scheme} ${REDACTED}`);
  for (const secret of known) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}
