// The router: which agent answers a message, and in which session.
import type { InboundMessage } from "@openclaw/plugin-sdk";
import { accountChannelConfig, normalizeSenderId, resolveAccessConfig, resolveGroupSettings } from "../access/index.js";
import { resolveDefaultAgentId } from "../agents/index.js";
import { buildSessionKey, type DmScope, resolveSessionConfig } from "../sessions/index.js";
import {
  type IdRulesLookup,
  matchBinding,
  normalizePeerId,
  readBindings,
  type MessagePeers,
  type RouteBinding,
  type RouteMatch,
} from "./bindings.js";

/** Where a message goes. */
export interface ResolvedRoute {
  /** The agent that answers (normalized id). */
  agentId: string;
  /** The session the message belongs to (see `buildSessionKey`). */
  sessionKey: string;
  /** Index in `bindings[]` of the binding that matched; absent for the default agent. */
  binding?: number;
  matchedBy: RouteMatch | "topic";
  /** The peer the route was decided on (the sender for a DM, the chat or thread otherwise). */
  peerId: string;
}

/** A forum topic (the plugin marks its thread `threadKind: "topic"`): its session key uses `:topic:<n>`. */
function isTopic(message: InboundMessage): boolean {
  return message.chat.kind === "group" && message.chat.threadId !== undefined && message.chat.threadKind === "topic";
}

/** The peers of a message as bindings see them. */
export function messagePeers(message: InboundMessage, rulesOf: IdRulesLookup = () => undefined): MessagePeers {
  const { channel, accountId, chat } = message;
  const kind = chat.kind;
  const ids = { channel, rules: rulesOf(channel) };
  if (kind === "direct") {
    return { channel, accountId, kind, exact: normalizePeerId(ids, kind, message.sender.id) };
  }
  const chatId = normalizePeerId(ids, kind, chat.id);
  const thread = chat.threadId?.trim().toLowerCase();
  if (!thread) return { channel, accountId, kind, exact: chatId };
  const exact = `${chatId}:${isTopic(message) ? "topic" : "thread"}:${thread}`;
  return { channel, accountId, kind, exact, parent: chatId };
}

/**
 * Routes an inbound message (after the access gate) to an agent and a session.
 *
 * The agent: the first binding of the first tier that matches (exact peer, parent peer, peer
 * wildcard, account, channel; see `matchBinding`), else the default agent (`agents.entries`
 * entry with `default: true`, else the first entry, else `main`).
 *
 * The session key (`buildSessionKey`): DMs by `session.dmScope` (default `main`, which only the
 * owner, a sender listed in `allowFrom`, gets; see `ownDmScope`), groups and
 * channels by `session.groupScope` (default `per-group`); the matched binding's `session` block
 * overrides either. A thread adds `:thread:<id>`, a forum topic (`threadKind: "topic"`) `:topic:<n>`.
 * `session.identityLinks` map DM peers to a canonical name; `session.mainKey` names the main session.
 */
export function resolveRoute(message: InboundMessage, config: unknown, rulesOf: IdRulesLookup = () => undefined): ResolvedRoute {
  const peers = messagePeers(message, rulesOf);
  const match = matchBinding(readBindings(config, rulesOf), peers);
  const binding: RouteBinding | undefined = match?.binding;
  // A forum topic may name its agent (channels.<id>.groups.<chat>.topics.<topic|"*">.agentId); an
  // exact peer binding still wins over it.
  const topicAgent = isTopic(message) && match?.matchedBy !== "peer" ? topicAgentId(message, config, rulesOf) : undefined;
  const agentId = topicAgent ?? binding?.agentId ?? resolveDefaultAgentId(config as Parameters<typeof resolveDefaultAgentId>[0]);
  const session = resolveSessionConfig(config);
  const { channel, accountId, chat } = message;
  let sessionKey: string;
  if (chat.kind === "direct") {
    sessionKey = buildSessionKey({
      kind: "direct",
      agentId,
      mainKey: session.mainKey,
      channel,
      accountId,
      peerId: peers.exact,
      dmScope: ownDmScope(binding?.session?.dmScope ?? session.dmScope, message, config, rulesOf),
      identityLinks: session.identityLinks,
      threadId: chat.threadId,
    });
  } else {
    const topic = isTopic(message);
    sessionKey = buildSessionKey({
      kind: chat.kind,
      agentId,
      mainKey: session.mainKey,
      channel,
      id: peers.parent ?? peers.exact,
      groupScope: binding?.session?.groupScope ?? session.groupScope,
      ...(topic ? { topicId: chat.threadId } : { threadId: chat.threadId }),
    });
  }
  return {
    agentId,
    sessionKey,
    ...(binding ? { binding: binding.index } : {}),
    matchedBy: topicAgent ? "topic" : (match?.matchedBy ?? "default"),
    peerId: peers.exact,
  };
}

/**
 * The main session belongs to the owner: the senders listed by id in the account's `allowFrom`.
 * Anyone else (a sender approved by pairing, anyone under `dmPolicy: "open"` or through a `"*"`)
 * gets a session of their own (`per-channel-peer`) where the scope would be `main`, so nobody
 * sees the owner's conversation or MEMORY.md, and strangers never share a session.
 */
function ownDmScope(scope: DmScope, message: InboundMessage, config: unknown, rulesOf: IdRulesLookup): DmScope {
  if (scope !== "main") return scope;
  const channelConfig = accountChannelConfig(config, message.channel, message.accountId);
  if (!channelConfig) return "per-channel-peer";
  const ids = { channel: message.channel, rules: rulesOf(message.channel) };
  const sender = normalizeSenderId(ids, message.sender.id);
  const owner = sender !== "" && resolveAccessConfig(ids, channelConfig).allowFrom.includes(sender);
  return owner ? "main" : "per-channel-peer";
}

/** `agentId` of the topic's settings (merged like every group setting; see `resolveGroupSettings`). */
function topicAgentId(message: InboundMessage, config: unknown, rulesOf: IdRulesLookup): string | undefined {
  const channelConfig = accountChannelConfig(config, message.channel, message.accountId);
  if (!channelConfig) return undefined;
  const ids = { channel: message.channel, rules: rulesOf(message.channel) };
  const access = resolveAccessConfig(ids, channelConfig);
  return resolveGroupSettings(ids, access, message.chat.id, message.chat.threadId, message.chat.aliases).agentId?.toLowerCase();
}
