import { isPlainObject } from "../migrations/object-path.js";

/** The account id used for a channel's root credentials. */
export const DEFAULT_ACCOUNT_ID = "default";

/**
 * The effective config of one account: the channel root (without `accounts`/`defaultAccount`)
 * overlaid by `accounts.<id>`. Keys the account sets win; `streaming` objects merge deeply so an
 * account can change one streaming knob and inherit the rest.
 */
export function mergeAccountConfig(channelConfig: Record<string, unknown>, accountId: string): Record<string, unknown> {
  const { accounts, defaultAccount: _default, ...root } = channelConfig;
  const own = isPlainObject(accounts) && isPlainObject(accounts[accountId]) ? (accounts[accountId] as Record<string, unknown>) : {};
  const merged: Record<string, unknown> = { ...root, ...own };
  if (isPlainObject(root.streaming) || isPlainObject(own.streaming)) {
    merged.streaming = deepMerge(root.streaming, own.streaming);
  }
  return merged;
}

function deepMerge(base: unknown, over: unknown): unknown {
  if (over === undefined) return base;
  if (!isPlainObject(base) || !isPlainObject(over)) return over;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = deepMerge(base[k], v);
  return out;
}

/**
 * Account ids of a channel: every key of `accounts`, plus `"default"` when the root itself
 * carries credentials (`hasRootCredentials`) or there are no named accounts at all.
 */
export function listAccountIds(channelConfig: Record<string, unknown>, hasRootCredentials: boolean): string[] {
  const named = isPlainObject(channelConfig.accounts) ? Object.keys(channelConfig.accounts) : [];
  const ids = hasRootCredentials || named.length === 0 ? [DEFAULT_ACCOUNT_ID, ...named] : named;
  return [...new Set(ids)];
}
