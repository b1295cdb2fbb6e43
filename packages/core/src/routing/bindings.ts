// `bindings[]`: rules that send messages to agents, read from a raw or validated config, and the
// tiered matching the router applies.
import type { ChatKind } from "@openclaw/plugin-sdk";
import type { ChannelIdRules } from "@openclaw/plugin-sdk/config";
import { type ChannelIds, normalizeChatId, normalizeSenderId } from "../access/index.js";
import { DM_SCOPES, GROUP_SCOPES, normalizeAgentId, type DmScope, type GroupScope } from "../sessions/index.js";

/** Which tier of the binding order decided a route. */
export type RouteMatch = "peer" | "parent-peer" | "peer-wildcard" | "account" | "channel" | "default";

/** One usable entry of `bindings[]`, normalized. */
export interface RouteBinding {
  /** Position in `bindings[]`. */
  index: number;
  agentId: string;
  /** Lowercased channel id. */
  channel: string;
  /** Lowercased account id; undefined for "any account" (`"*"` or absent). */
  accountId?: string;
  /** The chat this binding is for; `id` normalized per channel, `"*"` kept. */
  peer?: { kind: ChatKind; id: string };
  session?: { dmScope?: DmScope; groupScope?: GroupScope };
}

/** The peers of a message, in the router's terms. */
export interface MessagePeers {
  channel: string;
  accountId: string;
  kind: ChatKind;
  /** The exact peer: the sender for a DM; the chat (`<chat>:topic:<n>` / `<chat>:thread:<id>` inside a thread) otherwise. */
  exact: string;
  /** The thread's parent chat, for a message in a group thread or topic. */
  parent?: string;
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

const CHAT_KINDS: readonly ChatKind[] = ["direct", "group", "channel"];

/** The id rules of a channel by its id (the loaded plugins'); `undefined` means the defaults. */
export type IdRulesLookup = (channel: string) => ChannelIdRules | undefined;

/** Normalizes a peer id the way the channel spells that kind of id. */
export function normalizePeerId(ids: ChannelIds, kind: ChatKind, id: unknown): string {
  return kind === "direct" ? normalizeSenderId(ids, id) : normalizeChatId(ids, id);
}

/**
 * The usable entries of `bindings[]`, in order. Entries that cannot route (no agent, no channel,
 * a `type` other than `"route"`, a malformed peer) are skipped; config validation reports them.
 */
export function readBindings(config: unknown, rulesOf: IdRulesLookup = () => undefined): RouteBinding[] {
  const raw = asObject(config)?.bindings;
  if (!Array.isArray(raw)) return [];
  const out: RouteBinding[] = [];
  raw.forEach((entry, index) => {
    const b = asObject(entry);
    const match = asObject(b?.match);
    if (!b || !match || (b.type !== undefined && b.type !== "route")) return;
    if (typeof b.agentId !== "string" || b.agentId.trim() === "") return;
    if (typeof match.channel !== "string" || match.channel.trim() === "") return;
    const channel = match.channel.trim().toLowerCase();
    const binding: RouteBinding = { index, agentId: normalizeAgentId(b.agentId), channel };
    const account = typeof match.accountId === "string" ? match.accountId.trim().toLowerCase() : "";
    if (account !== "" && account !== "*") binding.accountId = account;
    if (match.peer !== undefined) {
      const peer = asObject(match.peer);
      const kind = peer?.kind as ChatKind;
      const id = normalizePeerId({ channel, rules: rulesOf(channel) }, kind, peer?.id);
      if (!CHAT_KINDS.includes(kind) || id === "") return;
      binding.peer = { kind, id };
    }
    const session = asObject(b.session);
    if (session) {
      binding.session = {};
      if (DM_SCOPES.includes(session.dmScope as DmScope)) binding.session.dmScope = session.dmScope as DmScope;
      if (GROUP_SCOPES.includes(session.groupScope as GroupScope)) binding.session.groupScope = session.groupScope as GroupScope;
    }
    out.push(binding);
  });
  return out;
}

/**
 * The first binding that claims the message, trying the tiers in order: exact peer, parent peer
 * (a thread's parent chat), peer wildcard (`id: "*"` of the same kind), account (a named
 * `accountId`, no peer), channel (`accountId` `"*"` or absent, no peer). Within a tier the first
 * entry wins. Every field a binding sets must match; the peer kind must equal the chat's kind.
 */
export function matchBinding(
  bindings: readonly RouteBinding[],
  peers: MessagePeers,
): { binding: RouteBinding; matchedBy: RouteMatch } | undefined {
  const channel = peers.channel.toLowerCase();
  const account = peers.accountId.toLowerCase();
  const candidates = bindings.filter((b) => b.channel === channel && (b.accountId === undefined || b.accountId === account));
  const tiers: [RouteMatch, (b: RouteBinding) => boolean][] = [
    ["peer", (b) => b.peer?.kind === peers.kind && b.peer.id !== "*" && b.peer.id === peers.exact],
    ["parent-peer", (b) => peers.parent !== undefined && b.peer?.kind === peers.kind && b.peer.id === peers.parent],
    ["peer-wildcard", (b) => b.peer?.kind === peers.kind && b.peer.id === "*"],
    ["account", (b) => b.peer === undefined && b.accountId !== undefined],
    ["channel", (b) => b.peer === undefined && b.accountId === undefined],
  ];
  for (const [matchedBy, test] of tiers) {
    const binding = candidates.find(test);
    if (binding) return { binding, matchedBy };
  }
  return undefined;
}
