import { availableParallelism } from "node:os";
import type { QueueConfigSource, QueueDropPolicy, QueueMode, QueueOverride, QueueSettings } from "./types.js";

export const DEFAULT_QUEUE_MODE: QueueMode = "steer";
export const DEFAULT_DEBOUNCE_MS = 500;
export const DEFAULT_QUEUE_CAP = 20;
export const DEFAULT_DROP_POLICY: QueueDropPolicy = "summarize";

/**
 * Reads a mode spelling (case-insensitive). Legacy names: `queue` means steer; `steer-backlog`
 * and `steer+backlog` mean steer and also keep the message for a follow-up turn. Unknown
 * spellings give undefined.
 */
export function normalizeQueueMode(raw: string | undefined): { mode: QueueMode; backlog: boolean } | undefined {
  switch (raw?.trim().toLowerCase()) {
    case "steer":
    case "queue":
      return { mode: "steer", backlog: false };
    case "steer-backlog":
    case "steer+backlog":
      return { mode: "steer", backlog: true };
    case "followup":
    case "follow-up":
      return { mode: "followup", backlog: false };
    case "collect":
      return { mode: "collect", backlog: false };
    case "interrupt":
      return { mode: "interrupt", backlog: false };
    default:
      return undefined;
  }
}

/** Reads a drop policy (case-insensitive; `oldest`, `newest` and `summary` are accepted too). */
export function normalizeDropPolicy(raw: string | undefined): QueueDropPolicy | undefined {
  switch (raw?.trim().toLowerCase()) {
    case "summarize":
    case "summary":
      return "summarize";
    case "old":
    case "oldest":
      return "old";
    case "new":
    case "newest":
      return "new";
    default:
      return undefined;
  }
}

const nonNegativeInt = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
/** Caps below 1 are ignored. */
const validCap = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) && value >= 1 ? Math.floor(value) : undefined;

/**
 * The queue settings for one message. Mode precedence: the session override (`/queue <mode>`) >
 * `messages.queue.byChannel[channel]` > `messages.queue.mode` > steer. Debounce: override >
 * `debounceMsByChannel[channel]` > `debounceMs` > 500. Cap: override > `cap` > 20 (values
 * below 1 are ignored). Drop: override > `drop` > summarize. Unknown spellings fall through.
 */
export function resolveQueueSettings(
  config: QueueConfigSource | undefined,
  context: { channel?: string; override?: QueueOverride } = {},
): QueueSettings {
  const queue = config?.messages?.queue;
  const channel = context.channel?.toLowerCase();
  const override = context.override;

  let mode: { mode: QueueMode; backlog: boolean } | undefined;
  let modeSource: QueueSettings["modeSource"] = "default";
  const candidates: Array<[string | undefined, QueueSettings["modeSource"]]> = [
    [override?.mode, "session"],
    [channel ? channelValue(queue?.byChannel, channel) : undefined, "channel"],
    [queue?.mode, "config"],
  ];
  for (const [raw, source] of candidates) {
    mode = normalizeQueueMode(raw);
    if (mode) {
      modeSource = source;
      break;
    }
  }
  mode ??= { mode: DEFAULT_QUEUE_MODE, backlog: false };

  return {
    ...mode,
    modeSource,
    debounceMs:
      nonNegativeInt(override?.debounceMs) ??
      nonNegativeInt(channel ? channelValue(queue?.debounceMsByChannel, channel) : undefined) ??
      nonNegativeInt(queue?.debounceMs) ??
      DEFAULT_DEBOUNCE_MS,
    cap: validCap(override?.cap) ?? validCap(queue?.cap) ?? DEFAULT_QUEUE_CAP,
    drop: normalizeDropPolicy(override?.drop) ?? normalizeDropPolicy(queue?.drop) ?? DEFAULT_DROP_POLICY,
  };
}

/** Channel ids compare case-insensitively. */
function channelValue<T>(record: Record<string, T | undefined> | undefined, channel: string): T | undefined {
  if (!record) return undefined;
  if (record[channel] !== undefined) return record[channel];
  for (const [key, value] of Object.entries(record)) if (key.toLowerCase() === channel) return value;
  return undefined;
}

/**
 * Most concurrent runs across sessions: an explicit positive value, else
 * `agents.defaults.maxConcurrent`, else min(16, max(8, CPU count)).
 */
export function resolveMaxConcurrent(config: QueueConfigSource | undefined, explicit?: number): number {
  for (const value of [explicit, config?.agents?.defaults?.maxConcurrent]) {
    if (typeof value === "number" && Number.isFinite(value) && value >= 1) return Math.floor(value);
  }
  return Math.min(16, Math.max(8, availableParallelism()));
}

/** One line describing settings, as `/queue` shows them. */
export function describeQueueSettings(settings: QueueSettings): string {
  const mode = settings.mode === "steer" && settings.backlog ? "steer-backlog" : settings.mode;
  const from = { session: "set for this chat", channel: "channel default", config: "config default", default: "built-in default" }[
    settings.modeSource
  ];
  return `Queue mode: ${mode} (${from}); debounce ${formatMs(settings.debounceMs)}, cap ${settings.cap}, drop ${settings.drop}.`;
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 || ms >= 1000 ? `${ms / 1000}s` : `${ms}ms`;
}
