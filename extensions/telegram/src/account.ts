/**
 * Which Telegram accounts are configured, and the effective settings of one: its token (from
 * `botToken`, `tokenFile` or `TELEGRAM_BOT_TOKEN`), API root, delivery options and webhook.
 */
import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { AccountConfigError, DEFAULT_ACCOUNT_ID, listAccountIds, type ResolveAccountInput } from "@openclaw/plugin-sdk";
import { isPlainObject } from "@openclaw/plugin-sdk/config";
import { TELEGRAM_TEXT_CHUNK_LIMIT, type telegramConfigSchema, WEBHOOK_DEFAULTS } from "./config.js";

/** The environment variable holding the default account's token. */
export const TOKEN_ENV = "TELEGRAM_BOT_TOKEN";

/** How replies quote the user's message (applied by core's delivery planner). */
export type ReplyToMode = "off" | "first" | "all" | "batched";

/** Webhook mode of an account (set when `webhookUrl` is configured). */
export interface TelegramWebhookSettings {
  /** The public URL Telegram posts updates to. */
  url: string;
  /** Sent by Telegram in `X-Telegram-Bot-Api-Secret-Token`; checked on every request. */
  secret: string;
  /** Listener address (default "127.0.0.1"). */
  host: string;
  /** Listener port (default 8787; 0 picks a free port, useful only in tests). */
  port: number;
  /** Listener path (default "/telegram-webhook"). */
  path: string;
}

/** The effective settings of one Telegram account, as `resolveAccount` returns them. */
export interface TelegramAccount {
  accountId: string;
  /** The bot token. */
  token: string;
  /** Where the token came from. */
  tokenSource: "botToken" | "tokenFile" | "env";
  /** Bot API root without `/bot<token>` (default: Telegram's). */
  apiRoot: string | undefined;
  /** Set in webhook mode; unset means long polling. */
  webhook: TelegramWebhookSettings | undefined;
  /** Default "off". */
  replyToMode: ReplyToMode;
  /** Show link previews (default true). */
  linkPreview: boolean;
  /** Longest message before a reply is split (default 4000). */
  textChunkLimit: number;
}

/** The config path of a key of an account, e.g. `channels.telegram.accounts.work.botToken`. */
export function accountKeyPath(accountId: string, key: string): string {
  return accountId === DEFAULT_ACCOUNT_ID ? `channels.telegram.${key}` : `channels.telegram.accounts.${accountId}.${key}`;
}

const nonEmpty = (value: unknown): value is string => typeof value === "string" && value.trim() !== "";

/**
 * Account ids of `channels.telegram`: every key of `accounts`, plus `"default"` when the root has
 * `botToken` or `tokenFile`, or `TELEGRAM_BOT_TOKEN` is set (or when there are no named accounts).
 */
export function listTelegramAccounts(channelConfig: Record<string, unknown>, env: NodeJS.ProcessEnv): string[] {
  const rootHasToken = nonEmpty(channelConfig.botToken) || nonEmpty(channelConfig.tokenFile) || nonEmpty(env[TOKEN_ENV]);
  return listAccountIds(channelConfig, rootHasToken);
}

/** The account's own keys: the root for `default` (plus `accounts.default`), else `accounts.<id>`. */
function ownCredentials(channelConfig: Record<string, unknown>, accountId: string): Record<string, unknown> {
  const accounts = isPlainObject(channelConfig.accounts) ? channelConfig.accounts : {};
  const own = isPlainObject(accounts[accountId]) ? (accounts[accountId] as Record<string, unknown>) : {};
  return accountId === DEFAULT_ACCOUNT_ID ? { ...channelConfig, ...own } : own;
}

function expandHome(file: string): string {
  return file === "~" || file.startsWith("~/") ? homedir() + file.slice(1) : file;
}

function readTokenFile(file: string, accountId: string): string {
  const path = accountKeyPath(accountId, "tokenFile");
  const resolved = expandHome(file);
  let text: string;
  try {
    if (!statSync(resolved).isFile()) {
      throw new AccountConfigError(`${path} (${file}) is not a regular file; point it at a file that holds only the bot token.`, path);
    }
    text = readFileSync(resolved, "utf8").trim();
  } catch (error) {
    if (error instanceof AccountConfigError) throw error;
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "does not exist" : `cannot be read (${(error as Error).message})`;
    throw new AccountConfigError(
      `${path}: the file ${file} ${reason}; create it with the token from @BotFather, or set botToken instead.`,
      path,
    );
  }
  if (text === "") throw new AccountConfigError(`${path}: the file ${file} is empty; put the token from @BotFather in it.`, path);
  return text;
}

function resolveToken(
  channelConfig: Record<string, unknown>,
  accountId: string,
  env: NodeJS.ProcessEnv,
): Pick<TelegramAccount, "token" | "tokenSource"> {
  const own = ownCredentials(channelConfig, accountId);
  if (nonEmpty(own.botToken)) return { token: own.botToken.trim(), tokenSource: "botToken" };
  if (nonEmpty(own.tokenFile)) return { token: readTokenFile(own.tokenFile, accountId), tokenSource: "tokenFile" };
  if (accountId === DEFAULT_ACCOUNT_ID && nonEmpty(env[TOKEN_ENV])) return { token: env[TOKEN_ENV]!.trim(), tokenSource: "env" };
  const path = accountKeyPath(accountId, "botToken");
  const where =
    accountId === DEFAULT_ACCOUNT_ID
      ? `set ${path}, channels.telegram.tokenFile, or the ${TOKEN_ENV} environment variable`
      : `set ${path} or ${accountKeyPath(accountId, "tokenFile")} (named accounts do not read ${TOKEN_ENV})`;
  throw new AccountConfigError(`Telegram account "${accountId}" has no bot token: ${where} to the token @BotFather gave you.`, path);
}

const SECRET_CHARS = /^[A-Za-z0-9_-]{1,256}$/;

function resolveWebhook(merged: Record<string, unknown>, accountId: string): TelegramWebhookSettings | undefined {
  if (!nonEmpty(merged.webhookUrl)) return undefined;
  const secretPath = accountKeyPath(accountId, "webhookSecret");
  if (!nonEmpty(merged.webhookSecret)) {
    throw new AccountConfigError(
      `${accountKeyPath(accountId, "webhookUrl")} is set but ${secretPath} is not: webhook mode needs a secret so that only Telegram can post updates; set ${secretPath} to a random string (A-Z, a-z, 0-9, _ and -), or remove webhookUrl to use long polling.`,
      secretPath,
    );
  }
  if (!SECRET_CHARS.test(merged.webhookSecret)) {
    throw new AccountConfigError(
      `${secretPath} may only hold A-Z, a-z, 0-9, _ and - (1 to 256 characters), as Telegram requires; choose another secret.`,
      secretPath,
    );
  }
  return {
    url: merged.webhookUrl,
    secret: merged.webhookSecret,
    host: nonEmpty(merged.webhookHost) ? merged.webhookHost : WEBHOOK_DEFAULTS.host,
    port: typeof merged.webhookPort === "number" ? merged.webhookPort : WEBHOOK_DEFAULTS.port,
    path: nonEmpty(merged.webhookPath) ? merged.webhookPath : WEBHOOK_DEFAULTS.path,
  };
}

/**
 * The effective settings of one account from its validated, merged config, except credentials: a named account uses only its own `botToken`/`tokenFile` (never the root's,
 * which belong to the default account, and never `TELEGRAM_BOT_TOKEN`). Precedence: botToken,
 * then tokenFile (read and trimmed; `~/` expanded), then the environment.
 *
 * @throws AccountConfigError when there is no token, the token file is missing or empty, or
 *   `webhookUrl` is set without a valid `webhookSecret`; the message names the key and the fix.
 */
export function resolveTelegramAccount(input: ResolveAccountInput<typeof telegramConfigSchema>): TelegramAccount {
  const { accountId, env } = input;
  const merged: Record<string, unknown> = input.config;
  const channelConfig: Record<string, unknown> = input.channel;
  const { token, tokenSource } = resolveToken(channelConfig, accountId, env);
  const replyToMode = merged.replyToMode;
  return {
    accountId,
    token,
    tokenSource,
    apiRoot: nonEmpty(channelConfig.apiRoot) ? channelConfig.apiRoot : undefined,
    webhook: resolveWebhook(merged, accountId),
    replyToMode: replyToMode === "first" || replyToMode === "all" || replyToMode === "batched" ? replyToMode : "off",
    linkPreview: merged.linkPreview !== false,
    textChunkLimit: typeof merged.textChunkLimit === "number" ? merged.textChunkLimit : TELEGRAM_TEXT_CHUNK_LIMIT,
  };
}
