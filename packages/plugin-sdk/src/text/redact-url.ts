// Hides the credentials a URL may carry before it is logged or shown.

const PLACEHOLDER = "***";

// `scheme://userinfo@`: everything up to the last "@" of the authority.
const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)[^/?#\s]*@/i;

// `name=value` after "?", "&" or "#" (query and fragment parameters).
const PARAM = /([?&#])([^=&#?\s]+)=([^&#\s]*)/g;

// Parameter names that carry secrets, compared without case, "-", "_" and ".": token, key,
// api_key, access_token, client_secret, password, sig, X-Amz-Signature, auth, code, ...
const SECRET_PARAM = /(token|secret|password|passwd|pwd|key|sig|signature|credentials?|auth|code|session|sessionid)$/;

/** True when a query or fragment parameter name carries a secret (`token`, `key`, `api_key`, `access_token`, `sig`, ...). */
function isSecretParam(name: string): boolean {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name);
  } catch {
    // keep the name as written
  }
  return SECRET_PARAM.test(decoded.toLowerCase().replace(/[-_.]/g, ""));
}

/**
 * The URL with its credentials replaced by `***`, for logs and status output: the userinfo
 * (`https://user:pass@host/` becomes `https://***@host/`) and the value of every query or
 * fragment parameter whose name carries a secret (`token`, `key`, `api_key`, `access_token`,
 * `secret`, `password`, `sig`, `signature`, `auth`, `code`, and names ending in one of these).
 * Everything else is kept exactly as written (no normalization); a string that is not a URL comes
 * back unchanged, and so does one without credentials.
 *
 * @example redactUrl("https://bot:hunter22@hooks.example.com/tg?token=abc&lang=en")
 * // => "https://***@hooks.example.com/tg?token=***&lang=en"
 */
export function redactUrl(url: string): string {
  return url
    .replace(USERINFO, (_match, scheme: string) => `${scheme}${PLACEHOLDER}@`)
    .replace(PARAM, (match, separator: string, name: string, value: string) =>
      value !== "" && isSecretParam(name) ? `${separator}${name}=${PLACEHOLDER}` : match,
    );
}
