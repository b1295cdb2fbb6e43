// Where a scheduled turn's reply goes, as written in the config and in tool parameters.

/** A chat of one account of one channel. */
export interface ScheduledTurnTarget {
  channel: string;
  accountId: string;
  chatId: string;
  threadId?: string;
}

/** `"last"` (the agent's last contact), `"none"` (run, deliver nothing) or one chat. */
export type ScheduledTarget = ScheduledTurnTarget | "last" | "none";

/**
 * Parses a target string: `"last"`, `"none"`, or `"<channel>:<accountId>:<chatId>"` (the chat id
 * may itself contain colons, e.g. a room id such as `!room:example.org`). Case of `last`/`none` and
 * surrounding blanks are ignored; the channel id is lowercased. `undefined` or `""` gives
 * `fallback` (default `"none"`). Throws an Error naming the expected format otherwise; callers
 * add the config key.
 */
export function parseTarget(text: string | undefined, fallback: ScheduledTarget = "none"): ScheduledTarget {
  const trimmed = text?.trim() ?? "";
  if (trimmed === "") return fallback;
  const lower = trimmed.toLowerCase();
  if (lower === "last" || lower === "none") return lower;
  const first = trimmed.indexOf(":");
  const second = first < 0 ? -1 : trimmed.indexOf(":", first + 1);
  const channel = first > 0 ? trimmed.slice(0, first).trim().toLowerCase() : "";
  const accountId = second > first + 1 ? trimmed.slice(first + 1, second).trim() : "";
  const chatId = second > 0 ? trimmed.slice(second + 1).trim() : "";
  if (!channel || !accountId || !chatId) {
    throw new Error(
      `target "${trimmed}" must be "last", "none" or "<channel>:<accountId>:<chatId>" (a channel id as under channels.<id>, an account id such as "default", then the chat id)`,
    );
  }
  return { channel, accountId, chatId };
}

/** The target written back as text (`formatTarget(parseTarget(s))` round-trips). */
export function formatTarget(target: ScheduledTarget): string {
  return typeof target === "string" ? target : `${target.channel}:${target.accountId}:${target.chatId}`;
}
