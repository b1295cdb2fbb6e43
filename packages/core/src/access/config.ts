// Reads the access keys of one account's channel config (raw or validated) and applies the
// documented defaults, so the gate never has to guess about missing keys.
import { mergeAccountConfig } from "@openclaw/plugin-sdk";
import { type ChannelIds, normalizeChatId, normalizeSenderList } from "./ids.js";

/** `dmPolicy`: who may DM the bot. */
export type DmPolicy = "pairing" | "allowlist" | "open" | "disabled";
/** `groupPolicy`: which groups the bot answers in. */
export type GroupPolicy = "allowlist" | "open" | "disabled";

export const DM_POLICIES: readonly DmPolicy[] = ["pairing", "allowlist", "open", "disabled"];
export const GROUP_POLICIES: readonly GroupPolicy[] = ["allowlist", "open", "disabled"];

/** Settings of one group, one forum topic, or `"*"` (the defaults), as written in config. */
export interface GroupAccessSettings {
  /** `false` ignores the group; default true. */
  enabled?: boolean;
  /** Answer only when the bot is mentioned; default true. */
  requireMention?: boolean;
  /** Senders allowed in this group; default `groupAllowFrom`, then `allowFrom`. */
  allowFrom?: readonly (string | number)[];
  /** Instructions added to the system prompt for messages from this group or topic. */
  systemPrompt?: string;
  /** The agent a forum topic is routed to (topic entries only). */
  agentId?: string;
  /** Forum topics keyed by thread id or `"*"`; they inherit the group's settings. */
  topics?: Record<string, GroupAccessSettings>;
}

/** The access keys of an account's merged channel config (`channels.<id>` overlaid by `accounts.<id>`). */
export interface AccessConfigView {
  dmPolicy?: DmPolicy;
  allowFrom?: readonly (string | number)[];
  groupPolicy?: GroupPolicy;
  groupAllowFrom?: readonly (string | number)[];
  groups?: Record<string, GroupAccessSettings>;
}

/** Anything that may hold the access keys: a validated view or a raw config object. */
export type AccessConfigInput = AccessConfigView | Readonly<Record<string, unknown>>;

/** The access keys with every default applied and every id normalized for the channel. */
export interface ResolvedAccessConfig {
  /** Default `pairing`; an unknown value also reads as `pairing`. */
  dmPolicy: DmPolicy;
  /** Normalized; `[]` when unset. */
  allowFrom: string[];
  /** Default `allowlist` (fail-closed); an unknown value also reads as `allowlist`. */
  groupPolicy: GroupPolicy;
  /** Normalized; undefined when unset or empty (then `allowFrom` applies to groups). */
  groupAllowFrom: string[] | undefined;
  /** `groups` keyed by normalized chat id (`"*"` kept). */
  groups: Map<string, GroupAccessSettings>;
}

/** What applies to one group (or one forum topic in it) after the layers are merged. */
export interface EffectiveGroupSettings {
  /** The group has its own entry or a `"*"` entry exists (what `groupPolicy: allowlist` needs). */
  listed: boolean;
  /** Default true. */
  enabled: boolean;
  /** Default true. */
  requireMention: boolean;
  /** The senders allowed: the group's list, else `groupAllowFrom`, else `allowFrom`; undefined when none is set (anyone). */
  allowFrom: string[] | undefined;
  /** The nearest `systemPrompt` (topic, then group, then `"*"`), if any. */
  systemPrompt?: string;
  /** The topic's `agentId`, if any (only topic entries carry one). */
  agentId?: string;
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function asList(ids: ChannelIds, value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const list = normalizeSenderList(ids, value);
  return list.length === 0 ? undefined : list;
}

/**
 * Reads `dmPolicy`, `allowFrom`, `groupPolicy`, `groupAllowFrom` and `groups` from an account's
 * merged channel config and applies the defaults (`pairing`, `allowlist`, empty lists). Ids are
 * normalized per channel. An empty list counts as unset.
 */
export function resolveAccessConfig(ids: ChannelIds, config: AccessConfigInput | undefined): ResolvedAccessConfig {
  const raw = asObject(config) ?? {};
  const groups = new Map<string, GroupAccessSettings>();
  for (const [key, value] of Object.entries(asObject(raw.groups) ?? {})) {
    const settings = asObject(value);
    const id = normalizeChatId(ids, key);
    if (settings && id !== "") groups.set(id, settings as GroupAccessSettings);
  }
  return {
    dmPolicy: DM_POLICIES.includes(raw.dmPolicy as DmPolicy) ? (raw.dmPolicy as DmPolicy) : "pairing",
    allowFrom: asList(ids, raw.allowFrom) ?? [],
    groupPolicy: GROUP_POLICIES.includes(raw.groupPolicy as GroupPolicy) ? (raw.groupPolicy as GroupPolicy) : "allowlist",
    groupAllowFrom: asList(ids, raw.groupAllowFrom),
    groups,
  };
}

function topicOf(settings: GroupAccessSettings | undefined, threadId: string | undefined, key: string): GroupAccessSettings | undefined {
  if (!settings || threadId === undefined) return undefined;
  const topics = asObject(settings.topics);
  if (!topics) return undefined;
  for (const [k, v] of Object.entries(topics)) {
    if (k.trim().toLowerCase() === key) return asObject(v) as GroupAccessSettings | undefined;
  }
  return undefined;
}

/**
 * The settings that apply to a group chat, merged key by key from, first match winning:
 * (the group's entry is `groups.<chatId>`, else the entry of the first of the chat's `aliases`
 * that has one) the group's topic entry (`groups.<id>.topics.<thread>`, then `topics."*"`), the group's entry,
 * the `"*"` group's topic entries, the `"*"` group. Sender lists fall back to `groupAllowFrom`,
 * then `allowFrom` (never the pairing store).
 */
export function resolveGroupSettings(
  ids: ChannelIds,
  access: ResolvedAccessConfig,
  chatId: string,
  threadId?: string,
  aliases: readonly string[] = [],
): EffectiveGroupSettings {
  const own = [chatId, ...aliases].map((key) => access.groups.get(normalizeChatId(ids, key))).find((entry) => entry !== undefined);
  const wildcard = access.groups.get("*");
  const thread = threadId === undefined ? undefined : threadId.trim().toLowerCase();
  const layers = [
    topicOf(own, thread, thread ?? ""),
    topicOf(own, thread, "*"),
    own,
    topicOf(wildcard, thread, thread ?? ""),
    topicOf(wildcard, thread, "*"),
    wildcard,
  ].filter((l): l is GroupAccessSettings => l !== undefined);
  const pick = <K extends keyof GroupAccessSettings>(key: K): GroupAccessSettings[K] | undefined =>
    layers.find((l) => l[key] !== undefined)?.[key];
  const enabled = pick("enabled");
  const requireMention = pick("requireMention");
  const systemPrompt = pick("systemPrompt");
  const agentId = pick("agentId");
  return {
    listed: own !== undefined || wildcard !== undefined,
    enabled: enabled !== false,
    requireMention: requireMention !== false,
    allowFrom: asList(ids, pick("allowFrom")) ?? access.groupAllowFrom ?? (access.allowFrom.length > 0 ? access.allowFrom : undefined),
    ...(typeof systemPrompt === "string" && systemPrompt.trim() ? { systemPrompt } : {}),
    ...(typeof agentId === "string" && agentId ? { agentId } : {}),
  };
}

/**
 * The merged channel config of one account, read from a whole config object:
 * `channels.<channel>` overlaid by `channels.<channel>.accounts.<accountId>` (see
 * `mergeAccountConfig`). Undefined when the channel is not configured.
 */
export function accountChannelConfig(config: unknown, channel: string, accountId: string): Record<string, unknown> | undefined {
  const channels = asObject(asObject(config)?.channels);
  const channelConfig = asObject(channels?.[channel]);
  return channelConfig ? mergeAccountConfig(channelConfig, accountId) : undefined;
}
