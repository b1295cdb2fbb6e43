// Outbound policy: may the agent start a conversation with this chat? The inbound rules applied
// to the target, so the agent can only reach people and groups that could reach it.
import type { ChatRef } from "@openclaw/plugin-sdk";
import { resolveAccessConfig, resolveGroupSettings } from "./config.js";
import { type AccessAccount, idsOf } from "./decide.js";
import { listAllowsSender, normalizeSenderId } from "./ids.js";
import type { PairingGate } from "./pairing-store.js";

/** The outcome of {@link checkOutboundAccess}; `detail` says why and what to change. */
export type OutboundAccess = { ok: true } | { ok: false; detail: string };

/**
 * Whether an agent may send to `chat` on this account:
 * - a DM target must be in `allowFrom` (or `"*"`), or, with `dmPolicy: "pairing"`, an approved
 *   sender; `dmPolicy: "open"` allows any, `"disabled"` none;
 * - a group or channel target needs `groupPolicy` `open`, or `allowlist` with the group listed in
 *   `groups` (or a `"*"` entry); never `disabled`, and not a group with `enabled: false`.
 * Mentions and group sender lists concern inbound messages only and are not checked.
 */
export function checkOutboundAccess(chat: ChatRef, account: AccessAccount, store: Pick<PairingGate, "isApproved">): OutboundAccess {
  const access = resolveAccessConfig(idsOf(account), account.config);
  const where = `channels.${account.channel}${account.accountId === "default" ? "" : ` (account ${account.accountId})`}`;
  if (chat.kind === "direct") {
    const peer = normalizeSenderId(idsOf(account), chat.id);
    if (access.dmPolicy === "disabled") return { ok: false, detail: `DMs are disabled on ${where} (dmPolicy "disabled").` };
    if (access.dmPolicy === "open" || listAllowsSender(idsOf(account), access.allowFrom, peer)) return { ok: true };
    if (access.dmPolicy === "pairing" && store.isApproved(account.channel, account.accountId, peer)) return { ok: true };
    return {
      ok: false,
      detail:
        `${peer} may not be messaged on ${where}: it is not in allowFrom` +
        (access.dmPolicy === "pairing"
          ? " and has not been approved with `openclaw pairing approve`."
          : ` (dmPolicy "${access.dmPolicy}").`),
    };
  }
  if (access.groupPolicy === "disabled") return { ok: false, detail: `Groups are disabled on ${where} (groupPolicy "disabled").` };
  const group = resolveGroupSettings(idsOf(account), access, chat.id, chat.threadId, chat.aliases);
  if (access.groupPolicy === "allowlist" && !group.listed) {
    return { ok: false, detail: `Group ${chat.id} is not listed in ${where}.groups (groupPolicy "allowlist").` };
  }
  if (!group.enabled) return { ok: false, detail: `Group ${chat.id} is disabled in ${where}.groups (enabled: false).` };
  return { ok: true };
}
