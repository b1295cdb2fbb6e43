// Per-channel normalization of the ids that access lists, pairing rows, bindings and session keys
// compare. One table, so that `allowFrom`, `groups` keys, the pairing store and the router all
// agree on what "the same sender" means.

/** How one channel spells its ids; both functions receive a trimmed, non-empty string. */
export interface ChannelIdRules {
  /** A user id (a DM peer, an `allowFrom` entry, a pairing row). */
  sender(id: string): string;
  /** A chat id (a `groups` key, a group peer in a binding). */
  chat(id: string): string;
}

/** Strips one of `prefixes` (case-insensitive, followed by `:`) from the front of an id. */
function stripPrefix(id: string, prefixes: readonly string[]): string {
  const lower = id.toLowerCase();
  for (const p of prefixes) {
    if (lower.startsWith(`${p}:`)) return id.slice(p.length + 1).trim();
  }
  return id;
}

const lower = (id: string): string => id.toLowerCase();

function prefixed(...prefixes: string[]): ChannelIdRules {
  const rule = (id: string): string => lower(stripPrefix(id, prefixes));
  return { sender: rule, chat: rule };
}

/**
 * WhatsApp users are phone numbers, written in many ways ("+1 555 010-0123", "15550100123",
 * "15550100123@s.whatsapp.net"). Everything but the digits is dropped and the number is written
 * in E.164 form with a leading `+`, so every spelling of one number compares equal. Group JIDs
 * (`...@g.us`) are chats, not senders, and are only lowercased.
 */
function whatsappSender(id: string): string {
  const bare = stripPrefix(id, ["whatsapp", "wa"]);
  const local = bare.includes("@") ? bare.slice(0, bare.indexOf("@")) : bare;
  const digits = local.replace(/\D/g, "");
  return digits === "" ? lower(bare) : `+${digits}`;
}

/**
 * The normalization table. Channels not listed strip a `<channel>:` prefix and lowercase.
 * - telegram: strips `telegram:` / `tg:`; numeric ids stay as their decimal string.
 * - whatsapp: senders become `+<digits>`; chats (group JIDs) are lowercased.
 * - matrix: keeps `@user:server` / `!room:server` (lowercased), strips a `matrix:` prefix.
 */
export const CHANNEL_ID_RULES: Readonly<Record<string, ChannelIdRules>> = {
  telegram: prefixed("telegram", "tg"),
  whatsapp: { sender: whatsappSender, chat: (id) => lower(stripPrefix(id, ["whatsapp", "wa"])) },
  matrix: prefixed("matrix"),
  feishu: prefixed("feishu", "lark"),
  qqbot: prefixed("qqbot", "qq"),
};

function rulesFor(channel: string): ChannelIdRules {
  const key = channel.trim().toLowerCase();
  return CHANNEL_ID_RULES[key] ?? prefixed(key);
}

function asText(id: unknown): string {
  if (typeof id === "string") return id.trim();
  if (typeof id === "number" || typeof id === "bigint") return String(id);
  return "";
}

/**
 * A sender id in the channel's canonical form (see {@link CHANNEL_ID_RULES}). Numbers are
 * compared as their decimal string; `"*"` stays `"*"`; anything empty becomes `""`.
 */
export function normalizeSenderId(channel: string, id: unknown): string {
  const text = asText(id);
  if (text === "" || text === "*") return text;
  return rulesFor(channel).sender(text);
}

/** A chat id in the channel's canonical form; `"*"` stays `"*"`; anything empty becomes `""`. */
export function normalizeChatId(channel: string, id: unknown): string {
  const text = asText(id);
  if (text === "" || text === "*") return text;
  return rulesFor(channel).chat(text);
}

/** Normalizes a config list of sender ids, dropping empty and non-id entries. */
export function normalizeSenderList(channel: string, list: readonly unknown[]): string[] {
  return list.map((entry) => normalizeSenderId(channel, entry)).filter((id) => id !== "");
}

/** True when `list` (already normalized) holds `"*"` or the sender's normalized id. */
export function listAllowsSender(channel: string, list: readonly string[], senderId: unknown): boolean {
  if (list.includes("*")) return true;
  const id = normalizeSenderId(channel, senderId);
  return id !== "" && list.includes(id);
}
