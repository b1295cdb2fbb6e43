// `heartbeat.activeHours`: the daily window, in a timezone, in which scheduled heartbeats run.

export interface ActiveHours {
  /** "HH:MM", inclusive. */
  start: string;
  /** "HH:MM", exclusive; "24:00" is midnight. Before `start`: the window spans midnight. */
  end: string;
  /** IANA timezone; default the host's. */
  timezone?: string | undefined;
}

function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(":").map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

/** Minutes since midnight of `at` on the wall clock of `timeZone`. */
export function minuteOfDay(at: Date, timeZone?: string): number {
  const parts = new Intl.DateTimeFormat("en-GB", {
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    ...(timeZone ? { timeZone } : {}),
  }).formatToParts(at);
  const hour = Number(parts.find((p) => p.type === "hour")?.value ?? 0);
  const minute = Number(parts.find((p) => p.type === "minute")?.value ?? 0);
  return hour * 60 + minute;
}

/**
 * Whether `at` falls in the window on the wall clock of its timezone. start < end: from start up
 * to (not including) end; start > end: the window spans midnight (22:00-06:00); start == end: the
 * whole day. No window: always.
 */
export function isWithinActiveHours(at: Date, hours: ActiveHours | undefined): boolean {
  if (!hours) return true;
  const start = minutesOf(hours.start);
  const end = minutesOf(hours.end);
  if (start === end) return true;
  const now = minuteOfDay(at, hours.timezone);
  return start < end ? now >= start && now < end : now >= start || now < end;
}
