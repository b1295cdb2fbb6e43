import { mergeAccountConfig, type ChannelPlugin, type InboundMessage } from "@openclaw/plugin-sdk";
import { AccountRunner } from "./account-runner.js";
import type { BackoffPolicy } from "./backoff.js";
import type { CursorStore } from "./cursor-store.js";
import type { HttpRouteTable } from "./http-routes.js";
import type { AccountDirectory, AccountHandle, ChannelStatusReport, GatewayLogger } from "./types.js";

export interface AccountManagerOptions {
  /** Loaded channel plugins by channel id. */
  plugins: ReadonlyMap<string, ChannelPlugin<unknown>>;
  /** The validated `channels` object (defaults applied). */
  channels: Record<string, unknown>;
  env: NodeJS.ProcessEnv;
  stateDir: string;
  cursors: CursorStore;
  /** Where inbound messages go (the gateway's gate in front of the pipeline). */
  receive(message: InboundMessage, handle: AccountHandle): Promise<void>;
  log: GatewayLogger;
  /** Plugin HTTP routes on the gateway's listener (`AccountContext.http`); none when unset. */
  routes?: HttpRouteTable;
  backoff?: Partial<BackoffPolicy>;
  now?: () => number;
  /** Called whenever an account's report may have changed, or accounts were added or removed. */
  onChange?: () => void;
}

function asObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

interface DesiredAccount {
  channel: string;
  accountId: string;
  plugin: ChannelPlugin<unknown>;
  channelConfig: Record<string, unknown>;
  merged: Record<string, unknown>;
  /** Equal fingerprints: the account runs as configured (no restart on reload). */
  fingerprint: string;
}

/**
 * Every account of every configured channel: started once by `startAll`, restarted with backoff
 * when it crashes, reported by `status`, and stopped on shutdown after in-flight deliveries finished.
 */
export class AccountManager implements AccountDirectory {
  private readonly runners: AccountRunner[] = [];
  private readonly labels = new Map<string, string>();
  private readonly fingerprints = new Map<AccountRunner, string>();
  private channels: Record<string, unknown>;

  constructor(private readonly options: AccountManagerOptions) {
    this.channels = options.channels;
  }

  /**
   * Starts every enabled account of every configured channel with a plugin. A channel or account
   * with `enabled: false` is listed as stopped. A failing account never stops the others.
   */
  startAll(): void {
    for (const [channel, value] of Object.entries(this.channels)) {
      for (const account of this.desiredAccounts(channel, value)) this.launch(account);
    }
  }

  /**
   * Applies a reloaded `channels` object: every account whose merged config changed, that was
   * removed or that is new is restarted (stopped, waited for, started again) one at a time, so
   * the other accounts keep running. Returns the `<channel>:<account>` ids restarted, stopped or started.
   */
  async reconcile(channels: Record<string, unknown>): Promise<string[]> {
    this.channels = channels;
    const desired = new Map<string, DesiredAccount>();
    for (const [channel, value] of Object.entries(channels)) {
      for (const account of this.desiredAccounts(channel, value)) desired.set(`${account.channel}:${account.accountId}`, account);
    }
    const touched: string[] = [];
    for (const runner of [...this.runners]) {
      const id = `${runner.channel}:${runner.accountId}`;
      const wanted = desired.get(id);
      if (wanted && wanted.fingerprint === this.fingerprints.get(runner)) {
        desired.delete(id);
        continue;
      }
      runner.stop();
      await runner.stopped();
      this.runners.splice(this.runners.indexOf(runner), 1);
      this.fingerprints.delete(runner);
      if (wanted) {
        this.launch(wanted);
        desired.delete(id);
      }
      touched.push(id);
    }
    for (const [id, account] of desired) {
      this.launch(account);
      touched.push(id);
    }
    if (touched.length > 0) this.options.onChange?.();
    return touched;
  }

  /** The accounts `value` (one channel's config) asks for, with their merged config. */
  private desiredAccounts(channel: string, value: unknown): DesiredAccount[] {
    const plugin = this.options.plugins.get(channel);
    if (!plugin || value === undefined) return [];
    const channelConfig = asObject(value);
    this.labels.set(channel, plugin.meta?.label ?? channel);
    let accountIds: string[];
    try {
      accountIds = plugin.listAccounts(channelConfig, this.options.env);
    } catch (err) {
      this.options.log.error(`channel ${channel}: cannot list its accounts: ${(err as Error).message}`);
      return [];
    }
    return accountIds.map((accountId) => {
      const merged = mergeAccountConfig(channelConfig, accountId);
      return { channel, accountId, plugin, channelConfig, merged, fingerprint: JSON.stringify([channelConfig.enabled, merged]) };
    });
  }

  /** Creates the account's runner and starts it, or lists it as stopped when it is disabled. */
  private launch({ channel, accountId, plugin, channelConfig, merged, fingerprint }: DesiredAccount): void {
    const { options } = this;
    const runner = new AccountRunner({
      channel,
      accountId,
      plugin,
      config: merged,
      channelConfig,
      env: options.env,
      stateDir: options.stateDir,
      cursor: options.cursors.forAccount(channel, accountId),
      receive: options.receive,
      log: options.log,
      ...(options.routes ? { routes: options.routes } : {}),
      ...(options.backoff ? { backoff: options.backoff } : {}),
      ...(options.now ? { now: options.now } : {}),
      ...(options.onChange ? { onChange: options.onChange } : {}),
    });
    this.runners.push(runner);
    this.fingerprints.set(runner, fingerprint);
    if (channelConfig.enabled === false) runner.markStopped(`disabled (channels.${channel}.enabled is false)`);
    else if (merged.enabled === false) runner.markStopped(`disabled (channels.${channel}.accounts.${accountId}.enabled is false)`);
    else runner.start();
  }

  get(channel: string, accountId: string): AccountHandle | undefined {
    return this.runners.find((r) => r.channel === channel && r.accountId === accountId)?.handle;
  }

  list(): AccountHandle[] {
    return this.runners.flatMap((r) => (r.handle ? [r.handle] : []));
  }

  /** Per channel, each account's state, identity, last error, restarts and traffic times. */
  status(): ChannelStatusReport[] {
    const byChannel = new Map<string, ChannelStatusReport>();
    for (const runner of this.runners) {
      let entry = byChannel.get(runner.channel);
      if (!entry) {
        entry = { channel: runner.channel, label: this.labels.get(runner.channel) ?? runner.channel, accounts: [] };
        byChannel.set(runner.channel, entry);
      }
      entry.accounts.push({ ...runner.report });
    }
    return [...byChannel.values()];
  }

  /**
   * Fires every account's signal (their sessions close) and waits, at most `timeoutMs`, for each
   * loop to end. Call after the deliveries in flight finished: sends stop working then.
   */
  async stopAll(timeoutMs: number): Promise<{ timedOut: string[] }> {
    for (const runner of this.runners) runner.stop();
    const pending = new Set(this.runners);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
      timer.unref?.();
    });
    await Promise.race([Promise.all(this.runners.map((r) => r.stopped().then(() => pending.delete(r)))), deadline]);
    clearTimeout(timer);
    return { timedOut: [...pending].map((r) => `${r.channel}:${r.accountId}`) };
  }
}
