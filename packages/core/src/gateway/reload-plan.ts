import { isDeepStrictEqual } from "node:util";

/**
 * Config sections the running gateway cannot change: the control listener (`gateway.port`,
 * `gateway.bind`, `gateway.auth`, `gateway.controlUi`, ...) and the plugins it loaded.
 */
const RESTART_SECTIONS = new Set(["gateway", "plugins"]);

/** How a reload applies: which changed paths take effect now, and which wait for a restart. */
export interface ReloadPlan {
  /** Changed paths applied live (`agents`, `models`, `tools`, `channels.<id>`, ...). */
  applied: string[];
  /** Changed paths that need a restart (`gateway.port`, `gateway.auth`, `plugins`, ...). */
  needsRestart: string[];
  /** `next` with the restart-only sections kept as they run now. */
  live: Record<string, unknown>;
}

const asRecord = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** The keys whose values differ between `a` and `b`, prefixed with `prefix`. */
function changedKeys(a: unknown, b: unknown, prefix: string): string[] {
  const left = asRecord(a);
  const right = asRecord(b);
  const keys = [...new Set([...Object.keys(left), ...Object.keys(right)])].sort();
  return keys.filter((k) => !isDeepStrictEqual(left[k], right[k])).map((k) => `${prefix}${k}`);
}

/**
 * Compares the running config with a reloaded one (both validated, defaults applied). Channels
 * are listed per channel (`channels.telegram`), the restart-only sections per key
 * (`gateway.port`), everything else per top-level section.
 */
export function planReload(running: unknown, next: unknown): ReloadPlan {
  const before = asRecord(running);
  const after = asRecord(next);
  const applied: string[] = [];
  const needsRestart: string[] = [];
  const live: Record<string, unknown> = { ...after };
  for (const section of changedKeys(before, after, "")) {
    if (RESTART_SECTIONS.has(section)) {
      needsRestart.push(...(section === "plugins" ? ["plugins"] : changedKeys(before[section], after[section], `${section}.`)));
      live[section] = before[section];
    } else if (section === "channels") {
      applied.push(...changedKeys(before.channels, after.channels, "channels."));
    } else {
      applied.push(section);
    }
  }
  return { applied, needsRestart, live };
}
