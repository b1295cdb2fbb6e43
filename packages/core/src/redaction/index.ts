// Keeping secrets out of what is printed, logged or answered: by key name, by header name and by value.
export { isHeadersKey, isSecretHeader, isSecretKey, REDACTED } from "./keys.js";
export { collectSecretValues, MIN_SCRUBBED_SECRET_LENGTH, redactSecrets } from "./config.js";
export { redactText } from "./text.js";
export { SecretScrubber } from "./scrubber.js";
