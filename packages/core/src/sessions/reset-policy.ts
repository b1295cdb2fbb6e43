import type { ResetPolicyConfig, SessionConfig } from "./config.js";
import { parseSessionKey, resetTypeForKey, type ResetType } from "./key-parse.js";

/** The reset policy that applies to one session, with defaults filled in. */
export interface ResetPolicy {
  /** `none` never resets automatically; `daily` resets at `atHour` (and after `idleMinutes` when set); `idle` after `idleMinutes`. */
  mode: "none" | "daily" | "idle";
  /** Local hour 0-23; default 4. */
  atHour: number;
  /** Present for `idle`, and for `daily` when configured. */
  idleMinutes?: number;
  /** Which config entry decided: `resetByChannel`, `resetByType` or `reset`. */
  source: "channel" | "type" | "default";
}

/** Used for `mode: "idle"` when `idleMinutes` is missing. */
export const DEFAULT_IDLE_MINUTES = 60;
export const DEFAULT_RESET_AT_HOUR = 4;

function fill(entry: ResetPolicyConfig, source: ResetPolicy["source"]): ResetPolicy {
  const atHour =
    typeof entry.atHour === "number" && Number.isInteger(entry.atHour) && entry.atHour >= 0 && entry.atHour <= 23
      ? entry.atHour
      : DEFAULT_RESET_AT_HOUR;
  const idle = typeof entry.idleMinutes === "number" && entry.idleMinutes > 0 ? entry.idleMinutes : undefined;
  const mode = entry.mode ?? (entry.atHour !== undefined ? "daily" : idle !== undefined ? "idle" : "none");
  if (mode === "none") return { mode, atHour, source };
  if (mode === "idle") return { mode, atHour, idleMinutes: idle ?? DEFAULT_IDLE_MINUTES, source };
  return idle === undefined ? { mode, atHour, source } : { mode, atHour, idleMinutes: idle, source };
}

/**
 * Picks the reset policy for a session: `session.resetByChannel[<channel>]` if present (it wins
 * outright), else `session.resetByType[<type>]`, else `session.reset`; the chosen entry is not
 * merged with the others. A missing `mode` is inferred: `atHour` set -> `daily`, `idleMinutes`
 * set -> `idle`, else `none`. The type comes from the key (threads and topics are `thread`,
 * groups and channels `group`, everything else `direct`) unless given; the channel comes from
 * `target.channel` or the key.
 */
export function resolveResetPolicy(config: SessionConfig, target: { key?: string; type?: ResetType; channel?: string }): ResetPolicy {
  const channel = (target.channel ?? (target.key ? parseSessionKey(target.key).channel : undefined))?.toLowerCase();
  const byChannel = channel !== undefined ? config.resetByChannel[channel] : undefined;
  if (byChannel) return fill(byChannel, "channel");
  const type = target.type ?? (target.key ? resetTypeForKey(target.key) : "direct");
  const byType = config.resetByType[type];
  if (byType) return fill(byType, "type");
  return fill(config.reset, "default");
}

/** The latest local-time `atHour:00` at or before `now` (ms). */
export function mostRecentDailyBoundary(now: number, atHour: number): number {
  const d = new Date(now);
  d.setHours(atHour, 0, 0, 0);
  if (d.getTime() > now) {
    d.setDate(d.getDate() - 1);
    d.setHours(atHour, 0, 0, 0);
  }
  return d.getTime();
}

/** The first local-time `atHour:00` strictly after `t` (ms). */
export function nextDailyBoundaryAfter(t: number, atHour: number): number {
  const d = new Date(t);
  d.setHours(atHour, 0, 0, 0);
  if (d.getTime() <= t) {
    d.setDate(d.getDate() + 1);
    d.setHours(atHour, 0, 0, 0);
  }
  return d.getTime();
}

/** The timestamps that decide freshness (ms since the epoch). */
export interface FreshnessInput {
  sessionStartedAt: number;
  /** Falls back to `sessionStartedAt` when absent. */
  lastInteractionAt?: number;
}

export type Freshness = { fresh: true } | { fresh: false; reason: "daily" | "idle"; expiredAt: number };

/**
 * Decides whether a session is still fresh at `now`. Daily: stale once a local `atHour`
 * boundary has passed since `sessionStartedAt`. Idle: stale once `idleMinutes` have passed since
 * `lastInteractionAt`. With both, the one that expired first is the reason. `none` is always
 * fresh.
 */
export function evaluateFreshness(entry: FreshnessInput, policy: ResetPolicy, now: number): Freshness {
  if (policy.mode === "none") return { fresh: true };
  const expiries: Array<{ reason: "daily" | "idle"; at: number }> = [];
  if (policy.mode === "daily") {
    expiries.push({ reason: "daily", at: nextDailyBoundaryAfter(entry.sessionStartedAt, policy.atHour) });
  }
  if (policy.idleMinutes !== undefined) {
    const last = entry.lastInteractionAt ?? entry.sessionStartedAt;
    expiries.push({ reason: "idle", at: last + policy.idleMinutes * 60_000 });
  }
  const expired = expiries.filter((e) => e.at <= now).sort((a, b) => a.at - b.at)[0];
  return expired ? { fresh: false, reason: expired.reason, expiredAt: expired.at } : { fresh: true };
}

/**
 * Checks whether a message starts with a reset trigger (`session.resetTriggers`, default
 * `["/new", "/reset"]`), case-insensitively and ignoring a `@botname` suffix.
 * Returns the trigger and the rest of the message (which the caller may run in the new session),
 * or undefined.
 */
export function matchResetTrigger(
  text: string,
  triggers: readonly string[] = ["/new", "/reset"],
): { trigger: string; remainder: string } | undefined {
  const trimmed = text.trimStart();
  const match = /^(\S+)(?:\s+([\s\S]*))?$/.exec(trimmed);
  if (!match) return undefined;
  const token = match[1]!.toLowerCase().replace(/@\S*$/, "");
  const trigger = triggers.find((t) => t.trim().toLowerCase() === token);
  return trigger === undefined ? undefined : { trigger, remainder: (match[2] ?? "").trim() };
}
