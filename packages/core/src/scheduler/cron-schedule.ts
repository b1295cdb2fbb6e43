// When a cron job runs: the three schedule kinds, their validation, and the next run after a
// moment. Cron expressions are evaluated by croner (timezone and DST aware); everything here is a
// pure function of its inputs (the clock is passed in), so tests need no timers.
import { Cron } from "croner";
import type { CronJob, CronSchedule } from "../state/index.js";

/** Shortest interval an `every` job may have. */
export const MIN_EVERY_MS = 1000;

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * `"45s"`, `"30m"`, `"2h"`, `"1d"`, `"1w"`, `"500ms"`, also combined (`"1h30m"`) -> milliseconds.
 * Undefined when unreadable.
 */
export function parseDurationText(raw: string): number | undefined {
  const text = raw.trim().toLowerCase();
  if (!/^(\d+(\.\d+)?(ms|s|m|h|d|w))+$/.test(text)) return undefined;
  let total = 0;
  for (const part of text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/g)) total += Number(part[1]) * UNIT_MS[part[2]!]!;
  return Math.round(total);
}

/**
 * A time for an `at` schedule: an ISO 8601 date-time (`2026-12-24T18:00:00Z`, or without offset
 * meaning the host's local time), epoch milliseconds, or a delay from `nowMs` written `+20m` / `in 20m`.
 * Undefined when unreadable.
 */
export function parseAtText(raw: string, nowMs: number): number | undefined {
  const text = raw.trim();
  const relative = /^(?:\+|in\s+)(.+)$/i.exec(text);
  if (relative) {
    const delay = parseDurationText(relative[1]!);
    return delay === undefined ? undefined : nowMs + delay;
  }
  if (/^\d{12,}$/.test(text)) return Number(text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/** True when `tz` is an IANA timezone this Node knows (`Europe/Berlin`, `UTC`). */
export function isKnownTimezone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/**
 * Why `schedule` cannot run, in one sentence, or undefined when it is fine: an interval under
 * {@link MIN_EVERY_MS}, an expression croner refuses (its message is kept), an unknown timezone.
 */
export function scheduleProblem(schedule: CronSchedule): string | undefined {
  switch (schedule.kind) {
    case "at":
      return Number.isFinite(schedule.atMs) ? undefined : "the time is not a valid date";
    case "every":
      return Number.isFinite(schedule.everyMs) && schedule.everyMs >= MIN_EVERY_MS
        ? undefined
        : `the interval must be at least ${MIN_EVERY_MS / 1000} s`;
    case "cron": {
      if (schedule.tz !== undefined && !isKnownTimezone(schedule.tz))
        return `"${schedule.tz}" is not a known IANA timezone (e.g. "Europe/Berlin", "UTC")`;
      try {
        const job = new Cron(schedule.expr, { paused: true, ...(schedule.tz ? { timezone: schedule.tz } : {}) });
        if (!job.nextRun()) return `the cron expression "${schedule.expr}" never matches a future time`;
        return undefined;
      } catch (err) {
        return `the cron expression "${schedule.expr}" is invalid: ${(err as Error).message}`;
      }
    }
  }
}

/**
 * The first run strictly after `afterMs`, or undefined when the schedule has none left.
 * - `at`: its time when that is after `afterMs`, else none (a missed one-shot is handled by the
 *   caller, which keeps the persisted due time).
 * - `every`: the next slot `anchorMs + k * everyMs` after `afterMs` (slots missed while the gateway
 *   was down are skipped, not replayed).
 * - `cron`: croner's next match after `afterMs` in `tz` (default: the host's timezone).
 */
export function nextRunAfter(schedule: CronSchedule, afterMs: number): number | undefined {
  switch (schedule.kind) {
    case "at":
      return schedule.atMs > afterMs ? schedule.atMs : undefined;
    case "every": {
      if (afterMs < schedule.anchorMs) return schedule.anchorMs;
      const slots = Math.floor((afterMs - schedule.anchorMs) / schedule.everyMs) + 1;
      return schedule.anchorMs + slots * schedule.everyMs;
    }
    case "cron": {
      const job = new Cron(schedule.expr, { paused: true, ...(schedule.tz ? { timezone: schedule.tz } : {}) });
      return job.nextRun(new Date(afterMs))?.getTime();
    }
  }
}

/** One line for people: `at 2026-12-24T18:00:00.000Z`, `every 30m`, `cron "0 9 * * 1-5" (Europe/Berlin)`. */
export function describeSchedule(schedule: CronSchedule): string {
  switch (schedule.kind) {
    case "at":
      return `at ${new Date(schedule.atMs).toISOString()}`;
    case "every":
      return `every ${formatInterval(schedule.everyMs)}`;
    case "cron":
      return `cron "${schedule.expr}"${schedule.tz ? ` (${schedule.tz})` : ""}`;
  }
}

/** `90000` -> `"1m30s"`; whole units, largest first. */
export function formatInterval(ms: number): string {
  const parts: string[] = [];
  let rest = ms;
  for (const [unit, size] of [
    ["d", UNIT_MS.d!],
    ["h", UNIT_MS.h!],
    ["m", UNIT_MS.m!],
    ["s", UNIT_MS.s!],
  ] as const) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
  }
  if (rest > 0 || parts.length === 0) parts.push(`${rest}ms`);
  return parts.join("");
}

/**
 * One line per job for people and the agent:
 * `3f2a9c1e "standup" every 1d -> mychat:default:42 (isolated session); next 2026-12-02T09:00:00.000Z; last ok`.
 */
export function describeCronJob(job: CronJob): string {
  const name = job.name ? ` "${job.name}"` : "";
  const next =
    job.enabled && job.nextRunAt !== undefined ? `next ${new Date(job.nextRunAt).toISOString()}` : job.enabled ? "no next run" : "disabled";
  const last = job.lastStatus ? `; last ${job.lastStatus}${job.lastError ? ` (${job.lastError})` : ""}` : "";
  return `${job.id}${name} ${describeSchedule(job.schedule)} -> ${job.target} (${job.session} session); ${next}${last}`;
}
