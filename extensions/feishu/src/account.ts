/**
 * Which Feishu accounts are configured, and the effective settings of one: its App ID and App
 * Secret (from the config, or `FEISHU_APP_ID` / `FEISHU_APP_SECRET` for the default account), the
 * Open Platform root, how events arrive, and delivery options.
 */
import { AccountConfigError, DEFAULT_ACCOUNT_ID, listAccountIds, type ResolveAccountInput } from "@openclaw/plugin-sdk";
import { isPlainObject } from "@openclaw/plugin-sdk/config";
import { FEISHU_DOMAINS, FEISHU_TEXT_LIMIT, FEISHU_WEBHOOK_PATH, type feishuConfigSchema } from "./config.js";

/** Environment variable read for the default account's App ID. */
export const APP_ID_ENV = "FEISHU_APP_ID";
/** Environment variable read for the default account's App Secret. */
export const APP_SECRET_ENV = "FEISHU_APP_SECRET";

/** The effective settings of one Feishu account, as `resolveAccount` returns them. */
export interface FeishuAccount {
  accountId: string;
  appId: string;
  appSecret: string;
  /** The Open Platform root without a trailing slash, e.g. "https://open.feishu.cn". */
  domain: string;
  connectionMode: "websocket" | "webhook";
  /** Set in webhook mode. */
  webhook: { path: string; verificationToken: string; encryptKey: string } | undefined;
  /** Longest text of one message (default 4000). */
  textChunkLimit: number;
  streaming: { mode: "partial" | "off" };
  replyInThread: boolean;
  /** Per-group `replyInThread`, by chat id. */
  groupReplyInThread: Readonly<Record<string, boolean>>;
  typingIndicator: boolean;
  mediaMaxBytes: number;
}

/** The config path of a key of an account, e.g. `channels.feishu.accounts.work.appId`. */
export function accountKeyPath(accountId: string, key: string): string {
  return accountId === DEFAULT_ACCOUNT_ID ? `channels.feishu.${key}` : `channels.feishu.accounts.${accountId}.${key}`;
}

const nonEmpty = (value: unknown): value is string => typeof value === "string" && value.trim() !== "";

/**
 * Account ids of `channels.feishu`: every key of `accounts`, plus `"default"` when the root has an
 * `appId` or `FEISHU_APP_ID` is set (or when there are no named accounts).
 */
export function listFeishuAccounts(channelConfig: Record<string, unknown>, env: NodeJS.ProcessEnv): string[] {
  return listAccountIds(channelConfig, nonEmpty(channelConfig.appId) || nonEmpty(env[APP_ID_ENV]));
}

/** The account's own keys: the root for `default` (plus `accounts.default`), else `accounts.<id>`. */
function ownKeys(channelConfig: Record<string, unknown>, accountId: string): Record<string, unknown> {
  const accounts = isPlainObject(channelConfig.accounts) ? channelConfig.accounts : {};
  const own = isPlainObject(accounts[accountId]) ? (accounts[accountId] as Record<string, unknown>) : {};
  return accountId === DEFAULT_ACCOUNT_ID ? { ...channelConfig, ...own } : own;
}

function credential(own: Record<string, unknown>, accountId: string, key: "appId" | "appSecret", env: NodeJS.ProcessEnv): string {
  const envName = key === "appId" ? APP_ID_ENV : APP_SECRET_ENV;
  const isDefault = accountId === DEFAULT_ACCOUNT_ID;
  if (nonEmpty(own[key])) return own[key].trim();
  if (isDefault && nonEmpty(env[envName])) return env[envName]!.trim();
  const path = accountKeyPath(accountId, key);
  const where = isDefault ? `set ${path} or the ${envName} environment variable` : `set ${path} (named accounts do not read ${envName})`;
  const what = key === "appId" ? "App ID (cli_…)" : "App Secret";
  throw new AccountConfigError(
    `Feishu account "${accountId}" has no ${what}: ${where} to the value on the app's Credentials & Basic Info page of the developer console.`,
    path,
  );
}

/** `domain` as a base URL: the named platforms, or a URL (https, or http on a loopback address). */
export function resolveDomain(domain: unknown, accountId: string): string {
  if (domain === undefined || domain === "feishu") return FEISHU_DOMAINS.feishu;
  if (domain === "lark") return FEISHU_DOMAINS.lark;
  const url = new URL(String(domain));
  const loopback = ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) {
    const path = accountKeyPath(accountId, "domain");
    throw new AccountConfigError(
      `${path} is ${String(domain)}: a custom Open Platform root must use https (http only on a loopback address, for tests); use "feishu", "lark" or an https URL.`,
      path,
    );
  }
  return url.origin + url.pathname.replace(/\/+$/, "");
}

/**
 * The effective settings of one account from its validated, merged config. A named account uses
 * only its own `appId` / `appSecret` (never the root's, which belong to the default account, and
 * never the environment).
 *
 * @throws AccountConfigError naming the key and the fix when a credential is missing, the domain
 *   is not https, or webhook mode lacks its keys.
 */
export function resolveFeishuAccount(input: ResolveAccountInput<typeof feishuConfigSchema>): FeishuAccount {
  const { accountId, env } = input;
  const merged: Record<string, unknown> = input.config;
  const own = ownKeys(input.channel, accountId);
  const appId = credential(own, accountId, "appId", env);
  const appSecret = credential(own, accountId, "appSecret", env);
  const streaming = isPlainObject(merged.streaming) ? merged.streaming : {};
  const connectionMode = merged.connectionMode === "webhook" ? "webhook" : "websocket";
  let webhook: FeishuAccount["webhook"];
  if (connectionMode === "webhook") {
    for (const key of ["verificationToken", "encryptKey"]) {
      if (!nonEmpty(merged[key])) {
        const path = accountKeyPath(accountId, key);
        throw new AccountConfigError(
          `connectionMode "webhook" needs ${path}: copy it from the app's Events & Callbacks > Encryption Strategy page of the developer console.`,
          path,
        );
      }
    }
    webhook = {
      path: nonEmpty(merged.webhookPath) ? merged.webhookPath : FEISHU_WEBHOOK_PATH,
      verificationToken: String(merged.verificationToken),
      encryptKey: String(merged.encryptKey),
    };
  }
  const groups = isPlainObject(merged.groups) ? (merged.groups as Record<string, Record<string, unknown>>) : {};
  const groupReplyInThread: Record<string, boolean> = {};
  for (const [chatId, group] of Object.entries(groups)) {
    if (typeof group?.replyInThread === "boolean") groupReplyInThread[chatId] = group.replyInThread;
  }
  const limit = typeof merged.textChunkLimit === "number" ? merged.textChunkLimit : FEISHU_TEXT_LIMIT;
  return {
    accountId,
    appId,
    appSecret,
    domain: resolveDomain(merged.domain, accountId),
    connectionMode,
    webhook,
    textChunkLimit: limit,
    streaming: { mode: streaming.mode === "off" ? "off" : "partial" },
    replyInThread: merged.replyInThread === true,
    groupReplyInThread,
    typingIndicator: merged.typingIndicator !== false,
    mediaMaxBytes: Math.floor((typeof merged.mediaMaxMb === "number" ? merged.mediaMaxMb : 30) * 1024 * 1024),
  };
}
