/**
 * Which WhatsApp accounts are configured, and the effective settings of one. A WhatsApp account
 * has no credentials in the config: it is linked with `openclaw channels login whatsapp`, and its
 * login state lives in the account's credentials folder.
 */
import { DEFAULT_ACCOUNT_ID, listAccountIds, type ResolveAccountInput } from "@openclaw/plugin-sdk";
import { isPlainObject } from "@openclaw/plugin-sdk/config";
import { WHATSAPP_MEDIA_MAX_MB, WHATSAPP_TEXT_LIMIT, type whatsappConfigSchema } from "./config.js";

/** The effective settings of one WhatsApp account, as `resolveAccount` returns them. */
export interface WhatsAppAccount {
  accountId: string;
  /** Answer the linked number's messages to itself (default false). */
  selfChatMode: boolean;
  /** Mark taken messages as read (default true; never in the self-chat). */
  sendReadReceipts: boolean;
  /** Longest message before a reply is split (default 4000). */
  textChunkLimit: number;
  /** `streaming.chunkMode` (default "length"). */
  chunkMode: "length" | "newline";
  /** `mediaMaxMb` in bytes (default 50 MB). */
  mediaMaxBytes: number;
}

/** The config path of a key of an account, e.g. `channels.whatsapp.accounts.work.selfChatMode`. */
export function accountKeyPath(accountId: string, key: string): string {
  return accountId === DEFAULT_ACCOUNT_ID ? `channels.whatsapp.${key}` : `channels.whatsapp.accounts.${accountId}.${key}`;
}

/**
 * Account ids of `channels.whatsapp`: every key of `accounts`, plus `"default"` when there are no
 * named accounts (the root then is the default account).
 */
export function listWhatsAppAccounts(channelConfig: Record<string, unknown>, _env: NodeJS.ProcessEnv): string[] {
  return listAccountIds(channelConfig, false);
}

/** The effective settings of one account from its validated, merged config. Never throws: linking is not config. */
export function resolveWhatsAppAccount(input: ResolveAccountInput<typeof whatsappConfigSchema>): WhatsAppAccount {
  const merged: Record<string, unknown> = input.config;
  const streaming = isPlainObject(merged.streaming) ? merged.streaming : {};
  const limit = typeof merged.textChunkLimit === "number" ? merged.textChunkLimit : WHATSAPP_TEXT_LIMIT;
  const mediaMb = typeof merged.mediaMaxMb === "number" ? merged.mediaMaxMb : WHATSAPP_MEDIA_MAX_MB;
  return {
    accountId: input.accountId,
    selfChatMode: merged.selfChatMode === true,
    sendReadReceipts: merged.sendReadReceipts !== false,
    textChunkLimit: limit,
    chunkMode: streaming.chunkMode === "newline" ? "newline" : "length",
    mediaMaxBytes: Math.round(mediaMb * 1024 * 1024),
  };
}
