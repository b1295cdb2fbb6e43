// The config file's text for an editor that must never see a secret, and the way back: an edited
// text whose `***` placeholders stand for the secrets stored in the file.
import { createHash } from "node:crypto";
import { collectSecretValues, REDACTED, redactText } from "../redaction/index.js";

/** sha256 (hex) of the file text exactly as read; "" for a file that does not exist. */
export function configTextHash(text: string | undefined): string {
  return text === undefined ? "" : createHash("sha256").update(text).digest("hex");
}

/**
 * A redactor for one file: every secret value of `raw` (under a secret key or header, see
 * `collectSecretValues`) and each of `known` become `***`, as do credentials recognisable by
 * their form (URL userinfo, bearer tokens; see `redactText`).
 */
export function fileRedactor(raw: unknown, known: readonly string[] = []): (text: string) => string {
  const secrets = [...new Set([...collectSecretValues(raw), ...known])].sort((a, b) => b.length - a.length);
  return (text) => redactText(text, secrets);
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * `edited` (parsed from a text that went through `redact`) with each string that still carries a
 * `***` placeholder put back to the stored value at the same place in `stored`, when redacting
 * that stored value gives exactly the edited string (the user left it alone). A placeholder
 * anywhere else stays as typed (and the schema may then refuse it). Returns a new value.
 */
export function restoreRedacted(edited: unknown, stored: unknown, redact: (text: string) => string): unknown {
  if (typeof edited === "string") {
    if (!edited.includes(REDACTED) || typeof stored !== "string") return edited;
    return redact(stored) === edited ? stored : edited;
  }
  if (Array.isArray(edited)) return edited.map((v, i) => restoreRedacted(v, Array.isArray(stored) ? stored[i] : undefined, redact));
  if (isObject(edited)) {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(edited))
      out[key] = restoreRedacted(value, isObject(stored) ? stored[key] : undefined, redact);
    return out;
  }
  return edited;
}
