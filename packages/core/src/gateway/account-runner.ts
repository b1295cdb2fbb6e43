import { mkdirSync } from "node:fs";
import {
  AccountConfigError,
  type AccountContext,
  type AccountSession,
  type AccountStatus,
  type ChannelPlugin,
  type InboundMessage,
  type PluginLogger,
  type StreamingConfig,
} from "@openclaw/plugin-sdk";
import { accountCredentialsDir, loginCommandFor } from "./account-login.js";
import { Backoff, sleep, type BackoffPolicy } from "./backoff.js";
import type { AccountCursor } from "./cursor-store.js";
import type { HttpRouteTable } from "./http-routes.js";
import { trackOutbound } from "./outbound-tracking.js";
import { sessionOutbound } from "./session-outbound.js";
import type { AccountHandle, AccountStatusReport, GatewayLogger } from "./types.js";

export interface AccountRunnerOptions {
  channel: string;
  accountId: string;
  plugin: ChannelPlugin<unknown>;
  /** The validated channel config merged for this account. */
  config: Record<string, unknown>;
  /** The validated `channels.<id>` object handed to `plugin.resolveAccount`. */
  channelConfig: Record<string, unknown>;
  env: NodeJS.ProcessEnv;
  stateDir: string;
  cursor: AccountCursor;
  /** Hands an inbound message to the gateway (which may refuse it while stopping). */
  receive(message: InboundMessage, handle: AccountHandle): Promise<void>;
  log: GatewayLogger;
  /** Plugin HTTP routes on the gateway's listener; `ctx.http` is unset without it. */
  routes?: HttpRouteTable;
  backoff?: Partial<BackoffPolicy>;
  now?: () => number;
  /** Called after the account's report may have changed (state, detail, identity, ...). */
  onChange?: () => void;
}

function errorText(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}

function pluginLogger(prefix: string, log: GatewayLogger): PluginLogger {
  const line = (message: string, data?: Record<string, unknown>) =>
    `${prefix} ${message}${data && Object.keys(data).length > 0 ? ` ${JSON.stringify(data)}` : ""}`;
  return {
    // Debug lines are dropped: the gateway log keeps one line per event that matters.
    debug: () => undefined,
    info: (m, d) => log.info(line(m, d)),
    warn: (m, d) => log.warn(line(m, d)),
    error: (m, d) => log.error(line(m, d)),
  };
}

/**
 * Runs one account: resolves its config, then keeps a session connected (`plugin.connect`) until
 * stopped, connecting again with exponential backoff when `connect` rejects or the session's
 * `closed` settles early. An `AccountConfigError` (from `resolveAccount`, `connect` or `closed`)
 * marks the account `error` (or leaves it `needs-login` when the plugin reported that) and is not
 * retried: the config is read once at start, so the fix takes
 * effect when the gateway is restarted. Sends made while the account reconnects wait for the
 * next session (see `sessionOutbound`).
 */
export class AccountRunner {
  readonly channel: string;
  readonly accountId: string;
  readonly report: AccountStatusReport;
  /** Set once the account's config resolved; its sends wait for a connected session. */
  handle: AccountHandle | undefined;
  private readonly controller = new AbortController();
  private readonly now: () => number;
  private readonly tag: string;
  private loop: Promise<void> = Promise.resolve();
  private session: AccountSession | undefined;
  private readonly waiters = new Set<(session: AccountSession) => void>();

  constructor(private readonly options: AccountRunnerOptions) {
    this.channel = options.channel;
    this.accountId = options.accountId;
    this.now = options.now ?? Date.now;
    this.tag = `${options.channel}:${options.accountId}`;
    this.report = { channel: options.channel, accountId: options.accountId, state: "starting", restarts: 0 };
    const accounts = options.channelConfig.accounts as Record<string, { name?: unknown }> | undefined;
    const name = accounts?.[options.accountId]?.name ?? (options.accountId === "default" ? options.channelConfig.name : undefined);
    if (typeof name === "string" && name) this.report.name = name;
  }

  /** Starts the account in the background; `stopped()` settles when its loop has ended. */
  start(): void {
    this.loop = this.run().catch((err) => {
      this.setError(`unexpected failure: ${errorText(err)}`);
    });
  }

  /** Marks the account stopped without running it (e.g. `enabled: false`). */
  markStopped(detail: string): void {
    this.report.state = "stopped";
    this.report.detail = detail;
    this.options.onChange?.();
  }

  /** Fires the account's signal: its session closes (call after deliveries in flight finished). */
  stop(): void {
    this.controller.abort(new Error("the gateway is stopping"));
  }

  /** Resolves when the account's loop has ended (after `stop`). */
  stopped(): Promise<void> {
    return this.loop;
  }

  private setError(message: string): void {
    this.report.state = "error";
    this.report.detail = message;
    this.report.lastError = message;
    this.options.log.error(`account ${this.tag} cannot run: ${message}`);
    this.options.onChange?.();
  }

  private readonly sessions = {
    current: () => this.session,
    next: (signal: AbortSignal) =>
      new Promise<AccountSession>((resolve, reject) => {
        const stopped = AbortSignal.any([signal, this.controller.signal]);
        if (stopped.aborted) return reject(stopped.reason);
        const done = (session: AccountSession) => {
          stopped.removeEventListener("abort", abort);
          resolve(session);
        };
        const abort = () => {
          this.waiters.delete(done);
          reject(stopped.reason);
        };
        this.waiters.add(done);
        stopped.addEventListener("abort", abort, { once: true });
      }),
  };

  /** The account's handle: exists from the start; its sends wait for a connected session. */
  private makeHandle(log: PluginLogger, account: unknown): AccountHandle {
    const plugin = this.options.plugin;
    const base = plugin.config.capabilities;
    return {
      channel: this.channel,
      accountId: this.accountId,
      plugin,
      account,
      config: this.options.config,
      outbound: trackOutbound(sessionOutbound(base, this.sessions), () => (this.report.lastOutboundAt = this.now())),
      capabilitiesFor: (chat) => ({ ...base, ...(this.session?.capabilitiesFor?.(chat) ?? {}) }),
      streamingFor: (chat) => this.session?.streamingFor?.(chat) ?? (this.options.config.streaming as StreamingConfig | undefined),
      log,
      signal: this.controller.signal,
    };
  }

  private connected(session: AccountSession): void {
    this.session = session;
    for (const wake of [...this.waiters]) wake(session);
    this.waiters.clear();
  }

  private async run(): Promise<void> {
    const options = this.options;
    const plugin = options.plugin;
    const signal = this.controller.signal;
    const log = pluginLogger(`[${this.tag}]`, options.log);
    let account: unknown;
    try {
      account = plugin.resolveAccount({
        accountId: this.accountId,
        config: options.config,
        channel: options.channelConfig,
        env: options.env,
      });
    } catch (err) {
      this.setError(errorText(err));
      return;
    }
    const handle = this.makeHandle(log, account);
    this.handle = handle;
    const credentialsDir = accountCredentialsDir(options.stateDir, this.channel, this.accountId);
    const report = this.report;
    const http = options.routes?.scope(this.tag);
    const ctx: AccountContext<unknown> = {
      accountId: this.accountId,
      account,
      signal,
      receive: async (message) => {
        report.lastInboundAt = this.now();
        await options.receive(message, handle);
      },
      status: (update) => this.applyStatus(update),
      log,
      get credentialsDir() {
        mkdirSync(credentialsDir, { recursive: true, mode: 0o700 });
        return credentialsDir;
      },
      cursor: options.cursor,
      ...(http ? { http } : {}),
    };

    const backoff = new Backoff(options.backoff);
    while (!signal.aborted) {
      const startedAt = this.now();
      report.startedAt = startedAt;
      if (report.state !== "reconnecting") report.state = "starting";
      if (report.restarts === 0) options.log.info(`account ${this.tag} starting`);
      else options.log.info(`account ${this.tag} restarted (restart #${report.restarts})`);
      options.onChange?.();
      let failure: unknown;
      try {
        const session = await plugin.connect(ctx);
        this.connected(session);
        await session.closed;
        if (signal.aborted) break;
        failure = new Error("the session closed before the account was asked to stop");
      } catch (err) {
        if (signal.aborted) break;
        failure = err;
      } finally {
        this.session = undefined;
        // A session's routes go with it; the next session registers its own.
        http?.releaseAll();
      }
      if (failure instanceof AccountConfigError) {
        // An account waiting to be linked stays so: its plugin gave up until `channels login`.
        if (this.waitsForLogin()) report.lastError = errorText(failure);
        else this.setError(errorText(failure));
        return;
      }
      const delay = backoff.next(this.now() - startedAt);
      const message = errorText(failure);
      report.restarts += 1;
      report.state = "reconnecting";
      report.lastError = message;
      report.detail = `${message} (restarting in ${formatDelay(delay)})`;
      options.log.warn(`account ${this.tag} crashed: ${message}; restarting in ${formatDelay(delay)}`);
      options.onChange?.();
      await sleep(delay, signal);
    }
    report.state = "stopped";
    delete report.detail;
    options.log.info(`account ${this.tag} stopped`);
    options.onChange?.();
  }

  /** The plugin reported that the account must be linked (`openclaw channels login`) first. */
  private waitsForLogin(): boolean {
    return this.report.state === "needs-login";
  }

  private applyStatus(update: Partial<AccountStatus>): void {
    if (this.controller.signal.aborted && update.state !== "stopped") return;
    const report = this.report;
    const wasConnected = report.state === "connected";
    if (update.state !== undefined) {
      report.state = update.state;
      if (!("detail" in update) && update.state !== "reconnecting" && update.state !== "error") delete report.detail;
      if (update.state === "needs-login") report.loginCommand = loginCommandFor(this.channel, this.accountId);
      else delete report.loginCommand;
    }
    if (update.detail !== undefined) report.detail = update.detail;
    if (update.identity !== undefined) report.identity = update.identity;
    if (update.details !== undefined) {
      if (Object.keys(update.details).length > 0) report.details = { ...update.details };
      else delete report.details;
    }
    if (update.lastInboundAt !== undefined) report.lastInboundAt = update.lastInboundAt;
    if (update.lastOutboundAt !== undefined) report.lastOutboundAt = update.lastOutboundAt;
    if (update.state === "error" && update.detail) report.lastError = update.detail;
    if (update.state === "connected" && !wasConnected) {
      this.options.log.info(`account ${this.tag} connected${report.identity ? ` as ${report.identity}` : ""}`);
    }
    this.options.onChange?.();
  }
}

function formatDelay(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s` : `${ms} ms`;
}
