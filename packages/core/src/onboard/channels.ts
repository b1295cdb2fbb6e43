// The channels onboarding offers (installed plugins, and first-party ones it can install), the
// credential keys each one's config schema names, and the plugin's own credentials check.
import { existsSync } from "node:fs";
import path from "node:path";
import { AccountConfigError, DEFAULT_ACCOUNT_ID, mergeAccountConfig, type ChannelPlugin } from "@openclaw/plugin-sdk";
import { createConfigRegistry, formatProblems, UserError, validateConfig, type OpenClawPaths } from "../config/index.js";
import { coreCheckoutRoot } from "../plugins/first-party.js";
import { FIRST_PARTY_CHANNELS, loadChannelPlugins, resolvePlugins } from "../plugins/index.js";
import { isSecretKey } from "../redaction/index.js";

/** A channel the user can pick. */
export interface ChannelChoice {
  id: string;
  label: string;
  /** False for a first-party channel whose plugin onboarding installs first. */
  installed: boolean;
  /** The JSON Schema of `channels.<id>` (installed plugins only). */
  configSchema?: Record<string, unknown>;
}

/**
 * Channels of the installed, active plugins (as `config` enables them), then the first-party
 * channels that are not installed but can be, from the checkout this core runs from.
 */
export async function listChannelChoices(paths: OpenClawPaths, config: unknown, cwd = process.cwd()): Promise<ChannelChoice[]> {
  const set = await resolvePlugins({ paths, config, cwd });
  const choices: ChannelChoice[] = [];
  for (const plugin of set.plugins.filter((p) => p.active)) {
    for (const id of plugin.manifest.channels) {
      const label = FIRST_PARTY_CHANNELS.find((c) => c.id === id)?.label ?? id;
      choices.push({ id, label, installed: true, configSchema: plugin.manifest.configSchema });
    }
  }
  const root = coreCheckoutRoot();
  for (const channel of FIRST_PARTY_CHANNELS) {
    if (choices.some((c) => c.id === channel.id)) continue;
    if (!existsSync(path.join(root, channel.folder, "package.json"))) continue;
    choices.push({ id: channel.id, label: channel.label, installed: false });
  }
  return choices;
}

/** A key of `channels.<id>` that holds a credential, as the plugin's config reference names it. */
export interface CredentialField {
  key: string;
  /** The schema's description, shown as the question. */
  description: string;
  /** The variable the plugin reads for the default account when the key is unset. */
  env?: string;
  /** Asked without echo and stored in a 0600 file (via `fileKey`) or the 0600 config. */
  secret: boolean;
  /** A sibling key that takes a file holding this secret instead ("File holding …"). */
  fileKey?: string;
}

const ENV_IN_DESCRIPTION = /\(default account: ([A-Z][A-Z0-9_]*)\)/;

/**
 * The credential keys of a channel: the top-level string keys whose description names the
 * variable the plugin falls back to ("(default account: VAR)"), in schema order. A secret key
 * gets the sibling whose description reads "File holding … (instead of <key>)" as `fileKey`.
 */
export function credentialFields(configSchema: Record<string, unknown> | undefined): CredentialField[] {
  const properties = (configSchema?.properties ?? {}) as Record<string, { description?: string }>;
  const fields: CredentialField[] = [];
  for (const [key, prop] of Object.entries(properties)) {
    const description = prop?.description ?? "";
    const env = ENV_IN_DESCRIPTION.exec(description)?.[1];
    if (!env) continue;
    const secret = isSecretKey(key);
    const fileKey = secret
      ? Object.entries(properties).find(
          ([, p]) => /^File holding/.test(p?.description ?? "") && (p?.description ?? "").includes(`instead of ${key}`),
        )?.[0]
      : undefined;
    fields.push({ key, description, env, secret, ...(fileKey ? { fileKey } : {}) });
  }
  return fields;
}

/** An installed channel plugin, loaded as the gateway loads it. */
export async function loadChannelPlugin(
  paths: OpenClawPaths,
  config: unknown,
  channel: string,
  cwd = process.cwd(),
): Promise<ChannelPlugin<unknown>> {
  const plugins = await loadChannelPlugins(await resolvePlugins({ paths, config, cwd, cache: false }));
  const plugin = plugins.find((p) => p.id === channel);
  if (!plugin)
    throw new UserError(`No installed plugin provides channel "${channel}"; install it with \`openclaw plugins install ${channel}\`.`);
  return plugin as ChannelPlugin<unknown>;
}

/**
 * Checks the default account of `channels.<channel>` in the candidate `config` with the plugin's
 * `checkAccount` (one cheap call, e.g. asking who the bot is). Resolves with the identity, or
 * undefined when the plugin has no check. Throws a UserError naming the key and the fix.
 */
export async function checkChannelAccount(input: {
  paths: OpenClawPaths;
  config: Record<string, unknown>;
  channel: string;
  plugin: ChannelPlugin<unknown>;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}): Promise<string | undefined> {
  const { plugin, channel } = input;
  if (!plugin.checkAccount) return undefined;
  const result = validateConfig(input.config, createConfigRegistry([plugin.config]));
  if (!result.ok)
    throw new UserError(`The channel settings are not valid yet.\n${formatProblems(input.paths.configPath, result.problems)}`);
  const channelConfig = (result.config as { channels?: Record<string, Record<string, unknown>> }).channels?.[channel] ?? {};
  let account: unknown;
  try {
    account = plugin.resolveAccount({
      accountId: DEFAULT_ACCOUNT_ID,
      config: mergeAccountConfig(channelConfig, DEFAULT_ACCOUNT_ID) as never,
      channel: channelConfig as never,
      env: input.env,
    });
  } catch (err) {
    if (err instanceof AccountConfigError) throw new UserError(err.message);
    throw err;
  }
  try {
    const { identity } = await plugin.checkAccount(account, { signal: input.signal ?? AbortSignal.timeout(30_000) });
    return identity;
  } catch (err) {
    throw new UserError(err instanceof Error ? err.message : String(err));
  }
}
