import { mkdirSync } from "node:fs";
import path from "node:path";
import {
  AccountConfigError,
  type AccountContext,
  type AccountStatus,
  type ChannelPlugin,
  type InboundMessage,
  type PluginLogger,
} from "@openclaw/plugin-sdk";
import { Backoff, sleep, type BackoffPolicy } from "./backoff.js";
import type { AccountCursor } from "./cursor-store.js";
import { trackOutbound } from "./outbound-tracking.js";
import type { AccountHandle, AccountStatusReport, GatewayLogger } from "./types.js";

export interface AccountRunnerOptions {
  channel: string;
  accountId: string;
  plugin: ChannelPlugin<unknown>;
  /** The validated channel config merged for this account. */
  config: Record<string, unknown>;
  /** The raw `channels.<id>` object handed to `plugin.resolveAccount`. */
  channelConfig: Record<string, unknown>;
  env: NodeJS.ProcessEnv;
  stateDir: string;
  cursor: AccountCursor;
  /** Hands an inbound message to the gateway (which may refuse it while stopping). */
  receive(message: InboundMessage, handle: AccountHandle): Promise<void>;
  log: GatewayLogger;
  backoff?: Partial<BackoffPolicy>;
  now?: () => number;
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
 * Runs one account: resolves its config, builds its outbound side, then keeps `plugin.start`
 * running until stopped, restarting it with exponential backoff when it rejects or returns
 * early. An `AccountConfigError` (from `resolveAccount` or `start`) marks the account `error`
 * and is not retried: the config is read once at start, so the fix takes effect when the
 * gateway is restarted.
 */
export class AccountRunner {
  readonly channel: string;
  readonly accountId: string;
  readonly report: AccountStatusReport;
  /** Set once the account resolved and its outbound side exists. */
  handle: AccountHandle | undefined;
  private readonly monitor = new AbortController();
  private readonly outboundController = new AbortController();
  private readonly now: () => number;
  private readonly tag: string;
  private loop: Promise<void> = Promise.resolve();

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
  }

  /** Aborts the monitor (`ctx.signal`); outbound calls keep working until `closeOutbound`. */
  stopMonitor(): void {
    this.monitor.abort(new Error("the gateway is stopping"));
  }

  /** Aborts the signal outbound calls received (after the shutdown deadline). */
  closeOutbound(): void {
    this.outboundController.abort(new Error("the gateway stopped"));
  }

  /** Resolves when the account's loop has ended (after `stopMonitor`). */
  stopped(): Promise<void> {
    return this.loop;
  }

  private setError(message: string): void {
    this.report.state = "error";
    this.report.detail = message;
    this.report.lastError = message;
    this.options.log.error(`account ${this.tag} cannot run: ${message}`);
  }

  private async run(): Promise<void> {
    const options = this.options;
    const plugin = options.plugin;
    const signal = this.monitor.signal;
    const log = pluginLogger(`[${this.tag}]`, options.log);
    let account: unknown;
    try {
      account = plugin.resolveAccount(options.channelConfig, this.accountId, options.env);
      const outbound = trackOutbound(
        plugin.createOutbound(account, { accountId: this.accountId, log, signal: this.outboundController.signal }),
        () => (this.report.lastOutboundAt = this.now()),
      );
      this.handle = {
        channel: this.channel,
        accountId: this.accountId,
        plugin,
        account,
        config: options.config,
        outbound,
        log,
        signal: this.outboundController.signal,
      };
    } catch (err) {
      this.setError(errorText(err));
      return;
    }
    const handle = this.handle;
    const credentialsDir = path.join(options.stateDir, "credentials", this.channel, this.accountId);
    const report = this.report;
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
    };

    const backoff = new Backoff(options.backoff);
    while (!signal.aborted) {
      const startedAt = this.now();
      report.startedAt = startedAt;
      if (report.state !== "reconnecting") report.state = "starting";
      if (report.restarts === 0) options.log.info(`account ${this.tag} starting`);
      else options.log.info(`account ${this.tag} restarted (restart #${report.restarts})`);
      let failure: unknown;
      try {
        await plugin.start(ctx);
        if (signal.aborted) break;
        failure = new Error("start() returned before the account was asked to stop");
      } catch (err) {
        if (signal.aborted) break;
        failure = err;
      }
      if (failure instanceof AccountConfigError) {
        this.setError(errorText(failure));
        return;
      }
      const delay = backoff.next(this.now() - startedAt);
      const message = errorText(failure);
      report.restarts += 1;
      report.state = "reconnecting";
      report.lastError = message;
      report.detail = `${message} (restarting in ${formatDelay(delay)})`;
      options.log.warn(`account ${this.tag} crashed: ${message}; restarting in ${formatDelay(delay)}`);
      await sleep(delay, signal);
    }
    report.state = "stopped";
    delete report.detail;
    options.log.info(`account ${this.tag} stopped`);
  }

  private applyStatus(update: Partial<AccountStatus>): void {
    if (this.monitor.signal.aborted && update.state !== "stopped") return;
    const report = this.report;
    const wasConnected = report.state === "connected";
    if (update.state !== undefined) {
      report.state = update.state;
      if (!("detail" in update) && update.state !== "reconnecting" && update.state !== "error") delete report.detail;
    }
    if (update.detail !== undefined) report.detail = update.detail;
    if (update.identity !== undefined) report.identity = update.identity;
    if (update.lastInboundAt !== undefined) report.lastInboundAt = update.lastInboundAt;
    if (update.lastOutboundAt !== undefined) report.lastOutboundAt = update.lastOutboundAt;
    if (update.state === "error" && update.detail) report.lastError = update.detail;
    if (update.state === "connected" && !wasConnected) {
      this.options.log.info(`account ${this.tag} connected${report.identity ? ` as ${report.identity}` : ""}`);
    }
  }
}

function formatDelay(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s` : `${ms} ms`;
}
