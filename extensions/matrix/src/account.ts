/**
 * Which Matrix accounts are configured, and the effective settings of one: the homeserver and
 * login (an access token, or a user id and password), from the config or, for the default
 * account, `MATRIX_HOMESERVER` / `MATRIX_ACCESS_TOKEN` / `MATRIX_USER_ID` / `MATRIX_PASSWORD`.
 */
import { AccountConfigError, DEFAULT_ACCOUNT_ID, listAccountIds, type ResolveAccountInput } from "@openclaw/plugin-sdk";
import { isPlainObject } from "@openclaw/plugin-sdk/config";
import { MATRIX_MEDIA_MAX_MB, MATRIX_TEXT_LIMIT, type matrixConfigSchema } from "./config.js";
import { aliasKeysOf } from "./inbound/room-aliases.js";
import { type MatrixStreaming, parseMatrixStreaming } from "./streaming.js";

export type { MatrixStreamingMode } from "./streaming.js";

/** Environment variables read for the default account only. */
export const MATRIX_ENV = {
  homeserver: "MATRIX_HOMESERVER",
  accessToken: "MATRIX_ACCESS_TOKEN",
  userId: "MATRIX_USER_ID",
  password: "MATRIX_PASSWORD",
} as const;

/** The effective settings of one Matrix account, as `resolveAccount` returns them. */
export interface MatrixAccount {
  accountId: string;
  /** Client-server API base URL, without a trailing slash. */
  homeserver: string;
  /** How the account logs in: a token (user id from /whoami), or a password (token then kept 0600). */
  auth: { kind: "token"; accessToken: string; userId?: string } | { kind: "password"; userId: string; password: string };
  deviceId?: string;
  /** Device display name on password login (default "OpenClaw"). */
  deviceName: string;
  encryption: boolean;
  autoJoin: "off" | "allowlist" | "always";
  autoJoinAllowlist: string[];
  replyToMode: "off" | "first" | "all" | "batched";
  threadReplies: "off" | "inbound" | "always";
  /** Case-insensitive patterns that count as a mention. */
  mentionPatterns: RegExp[];
  allowBots: boolean;
  botUserIds: string[];
  ackReaction?: string;
  typing: boolean;
  readReceipts: boolean;
  textChunkLimit: number;
  mediaMaxBytes: number;
  /** `streaming.mode` (default "off"), the account's `streaming` object and its per-room overrides. */
  streaming: MatrixStreaming;
  /** The `#alias:server` keys of `groups` and `streaming.rooms`, resolved to room ids by the session. */
  roomAliases: string[];
}

/** The config path of a key of an account, e.g. `channels.matrix.accounts.work.accessToken`. */
export function accountKeyPath(accountId: string, key: string): string {
  return accountId === DEFAULT_ACCOUNT_ID ? `channels.matrix.${key}` : `channels.matrix.accounts.${accountId}.${key}`;
}

const nonEmpty = (value: unknown): value is string => typeof value === "string" && value.trim() !== "";

/**
 * Account ids of `channels.matrix`: every key of `accounts`, plus `"default"` when the root has a
 * homeserver or `MATRIX_HOMESERVER` is set (or when there are no named accounts).
 */
export function listMatrixAccounts(channelConfig: Record<string, unknown>, env: NodeJS.ProcessEnv): string[] {
  return listAccountIds(channelConfig, nonEmpty(channelConfig.homeserver) || nonEmpty(env[MATRIX_ENV.homeserver]));
}

function compilePatterns(patterns: readonly string[], accountId: string): RegExp[] {
  return patterns.map((pattern, index) => {
    try {
      return new RegExp(pattern, "i");
    } catch (error) {
      const path = `${accountKeyPath(accountId, "mentionPatterns")}[${index}]`;
      throw new AccountConfigError(
        `${path}: ${JSON.stringify(pattern)} is not a valid regular expression (${(error as Error).message}); fix or remove it.`,
        path,
      );
    }
  });
}

/**
 * The effective settings of one account from its validated, merged config. The default account
 * falls back to the `MATRIX_*` environment variables for what its config does not set. Throws
 * `AccountConfigError` naming the key when the homeserver or a login is missing.
 */
export function resolveMatrixAccount(input: ResolveAccountInput<typeof matrixConfigSchema>): MatrixAccount {
  const config: Record<string, unknown> = input.config;
  const { accountId, env } = input;
  const fromEnv = (key: keyof typeof MATRIX_ENV): string | undefined => {
    const value = accountId === DEFAULT_ACCOUNT_ID ? env[MATRIX_ENV[key]] : undefined;
    return nonEmpty(value) ? value.trim() : undefined;
  };
  const pick = (key: keyof typeof MATRIX_ENV): string | undefined =>
    nonEmpty(config[key]) ? (config[key] as string).trim() : fromEnv(key);
  const homeserver = pick("homeserver");
  if (homeserver === undefined) {
    const path = accountKeyPath(accountId, "homeserver");
    throw new AccountConfigError(
      `${path} is not set; set it to your homeserver's URL (e.g. "https://matrix.example.org")${accountId === DEFAULT_ACCOUNT_ID ? " or export MATRIX_HOMESERVER" : ""}.`,
      path,
    );
  }
  const accessToken = pick("accessToken");
  const userId = pick("userId");
  const password = pick("password");
  let auth: MatrixAccount["auth"];
  if (accessToken !== undefined) auth = { kind: "token", accessToken, ...(userId !== undefined ? { userId } : {}) };
  else if (password !== undefined && userId !== undefined) auth = { kind: "password", userId, password };
  else {
    const path = accountKeyPath(accountId, password !== undefined ? "userId" : "accessToken");
    throw new AccountConfigError(
      password !== undefined
        ? `${path} is not set; password login needs the bot's full user id (e.g. "@bot:example.org").`
        : `${path} is not set; set accessToken (from Element: Settings > Help & About > Access Token), or userId and password.`,
      path,
    );
  }
  const limit = typeof config.textChunkLimit === "number" ? Math.min(config.textChunkLimit, MATRIX_TEXT_LIMIT) : MATRIX_TEXT_LIMIT;
  const mediaMb = typeof config.mediaMaxMb === "number" ? config.mediaMaxMb : MATRIX_MEDIA_MAX_MB;
  const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter(nonEmpty) : []);
  const streaming = parseMatrixStreaming(config.streaming);
  return {
    accountId,
    homeserver: homeserver.replace(/\/+$/, ""),
    auth,
    ...(nonEmpty(config.deviceId) ? { deviceId: config.deviceId } : {}),
    deviceName: nonEmpty(config.deviceName) ? config.deviceName : "OpenClaw",
    encryption: config.encryption === true,
    autoJoin: (config.autoJoin as MatrixAccount["autoJoin"] | undefined) ?? "off",
    autoJoinAllowlist: strings(config.autoJoinAllowlist),
    replyToMode: (config.replyToMode as MatrixAccount["replyToMode"] | undefined) ?? "off",
    threadReplies: (config.threadReplies as MatrixAccount["threadReplies"] | undefined) ?? "inbound",
    mentionPatterns: compilePatterns(strings(config.mentionPatterns), accountId),
    allowBots: config.allowBots === true,
    botUserIds: strings(config.botUserIds).map((id) => id.toLowerCase()),
    ...(nonEmpty(config.ackReaction) ? { ackReaction: config.ackReaction } : {}),
    typing: config.typing !== false,
    readReceipts: config.readReceipts !== false,
    textChunkLimit: limit,
    mediaMaxBytes: Math.round(mediaMb * 1024 * 1024),
    streaming,
    roomAliases: aliasKeysOf([...Object.keys(isPlainObject(config.groups) ? config.groups : {}), ...Object.keys(streaming.rooms)]),
  };
}
