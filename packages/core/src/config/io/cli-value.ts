import JSON5 from "json5";
import { UserError } from "../paths.js";
import { findTooDeep, MAX_CONFIG_DEPTH } from "./limits.js";

/**
 * Parses the `<json5-value>` argument of `openclaw config set`: JSON5 first (`true`, `42`,
 * `null`, `"quoted"`, `{mode: "partial"}`, `[1, 2]`); text that is not JSON5 is taken as a plain
 * string, so `openai/gpt-4o` needs no quotes. Text that starts like an object, list or quoted
 * string (`{`, `[`, `"`, `'`) but does not parse throws `UserError`, as do `NaN` and `Infinity`
 * (no JSON form), and a value nested more than 64 levels deep. Surrounding whitespace is
 * ignored for parsing; an empty argument is `""`.
 */
export function parseCliValue(text: string): unknown {
  if (findTooDeep(text, MAX_CONFIG_DEPTH)) {
    throw new UserError(`The value nests objects and lists more than ${MAX_CONFIG_DEPTH} levels deep; no config value needs that many.`, 2);
  }
  let value: unknown;
  try {
    value = JSON5.parse(text) as unknown;
  } catch (err) {
    const trimmed = text.trim();
    if (/^[{["']/.test(trimmed)) {
      const reason = (err as Error).message.replace(/^JSON5:\s*/, "");
      throw new UserError(
        `The value ${JSON.stringify(text)} looks like JSON5 but does not parse (${reason}). ` +
          `Quote it for the shell, e.g. '{mode: "partial"}', or pass a plain word for a string.`,
        2,
      );
    }
    return text;
  }
  if (typeof value === "number" && !Number.isFinite(value)) {
    throw new UserError(`The value ${JSON.stringify(text)} is not a finite number; config values must be JSON.`, 2);
  }
  return value;
}
