import { normalizeDropPolicy, normalizeQueueMode } from "./settings.js";
import type { QueueModeInput, QueueOverride, QueueOverrideStore } from "./types.js";

/** A parsed `/queue` chat command. */
export type QueueCommand =
  /** `/queue` alone: report the settings in force. */
  | { kind: "show" }
  /** `/queue reset` (also `default`, `clear`): drop the session override. */
  | { kind: "reset" }
  /** `/queue <mode> [debounce:0.5s] [cap:25] [drop:summarize]`: any subset, merged into the override. */
  | { kind: "set"; override: QueueOverride }
  | { kind: "invalid"; problems: string[] };

export const QUEUE_COMMAND_USAGE =
  "Usage: /queue steer|followup|collect|interrupt [debounce:0.5s] [cap:20] [drop:summarize|old|new]; /queue reset; /queue alone shows the settings.";

const COMMAND = /^\/queue(?:@[\w.-]+)?(?=$|[\s:])/i;

/** True when the text is a `/queue` command (optionally addressed, as in `/queue@my_bot`). */
export function isQueueCommand(text: string): boolean {
  return COMMAND.test(text.trim());
}

/**
 * Parses a `/queue` command; undefined when the text is not one. Tokens are case-insensitive and
 * may come in any order; options are `key:value` or `key=value`. A debounce without a unit is in
 * milliseconds (`debounce:500`, `debounce:0.5s`, `debounce:1m`). Caps below 1 are rejected.
 */
export function parseQueueCommand(text: string): QueueCommand | undefined {
  const trimmed = text.trim();
  const match = COMMAND.exec(trimmed);
  if (!match) return undefined;
  const rest = trimmed.slice(match[0].length).replace(/^\s*:/, "").trim();
  if (rest === "") return { kind: "show" };

  const override: QueueOverride = {};
  const problems: string[] = [];
  for (const token of rest.split(/\s+/)) {
    const lowered = token.toLowerCase();
    if (lowered === "reset" || lowered === "default" || lowered === "clear") return { kind: "reset" };
    const option = /^([a-z-]+)[:=](.*)$/i.exec(token);
    if (!option) {
      const mode = normalizeQueueMode(lowered);
      if (mode) override.mode = canonicalModeInput(lowered);
      else problems.push(`"${token}" is not a queue mode`);
      continue;
    }
    const key = option[1]!.toLowerCase();
    const value = option[2]!.trim();
    switch (key) {
      case "mode": {
        if (normalizeQueueMode(value)) override.mode = canonicalModeInput(value.toLowerCase());
        else problems.push(`"${value}" is not a queue mode`);
        break;
      }
      case "debounce":
      case "debouncems": {
        const ms = parseDurationMs(value);
        if (ms === undefined) problems.push(`debounce "${value}" is not a duration (try 500ms or 0.5s)`);
        else override.debounceMs = ms;
        break;
      }
      case "cap": {
        const cap = /^\d+$/.test(value) ? Number(value) : NaN;
        if (!(cap >= 1)) problems.push(`cap "${value}" must be a whole number of at least 1`);
        else override.cap = cap;
        break;
      }
      case "drop": {
        const drop = normalizeDropPolicy(value);
        if (!drop) problems.push(`drop "${value}" must be summarize, old or new`);
        else override.drop = drop;
        break;
      }
      default:
        problems.push(`"${key}" is not a queue option (debounce, cap, drop)`);
    }
  }
  return problems.length > 0 ? { kind: "invalid", problems } : { kind: "set", override };
}

function canonicalModeInput(lowered: string): QueueModeInput {
  return lowered === "follow-up" ? "followup" : (lowered as QueueModeInput);
}

/** `500`, `500ms`, `0.5s`, `1m` -> milliseconds; undefined when unreadable or negative. */
export function parseDurationMs(raw: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m)?$/i.exec(raw.trim());
  if (!match) return undefined;
  const value = Number(match[1]);
  const unit = (match[2] ?? "ms").toLowerCase();
  const factor = unit === "m" ? 60_000 : unit === "s" ? 1000 : 1;
  return Math.round(value * factor);
}

/**
 * Applies a parsed `/queue` command to a session's override (merging `set` into what was there,
 * clearing on `reset`) and returns the reply; `describe` renders the settings now in force.
 */
export function applyQueueCommand(
  command: QueueCommand,
  sessionKey: string,
  overrides: QueueOverrideStore,
  describe: () => string,
): string {
  switch (command.kind) {
    case "show":
      return describe();
    case "reset":
      overrides.set(sessionKey, undefined);
      return `Queue settings for this chat are back to the defaults. ${describe()}`;
    case "set":
      overrides.set(sessionKey, { ...overrides.get(sessionKey), ...command.override });
      return `Queue settings for this chat updated. ${describe()}`;
    case "invalid":
      return `Could not change the queue: ${command.problems.join("; ")}. ${QUEUE_COMMAND_USAGE}`;
  }
}
