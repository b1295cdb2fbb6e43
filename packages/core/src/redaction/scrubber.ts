import { collectSecretValues, MIN_SCRUBBED_SECRET_LENGTH, redactSecrets } from "./config.js";
import { redactText } from "./text.js";

/**
 * Removes secrets from what is about to be logged or shown: the configured secret values it was
 * given (each at least 8 characters; shorter ones are ignored) wherever they appear, and the
 * credentials {@link redactText} recognises by their form. Secrets may be added as they become
 * known (the raw config, the loaded config, a generated token); later calls use them all.
 */
export class SecretScrubber {
  private secrets: string[] = [];

  /** Adds secret values to look for. */
  add(...values: readonly (string | undefined)[]): void {
    const all = new Set(this.secrets);
    for (const v of values) if (v && v.length >= MIN_SCRUBBED_SECRET_LENGTH) all.add(v);
    this.secrets = [...all].sort((a, b) => b.length - a.length);
  }

  /** Adds every secret value of a config (see `collectSecretValues`). */
  addConfig(config: unknown): void {
    this.add(...collectSecretValues(config));
  }

  /** `text` without any known secret or recognisable credential. */
  text(text: string): string {
    return redactText(text, this.secrets);
  }

  /** A deep copy of `value` redacted like `config.get` answers (by key and by value), known secrets included. */
  value<T>(value: T): T {
    return redactSecrets(value, this.secrets);
  }
}
