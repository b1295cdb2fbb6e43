import { isPlainObject } from "@openclaw/plugin-sdk/config";

/** One place channel settings are written: a channel's root or one of its accounts. */
export interface ChannelScope {
  channelId: string;
  /** Dotted config path, `channels.<id>` or `channels.<id>.accounts.<account>`. */
  path: string;
  entry: Record<string, unknown>;
}

/** Every channel root of `config.channels`, each followed by its accounts (raw config; non-objects skipped). */
export function channelScopes(config: unknown): ChannelScope[] {
  const channels = isPlainObject(config) && isPlainObject(config.channels) ? config.channels : {};
  const out: ChannelScope[] = [];
  for (const [channelId, channel] of Object.entries(channels)) {
    if (!isPlainObject(channel)) continue;
    out.push({ channelId, path: `channels.${channelId}`, entry: channel });
    if (!isPlainObject(channel.accounts)) continue;
    for (const [id, account] of Object.entries(channel.accounts)) {
      if (isPlainObject(account)) out.push({ channelId, path: `channels.${channelId}.accounts.${id}`, entry: account });
    }
  }
  return out;
}
