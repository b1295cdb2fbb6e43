import { UserError } from "../config/paths.js";

/** The agent id used when none is configured or the given one normalizes to nothing. */
export const DEFAULT_AGENT_ID = "main";

const VALID_AGENT_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/i;

/** True when `id` is already a valid agent id (`/^[a-z0-9][a-z0-9_-]{0,63}$/i`). */
export function isValidAgentId(id: string): boolean {
  return VALID_AGENT_ID.test(id);
}

/**
 * Normalizes an agent id: trimmed, lowercased, each run of characters outside `[a-z0-9_-]`
 * becomes one `-`, leading `-`/`_` and trailing `-` are dropped, and the result is cut to 64
 * characters. An empty, missing or all-invalid id becomes `main`.
 *
 * @example normalizeAgentId(" Work Bot ") === "work-bot"
 */
export function normalizeAgentId(id: string | null | undefined): string {
  const lowered = (id ?? "").trim().toLowerCase();
  if (lowered === "") return DEFAULT_AGENT_ID;
  const cleaned = lowered
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^[-_]+/, "")
    .slice(0, 64)
    .replace(/-+$/, "");
  return cleaned === "" ? DEFAULT_AGENT_ID : cleaned;
}

/**
 * Like `normalizeAgentId`, for ids a user typed (`--agent`): anything that does not normalize
 * to itself apart from case and spaces-to-dashes is refused with a UserError.
 */
export function parseAgentId(raw: string): string {
  const id = raw
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_-]/g, "-");
  if (!VALID_AGENT_ID.test(id)) {
    throw new UserError(`"${raw}" is not a valid agent id; use 1-64 letters, digits, "-" or "_", starting with a letter or digit.`, 2);
  }
  return id;
}
