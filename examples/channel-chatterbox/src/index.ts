// src/index.ts: the plugin, the package's `entry`.
import { AccountConfigError, DEFAULT_ACCOUNT_ID, defineChannelPlugin, listAccountIds, SPECIFICATION_VERSION } from "@openclaw/plugin-sdk";
import type { ChatterboxAccount } from "./api.js";
import chatterboxConfig from "./config.js";
import { connectChatterbox } from "./session.js";

/** The environment variable holding the default account's token. */
const TOKEN_ENV = "CHATTERBOX_TOKEN";

/** `channels.chatterbox.<key>` for the default account, `channels.chatterbox.accounts.<id>.<key>` for the others. */
function keyPath(accountId: string, key: string): string {
  return accountId === DEFAULT_ACCOUNT_ID ? `channels.chatterbox.${key}` : `channels.chatterbox.accounts.${accountId}.${key}`;
}

export default defineChannelPlugin({
  specificationVersion: SPECIFICATION_VERSION,
  id: "chatterbox",
  meta: {
    label: "Chatterbox",
    docsPath: "docs/writing-a-channel-plugin.md",
    blurb: "Chatterbox bots over its HTTP API, with live previews edited in place (an example plugin).",
  },
  config: chatterboxConfig,

  listAccounts(channelConfig, env) {
    const rootHasToken = typeof channelConfig.apiToken === "string" || env[TOKEN_ENV] !== undefined;
    return listAccountIds(channelConfig, rootHasToken);
  },

  resolveAccount({ accountId, config, channel, env }): ChatterboxAccount {
    // `config` is this account's validated config, the root's keys merged in. A token is the one
    // exception: a named account never uses the root's token, which belongs to the default account.
    const token = accountId === DEFAULT_ACCOUNT_ID ? (config.apiToken ?? env[TOKEN_ENV]) : channel.accounts?.[accountId]?.apiToken;
    const tokenPath = keyPath(accountId, "apiToken");
    if (token === undefined || token === "") {
      const fallback = accountId === DEFAULT_ACCOUNT_ID ? ` (or set the ${TOKEN_ENV} environment variable)` : "";
      throw new AccountConfigError(`${tokenPath} is not set: add the bot token from the Chatterbox console${fallback}.`, tokenPath);
    }
    const baseUrl = (config.baseUrl ?? "https://api.chatterbox.example").replace(/\/+$/, "");
    return { token, baseUrl, tokenPath };
  },

  connect: connectChatterbox,
});
