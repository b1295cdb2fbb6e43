/**
 * Which QQ Bot accounts are configured, and the effective settings of one: its AppID and AppSecret
 * (from the config, `clientSecretFile`, or `QQBOT_APP_ID` / `QQBOT_CLIENT_SECRET`), endpoints and
 * delivery options.
 */
import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { AccountConfigError, DEFAULT_ACCOUNT_ID, listAccountIds, type ResolveAccountInput } from "@openclaw/plugin-sdk";
import { isPlainObject } from "@openclaw/plugin-sdk/config";
import { QQBOT_ENDPOINTS, QQBOT_TEXT_LIMIT, type qqbotConfigSchema } from "./config.js";

/** Environment variables read for the default account only. */
export const APP_ID_ENV = "QQBOT_APP_ID";
/** Environment variable holding the default account's AppSecret. */
export const SECRET_ENV = "QQBOT_CLIENT_SECRET";

/** The effective settings of one QQ Bot account, as `resolveAccount` returns them. */
export interface QQBotAccount {
  accountId: string;
  appId: string;
  clientSecret: string;
  /** Where the secret came from. */
  secretSource: "clientSecret" | "clientSecretFile" | "env";
  /** OpenAPI root (the sandbox's with `sandbox: true`, unless `apiBase` is set). */
  apiBase: string;
  tokenUrl: string;
  /** Send markdown bodies (msg_type 2) instead of plain text (default false). */
  markdownSupport: boolean;
  /** Longest message before a reply is split (default and maximum 5000). */
  textChunkLimit: number;
  /** `streaming.mode` (default "partial") and `streaming.nativeTransport` (default false). */
  streaming: { mode: "partial" | "off"; nativeTransport: boolean };
}

/** The config path of a key of an account, e.g. `channels.qqbot.accounts.work.appId`. */
export function accountKeyPath(accountId: string, key: string): string {
  return accountId === DEFAULT_ACCOUNT_ID ? `channels.qqbot.${key}` : `channels.qqbot.accounts.${accountId}.${key}`;
}

const nonEmpty = (value: unknown): value is string => typeof value === "string" && value.trim() !== "";
const idOf = (value: unknown): string | undefined =>
  typeof value === "number" ? String(value) : nonEmpty(value) ? value.trim() : undefined;

/**
 * Account ids of `channels.qqbot`: every key of `accounts`, plus `"default"` when the root has an
 * `appId` or `QQBOT_APP_ID` is set (or when there are no named accounts).
 */
export function listQQBotAccounts(channelConfig: Record<string, unknown>, env: NodeJS.ProcessEnv): string[] {
  return listAccountIds(channelConfig, idOf(channelConfig.appId) !== undefined || nonEmpty(env[APP_ID_ENV]));
}

/** The account's own keys: the root for `default` (plus `accounts.default`), else `accounts.<id>`. */
function ownCredentials(channelConfig: Record<string, unknown>, accountId: string): Record<string, unknown> {
  const accounts = isPlainObject(channelConfig.accounts) ? channelConfig.accounts : {};
  const own = isPlainObject(accounts[accountId]) ? (accounts[accountId] as Record<string, unknown>) : {};
  return accountId === DEFAULT_ACCOUNT_ID ? { ...channelConfig, ...own } : own;
}

function readSecretFile(file: string, accountId: string): string {
  const path = accountKeyPath(accountId, "clientSecretFile");
  const resolved = file === "~" || file.startsWith("~/") ? homedir() + file.slice(1) : file;
  let text: string;
  try {
    if (!statSync(resolved).isFile())
      throw new AccountConfigError(`${path} (${file}) is not a regular file; point it at a file that holds only the AppSecret.`, path);
    text = readFileSync(resolved, "utf8").trim();
  } catch (error) {
    if (error instanceof AccountConfigError) throw error;
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "does not exist" : `cannot be read (${(error as Error).message})`;
    throw new AccountConfigError(
      `${path}: the file ${file} ${reason}; create it with the AppSecret from the QQ open platform console, or set clientSecret instead.`,
      path,
    );
  }
  if (text === "")
    throw new AccountConfigError(`${path}: the file ${file} is empty; put the AppSecret from the QQ open platform console in it.`, path);
  return text;
}

function resolveCredentials(
  channelConfig: Record<string, unknown>,
  accountId: string,
  env: NodeJS.ProcessEnv,
): Pick<QQBotAccount, "appId" | "clientSecret" | "secretSource"> {
  const own = ownCredentials(channelConfig, accountId);
  const isDefault = accountId === DEFAULT_ACCOUNT_ID;
  const appId = idOf(own.appId) ?? (isDefault && nonEmpty(env[APP_ID_ENV]) ? env[APP_ID_ENV]!.trim() : undefined);
  if (appId === undefined) {
    const path = accountKeyPath(accountId, "appId");
    const where = isDefault
      ? `set ${path} or the ${APP_ID_ENV} environment variable`
      : `set ${path} (named accounts do not read ${APP_ID_ENV})`;
    throw new AccountConfigError(
      `QQ Bot account "${accountId}" has no AppID: ${where} to the AppID shown in the QQ open platform console (q.qq.com).`,
      path,
    );
  }
  if (nonEmpty(own.clientSecret)) return { appId, clientSecret: own.clientSecret.trim(), secretSource: "clientSecret" };
  if (nonEmpty(own.clientSecretFile))
    return { appId, clientSecret: readSecretFile(own.clientSecretFile, accountId), secretSource: "clientSecretFile" };
  if (isDefault && nonEmpty(env[SECRET_ENV])) return { appId, clientSecret: env[SECRET_ENV]!.trim(), secretSource: "env" };
  const path = accountKeyPath(accountId, "clientSecret");
  const where = isDefault
    ? `set ${path}, channels.qqbot.clientSecretFile, or the ${SECRET_ENV} environment variable`
    : `set ${path} or ${accountKeyPath(accountId, "clientSecretFile")} (named accounts do not read ${SECRET_ENV})`;
  throw new AccountConfigError(
    `QQ Bot account "${accountId}" has no AppSecret: ${where} to the AppSecret from the QQ open platform console.`,
    path,
  );
}

/**
 * The effective settings of one account from its validated, merged config. A named account uses
 * only its own `appId` / `clientSecret` / `clientSecretFile` (never the root's, which belong to the
 * default account, and never the environment). Precedence: clientSecret, clientSecretFile (read and
 * trimmed; `~/` expanded), then `QQBOT_CLIENT_SECRET`.
 *
 * @throws AccountConfigError naming the key and the fix when the AppID or the AppSecret is missing.
 */
export function resolveQQBotAccount(input: ResolveAccountInput<typeof qqbotConfigSchema>): QQBotAccount {
  const { accountId, env } = input;
  const merged: Record<string, unknown> = input.config;
  const channelConfig: Record<string, unknown> = input.channel;
  const credentials = resolveCredentials(channelConfig, accountId, env);
  const streaming = isPlainObject(merged.streaming) ? merged.streaming : {};
  const sandbox = merged.sandbox === true;
  const limit = typeof merged.textChunkLimit === "number" ? Math.min(merged.textChunkLimit, QQBOT_TEXT_LIMIT) : QQBOT_TEXT_LIMIT;
  return {
    accountId,
    ...credentials,
    apiBase: (nonEmpty(channelConfig.apiBase)
      ? channelConfig.apiBase
      : sandbox
        ? QQBOT_ENDPOINTS.sandboxApiBase
        : QQBOT_ENDPOINTS.apiBase
    ).replace(/\/+$/, ""),
    tokenUrl: nonEmpty(channelConfig.tokenUrl) ? channelConfig.tokenUrl : QQBOT_ENDPOINTS.tokenUrl,
    markdownSupport: merged.markdownSupport === true,
    textChunkLimit: limit,
    streaming: { mode: streaming.mode === "off" ? "off" : "partial", nativeTransport: streaming.nativeTransport === true },
  };
}
