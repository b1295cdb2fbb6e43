// Outbound targets written as text (`<channel>:<account>:<chat>`, `<channel>:<chat>`), as the
// `message` tool receives them, resolved against the configured channels and accounts.
import { listAccountIds, type ChatKind, type ChatRef } from "@openclaw/plugin-sdk";
import { type ChannelIds, normalizeChatId } from "../access/index.js";
import type { IdRulesLookup } from "./bindings.js";

/** A resolved outbound target. */
export interface MessageTarget {
  /** Lowercased channel id. */
  channel: string;
  /** The account id as configured. */
  accountId: string;
  chat: ChatRef;
}

/** The result of {@link parseMessageTarget}; `error` says what is wrong and how to write it. */
export type TargetResolution = { ok: true; target: MessageTarget } | { ok: false; error: string };

export interface ParseTargetOptions {
  /** The chat kind when the caller knows it; otherwise it is inferred (see {@link inferChatKind}). */
  kind?: ChatKind;
  /** A thread or forum topic inside the chat. */
  threadId?: string;
  /**
   * The account ids of a configured channel. Default: the keys of `channels.<id>.accounts`, or
   * `["default"]` when there are none (the gateway passes the accounts it actually runs, which
   * also knows whether the root credentials make a `default` account).
   */
  listAccounts?(channel: string, channelConfig: Record<string, unknown>): readonly string[];
  /** The id rules of each channel (the loaded plugins'); they normalize the chat id and may tell its kind. */
  rulesOf?: IdRulesLookup;
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/**
 * What an account id looks like. A middle part shaped like this that names no account is an
 * error, not the start of a chat id (chat ids with colons start with `@`, `!`, `#` or `-`).
 */
const ACCOUNT_LIKE = /^[a-z][a-z0-9_-]{0,63}$/;

/**
 * The kind of a chat named only by its id: as the channel's id rules tell from its spelling
 * (`chatKindOf`), else `group` when the id is a key of `groups`, else `direct`. Either guess is
 * checked against the access rules of that kind, so a wrong guess is refused, never let through.
 */
export function inferChatKind(ids: ChannelIds, chatId: string, accountConfig: Record<string, unknown> | undefined): ChatKind {
  const id = normalizeChatId(ids, chatId);
  const hinted = ids.rules?.chatKindOf?.(id);
  if (hinted) return hinted;
  const groups = asObject(accountConfig?.groups) ?? {};
  return Object.keys(groups).some((key) => key !== "*" && normalizeChatId(ids, key) === id) ? "group" : "direct";
}

function defaultAccountOf(channel: string, channelConfig: Record<string, unknown>, accounts: readonly string[]): TargetResolution | string {
  const named = typeof channelConfig.defaultAccount === "string" ? channelConfig.defaultAccount : undefined;
  const found = (id: string) => accounts.find((a) => a.toLowerCase() === id.toLowerCase());
  const chosen = (named !== undefined ? found(named) : undefined) ?? found("default") ?? (accounts.length === 1 ? accounts[0] : undefined);
  if (chosen !== undefined) return chosen;
  return {
    ok: false,
    error: `channels.${channel} has several accounts and no default; name one: "${channel}:<account>:<chat>" with <account> one of ${accounts.join(", ")}.`,
  };
}

/**
 * Resolves `"<channel>:<account>:<chat>"` or `"<channel>:<chat>"` (the channel's default account:
 * `defaultAccount`, else `default`, else its only account). The middle part is an account when it
 * names one of the channel's accounts; otherwise everything after the channel is the chat id, so
 * ids that contain colons (`<channel>:!room:hs`, `<channel>:@alice:hs`) need no escaping. A middle part
 * that looks like an account id (a letter, then letters, digits, `-`, `_`) but names none is an
 * error. The channel must be configured and enabled, and so must the account.
 */
export function parseMessageTarget(text: string, config: unknown, options: ParseTargetOptions = {}): TargetResolution {
  const trimmed = text.trim();
  const colon = trimmed.indexOf(":");
  if (colon <= 0 || colon === trimmed.length - 1) {
    return {
      ok: false,
      error: `target "${text}" must look like "<channel>:<chat>" or "<channel>:<account>:<chat>", e.g. "mychannel:123456".`,
    };
  }
  const channel = trimmed.slice(0, colon).toLowerCase();
  const rest = trimmed.slice(colon + 1).trim();
  const channels = asObject(asObject(config)?.channels) ?? {};
  const channelConfig = asObject(channels[channel]);
  if (!channelConfig) {
    const known = Object.keys(channels).filter((k) => asObject(channels[k]) !== undefined);
    return {
      ok: false,
      error: `channel "${channel}" is not configured${known.length > 0 ? `; configured channels: ${known.join(", ")}` : ""}. Add it under channels.${channel}.`,
    };
  }
  if (channelConfig.enabled === false)
    return { ok: false, error: `channel "${channel}" is disabled (channels.${channel}.enabled is false).` };
  const accounts = options.listAccounts?.(channel, channelConfig) ?? listAccountIds(channelConfig, false);
  let accountId: string | undefined;
  let chatId = rest;
  const second = rest.indexOf(":");
  if (second > 0 && second < rest.length - 1) {
    const head = rest.slice(0, second).toLowerCase();
    const account = accounts.find((a) => a.toLowerCase() === head);
    if (account !== undefined) {
      accountId = account;
      chatId = rest.slice(second + 1).trim();
    } else if (ACCOUNT_LIKE.test(head)) {
      return {
        ok: false,
        error: `channel "${channel}" has no account "${head}"; its accounts: ${accounts.join(", ") || "none"}. Write "${channel}:<account>:<chat>" or "${channel}:<chat>" for the default account.`,
      };
    }
  }
  if (accountId === undefined) {
    const fallback = defaultAccountOf(channel, channelConfig, accounts);
    if (typeof fallback !== "string") return fallback;
    accountId = fallback;
  }
  const accountConfig = asObject(asObject(channelConfig.accounts)?.[accountId]);
  if (accountConfig?.enabled === false) {
    return {
      ok: false,
      error: `account "${accountId}" of channel "${channel}" is disabled (channels.${channel}.accounts.${accountId}.enabled is false).`,
    };
  }
  const merged = { ...channelConfig, ...(accountConfig ?? {}) };
  const kind = options.kind ?? inferChatKind({ channel, rules: options.rulesOf?.(channel) }, chatId, merged);
  const threadId = options.threadId?.trim();
  return { ok: true, target: { channel, accountId, chat: { kind, id: chatId, ...(threadId ? { threadId } : {}) } } };
}
