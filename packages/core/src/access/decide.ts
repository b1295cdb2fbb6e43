// The access gate: decides, before routing, whether an inbound message reaches an agent.
import type { InboundMessage } from "@openclaw/plugin-sdk";
import { resolveAccessConfig, resolveGroupSettings, type AccessConfigInput, type DmPolicy, type GroupPolicy } from "./config.js";
import type { ChannelIdRules } from "@openclaw/plugin-sdk/config";
import { type ChannelIds, listAllowsSender, normalizeSenderId } from "./ids.js";
import type { PairingGate } from "./pairing-store.js";

/** The account a message arrived on, with its merged channel config (`channels.<id>` + `accounts.<id>`). */
export interface AccessAccount {
  channel: string;
  accountId: string;
  config: AccessConfigInput;
  /** The channel's id rules (from its config entry); absent: the defaults. */
  ids?: ChannelIdRules | undefined;
}

/** The channel and id rules of an account, as the id functions take them. */
export function idsOf(account: Pick<AccessAccount, "channel" | "ids">): ChannelIds {
  return { channel: account.channel, rules: account.ids };
}

/** Why a message was let through. */
export type AllowReason =
  /** DM: `dmPolicy: "open"`. */
  | "open"
  /** DM: the sender is in `allowFrom`. */
  | "allowFrom"
  /** DM: the owner approved the sender's pairing code. */
  | "paired"
  /** Group: group, sender and mention checks passed. */
  | "group";

/** Why a message was dropped (logged; the sender is never told). */
export type DropReason =
  | "dms disabled"
  | "sender not allowed"
  | "too many pending"
  | "groups disabled"
  | "group not allowed"
  | "group disabled"
  | "sender not allowed in group"
  | "not mentioned";

/** What the gate decided. */
export type AccessDecision =
  | { action: "allow"; reason: AllowReason; chatKind: InboundMessage["chat"]["kind"] }
  | {
      action: "pair";
      /** The sender's pairing code (8 characters). */
      code: string;
      /** False when the sender already held this code; the gateway may then skip the reply to avoid spam. */
      isNew: boolean;
      expiresAt: number;
      /** What to send back to the stranger (never to the agent). */
      replyText: string;
    }
  | { action: "drop"; reason: DropReason; detail: string };

/** The reply a stranger gets: their code and the command the owner runs. */
export function pairingReplyText(channel: string, code: string): string {
  return (
    `This assistant only talks to people its owner has approved.\n` +
    `Your pairing code: ${code} (valid for 1 hour).\n` +
    `Ask the owner to run: openclaw pairing approve ${channel.trim().toLowerCase()} ${code}`
  );
}

function drop(reason: DropReason, detail: string): AccessDecision {
  return { action: "drop", reason, detail };
}

function decideDirect(
  message: InboundMessage,
  account: AccessAccount,
  dmPolicy: DmPolicy,
  allowFrom: string[],
  store: PairingGate,
  now: number,
): AccessDecision {
  const allow = (reason: AllowReason): AccessDecision => ({ action: "allow", reason, chatKind: message.chat.kind });
  const sender = normalizeSenderId(idsOf(account), message.sender.id);
  switch (dmPolicy) {
    case "disabled":
      return drop("dms disabled", `dmPolicy is "disabled" on ${account.channel}/${account.accountId}`);
    case "open":
      return allow("open");
    case "allowlist":
      return listAllowsSender(idsOf(account), allowFrom, sender)
        ? allow("allowFrom")
        : drop("sender not allowed", `${sender} is not in allowFrom (dmPolicy "allowlist")`);
    case "pairing": {
      if (listAllowsSender(idsOf(account), allowFrom, sender)) return allow("allowFrom");
      if (sender !== "" && store.isApproved(account.channel, account.accountId, sender)) return allow("paired");
      if (sender === "") return drop("sender not allowed", "the message has no sender id");
      const issued = store.issue(
        {
          channel: account.channel,
          accountId: account.accountId,
          senderId: sender,
          ...(message.sender.name !== undefined ? { senderName: message.sender.name } : {}),
        },
        now,
      );
      if (!issued.ok) {
        return drop("too many pending", `${issued.pending} pairing codes are already pending on ${account.channel}/${account.accountId}`);
      }
      return {
        action: "pair",
        code: issued.code,
        isNew: issued.isNew,
        expiresAt: issued.expiresAt,
        replyText: pairingReplyText(account.channel, issued.code),
      };
    }
  }
}

function decideGroup(
  message: InboundMessage,
  account: AccessAccount,
  groupPolicy: GroupPolicy,
  access: ReturnType<typeof resolveAccessConfig>,
): AccessDecision {
  const where = `${account.channel}/${account.accountId} group ${message.chat.id}`;
  if (groupPolicy === "disabled") return drop("groups disabled", `groupPolicy is "disabled" (${where})`);
  const group = resolveGroupSettings(idsOf(account), access, message.chat.id, message.chat.threadId, message.chat.aliases);
  if (groupPolicy === "allowlist" && !group.listed) {
    return drop("group not allowed", `${where} is not listed in groups and there is no "*" entry (groupPolicy "allowlist")`);
  }
  if (!group.enabled) return drop("group disabled", `${where} has enabled: false`);
  if (group.allowFrom !== undefined && !listAllowsSender(idsOf(account), group.allowFrom, message.sender.id)) {
    return drop("sender not allowed in group", `${normalizeSenderId(idsOf(account), message.sender.id)} is not allowed in ${where}`);
  }
  if (group.requireMention && !message.mentionsBot) return drop("not mentioned", `${where} requires a mention`);
  return { action: "allow", reason: "group", chatKind: message.chat.kind };
}

/**
 * Decides whether an inbound message reaches an agent. Pure except for the pairing store, which
 * is read on every DM (so approvals apply without a restart) and written when a code is issued.
 *
 * DMs, by `dmPolicy` (default `pairing`):
 * - `pairing`: `allowFrom` and approved senders pass; a stranger gets a code (`action: "pair"`,
 *   the same code again within its hour), or a drop when 3 codes are already pending on the account;
 * - `allowlist`: only `allowFrom` (approved pairings do not count);
 * - `open`: anyone; `disabled`: nobody.
 *
 * Groups and channels, by `groupPolicy` (default `allowlist`, fail-closed: the group must be listed
 * in `groups` or a `"*"` entry must exist; `open`: any group; `disabled`: none), then the group's
 * `enabled` (default true), its sender list (the group's `allowFrom`, else `groupAllowFrom`, else
 * `allowFrom`; none set: anyone; never the pairing store), then `requireMention` (default true)
 * against `message.mentionsBot`. Forum topics inherit their group's settings.
 */
export function decideAccess(
  message: InboundMessage,
  account: AccessAccount,
  store: PairingGate,
  now: number = Date.now(),
): AccessDecision {
  const access = resolveAccessConfig(idsOf(account), account.config);
  if (message.chat.kind === "direct") {
    return decideDirect(message, account, access.dmPolicy, access.allowFrom, store, now);
  }
  return decideGroup(message, account, access.groupPolicy, access);
}
