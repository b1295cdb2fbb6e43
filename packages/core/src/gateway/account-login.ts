// What `openclaw channels login|logout` needs before it calls the plugin: the installed plugin of
// the channel (loaded the way the gateway loads it), the account from the validated config, and
// the account's credentials folder.
import { chmodSync, mkdirSync } from "node:fs";
import path from "node:path";
import { AccountConfigError, DEFAULT_ACCOUNT_ID, mergeAccountConfig, type ChannelPlugin } from "@openclaw/plugin-sdk";
import { loadConfig, UserError, type OpenClawPaths } from "../config/index.js";
import { installCommandFor, loadChannelPlugins, notInstalledMessage, resolvePlugins } from "../plugins/index.js";
import { readRawConfig } from "./startup-config.js";

/** `<stateDir>/credentials/<channel>/<accountId>`: an account's login state (`AccountContext.credentialsDir`). */
export function accountCredentialsDir(stateDir: string, channel: string, accountId: string): string {
  return path.join(stateDir, "credentials", channel, accountId);
}

/** The command that links an account, as `openclaw channels status` shows it. */
export function loginCommandFor(channel: string, accountId: string): string {
  return `openclaw channels login ${channel}${accountId === DEFAULT_ACCOUNT_ID ? "" : ` --account ${accountId}`}`;
}

/** One configured account of a channel, ready for its plugin's `login` or `logout`. */
export interface LoginTarget {
  channel: string;
  plugin: ChannelPlugin<unknown>;
  accountId: string;
  /** `plugin.resolveAccount`'s result. */
  account: unknown;
  /** Created with mode 0700. */
  credentialsDir: string;
  configPath: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Finds the account `accountId` (default: `channels.<channel>.defaultAccount`, else `default`,
 * else the only account) of `channel`: loads the installed plugins as the gateway does, validates
 * the config with their schemas, resolves the account and creates its credentials folder (0700).
 * Throws a UserError naming the file, the key and the fix when the plugin is missing, the channel
 * or the account is not configured, or the account's config is refused.
 */
export async function resolveLoginTarget(input: {
  paths: OpenClawPaths;
  env: NodeJS.ProcessEnv;
  channel: string;
  accountId?: string;
}): Promise<LoginTarget> {
  const { paths, env, channel } = input;
  const configPath = paths.configPath;
  const rawConfig = await readRawConfig(paths, env);
  const plugins = await loadChannelPlugins(await resolvePlugins({ paths, config: rawConfig }));
  const plugin = plugins.find((p) => p.id === channel);
  if (!plugin) {
    const configured = isObject(rawConfig.channels) && rawConfig.channels[channel] !== undefined;
    throw new UserError(
      configured
        ? `${notInstalledMessage(channel)} (${configPath}).`
        : `No installed plugin provides channel "${channel}"; install it with \`${installCommandFor(channel)}\`. Installed channels: ${plugins.map((p) => p.id).join(", ") || "none"}.`,
    );
  }
  const { config } = await loadConfig(paths, { env, channels: plugins.map((p) => p.config) });
  const channels = (config as { channels?: Record<string, unknown> }).channels ?? {};
  const channelConfig = channels[channel];
  if (!isObject(channelConfig)) {
    throw new UserError(
      `${configPath} has no channels.${channel}: add it (e.g. "channels": { "${channel}": {} }; see ${plugin.meta.docsPath}) and run the command again.`,
    );
  }
  const accountIds = plugin.listAccounts(channelConfig, env);
  const accountId = input.accountId ?? defaultAccountId(channelConfig, accountIds);
  if (accountId === undefined) {
    throw new UserError(
      `channels.${channel} in ${configPath} has several accounts (${accountIds.join(", ")}); pick one with --account <id>, or set channels.${channel}.defaultAccount.`,
    );
  }
  if (!accountIds.includes(accountId)) {
    throw new UserError(
      `Account "${accountId}" is not configured: ${configPath} has no channels.${channel}.accounts.${accountId}; add it there${accountIds.length ? ` or pass one of --account ${accountIds.join(", ")}` : ""}.`,
    );
  }
  let account: unknown;
  try {
    account = plugin.resolveAccount({ accountId, config: mergeAccountConfig(channelConfig, accountId), channel: channelConfig, env });
  } catch (err) {
    if (err instanceof AccountConfigError) throw new UserError(`${configPath}: ${err.message} (${err.path})`);
    throw err;
  }
  const credentialsDir = accountCredentialsDir(paths.stateDir, channel, accountId);
  mkdirSync(credentialsDir, { recursive: true, mode: 0o700 });
  chmodSync(credentialsDir, 0o700);
  return { channel, plugin, accountId, account, credentialsDir, configPath };
}

function defaultAccountId(channelConfig: Record<string, unknown>, accountIds: string[]): string | undefined {
  if (typeof channelConfig.defaultAccount === "string" && channelConfig.defaultAccount) return channelConfig.defaultAccount;
  if (accountIds.includes(DEFAULT_ACCOUNT_ID)) return DEFAULT_ACCOUNT_ID;
  return accountIds.length === 1 ? accountIds[0] : undefined;
}
