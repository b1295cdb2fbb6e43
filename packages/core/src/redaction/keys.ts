/** The placeholder that replaces a secret value. */
export const REDACTED = "***";

// Key names that hold secrets, compared without case, "-" and "_": token, botToken, appSecret,
// apiKey, password, Feishu's encryptKey, and the header names Authorization, Proxy-Authorization,
// Cookie, Set-Cookie, X-Api-Key. Plural counters such as `maxTokens` do not match.
const SECRET_KEY =
  /(token|secret|password|passwd|passphrase|apikey|accesskey|privatekey|encryptkey|encryptionkey|signingkey|recoverykey|authorization|cookie)$/;

// Inside a `headers` object more names carry credentials: X-Auth-Token, X-Goog-Api-Key,
// X-Session-Id, X-Amz-Security-Token, X-Signature, ...
const SECRET_HEADER = /auth|token|secret|key|cookie|session|signature|credential|password/;

const normalized = (key: string) => key.toLowerCase().replace(/[-_]/g, "");

/** True when a config key names a secret (`token`, `apiKey`, `accessToken`, `clientSecret`, `password`, `Authorization`, `Cookie`, ...). */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(normalized(key));
}

/** True when an HTTP header name carries credentials (every secret key, and any name containing auth, token, key, cookie, session, signature, ...). */
export function isSecretHeader(name: string): boolean {
  return isSecretKey(name) || SECRET_HEADER.test(normalized(name));
}

/** True for the key of an object of HTTP headers (`headers`, `defaultHeaders`, `extraHeaders`). */
export function isHeadersKey(key: string): boolean {
  return /headers$/.test(key.toLowerCase());
}
