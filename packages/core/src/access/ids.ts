// Normalization of the ids that access lists, pairing rows, bindings and session keys compare,
// by the rules each channel declares in its config entry (`ChannelConfigDefinition.ids`), so that
// `allowFrom`, `groups` keys, the pairing store and the router agree on what "the same sender"
// means. Core itself knows no platform's spelling.
import type { ChannelIdRules } from "@openclaw/plugin-sdk/config";

/** A channel and the id rules its plugin declares (absent: the defaults). */
export interface ChannelIds {
  channel: string;
  rules?: ChannelIdRules | undefined;
}

/** Strips `<channel>:` or one of `prefixes` (case-insensitive, followed by `:`) from the front of an id. */
function stripPrefix(id: string, prefixes: readonly string[]): string {
  const lower = id.toLowerCase();
  for (const p of prefixes) {
    if (lower.startsWith(`${p.toLowerCase()}:`)) return id.slice(p.length + 1).trim();
  }
  return id;
}

const lower = (id: string): string => id.toLowerCase();

/** An id with the `<channel>:` (or a declared) prefix removed; the caller trims it first. */
export function stripIdPrefix(ids: ChannelIds, id: string): string {
  return stripPrefix(id, [ids.channel.trim(), ...(ids.rules?.prefixes ?? [])]);
}

function asText(id: unknown): string {
  if (typeof id === "string") return id.trim();
  if (typeof id === "number" || typeof id === "bigint") return String(id);
  return "";
}

/**
 * A sender id in the channel's canonical form: the `<channel>:` (or a declared) prefix removed,
 * then the channel's `sender` rule (default: lowercase). Numbers are compared as their decimal
 * string; `"*"` stays `"*"`; anything empty becomes `""`.
 */
export function normalizeSenderId(ids: ChannelIds, id: unknown): string {
  const text = asText(id);
  if (text === "" || text === "*") return text;
  const stripped = stripIdPrefix(ids, text);
  return stripped === "" ? "" : (ids.rules?.sender ?? lower)(stripped);
}

/** A chat id in the channel's canonical form (its `chat` rule; default lowercase); `"*"` stays `"*"`. */
export function normalizeChatId(ids: ChannelIds, id: unknown): string {
  const text = asText(id);
  if (text === "" || text === "*") return text;
  const stripped = stripIdPrefix(ids, text);
  return stripped === "" ? "" : (ids.rules?.chat ?? lower)(stripped);
}

/** Normalizes a config list of sender ids, dropping empty and non-id entries. */
export function normalizeSenderList(ids: ChannelIds, list: readonly unknown[]): string[] {
  return list.map((entry) => normalizeSenderId(ids, entry)).filter((id) => id !== "");
}

/** True when `list` (already normalized) holds `"*"` or the sender's normalized id. */
export function listAllowsSender(ids: ChannelIds, list: readonly string[], senderId: unknown): boolean {
  if (list.includes("*")) return true;
  const id = normalizeSenderId(ids, senderId);
  return id !== "" && list.includes(id);
}
