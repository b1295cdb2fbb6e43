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
}

function asObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * Every account of every configured channel: started once by `startAll`, restarted with backoff
 * when it crashes, reported by `status`, and stopped on shutdown after in-flight deliveries finished.
 */
export class AccountManager implements AccountDirectory {
  private readonly runners: AccountRunner[] = [];
  private readonly labels = new Map<string, string>();

  constructor(private readonly options: AccountManagerOptions) {}

  /**
   * Starts every enabled account of every configured channel with a plugin. A channel or account
   * with `enabled: false` is listed as stopped. A failing account never stops the others.
   */
  startAll(): void {
    const { options } = this;
    for (const [channel, value] of Object.entries(options.channels)) {
      const plugin = options.plugins.get(channel);
      if (!plugin || value === undefined) continue;
      const channelConfig = asObject(value);
      this.labels.set(channel, plugin.meta?.label ?? channel);
      let accountIds: string[];
      try {
        accountIds = plugin.listAccounts(channelConfig, options.env);
      } catch (err) {
        options.log.error(`channel ${channel}: cannot list its accounts: ${(err as Error).message}`);
        continue;
      }
      for (const accountId of accountIds) {
        const merged = mergeAccountConfig(channelConfig, accountId);
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
        });
        this.runners.push(runner);
        if (channelConfig.enabled === false) runner.markStopped(`disabled (channels.${channel}.enabled is false)`);
        else if (merged.enabled === false) runner.markStopped(`disabled (channels.${channel}.accounts.${accountId}.enabled is false)`);
        else runner.start();
      }
    }
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
