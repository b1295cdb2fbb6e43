// Test harness: runs the real plugin (real grammY) against the fake Bot API from @openclaw/testkit.
import { createServer } from "node:net";
import {
  type AccountContext,
  type AccountStatus,
  type InboundMessage,
  mergeAccountConfig,
  type PluginLogger,
  type SendOptions,
} from "@openclaw/plugin-sdk";
import type { FakeTelegram } from "@openclaw/testkit";
import {
  createTelegramPlugin,
  resolveTelegramAccount,
  type TelegramAccount,
  type TelegramPluginOptions,
  telegramConfigSchema,
} from "../src/index.js";

/** A log that keeps every line (tests assert on warnings). */
export function memoryLog(): PluginLogger & { lines: { level: string; message: string }[] } {
  const lines: { level: string; message: string }[] = [];
  const at = (level: string) => (message: string) => void lines.push({ level, message });
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

/** Re-checks predicates whenever `notify` is called. */
export class Notifier {
  #checks = new Set<() => void>();

  notify(): void {
    for (const check of [...this.#checks]) check();
  }

  /** Resolves with the predicate's first truthy value; rejects after `timeoutMs`. */
  until<T>(predicate: () => T | undefined | null | false, timeoutMs = 5000, what = "condition"): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#checks.delete(check);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      const check = () => {
        const value = predicate();
        if (!value) return;
        clearTimeout(timer);
        this.#checks.delete(check);
        resolve(value);
      };
      this.#checks.add(check);
      check();
    });
  }
}

/** Fast tuning so tests never wait on production timeouts. */
export const FAST: TelegramPluginOptions = { pollTimeoutSeconds: 1, pollRetryBaseMs: 20, pollRetryMaxMs: 50, drainMs: 500 };

export interface RunningAccount {
  received: InboundMessage[];
  statuses: Partial<AccountStatus>[];
  log: ReturnType<typeof memoryLog>;
  cursor: Map<string, string>;
  notifier: Notifier;
  /** The promise `start` returned. */
  done: Promise<void>;
  /** Settles when `start` settles (never rejects): `{ error }` when it rejected. */
  settled: Promise<{ error?: unknown }>;
  /** Waits until `n` messages were received. */
  waitReceived(n: number, timeoutMs?: number): Promise<InboundMessage[]>;
  /** Aborts the account and waits for `start` to settle. */
  stop(): Promise<void>;
}

export interface RunOptions {
  /** Extra keys of `channels.telegram` (apiRoot and botToken point at the fake). */
  config?: Record<string, unknown>;
  plugin?: TelegramPluginOptions;
  cursor?: Map<string, string>;
  /** Replaces the default receive (which records and resolves at once); called after recording. */
  onReceive?(message: InboundMessage): Promise<void> | void;
  accountId?: string;
}

/**
 * Resolves one account as core does: validates `channels.telegram` with the plugin's schema
 * (throwing on a schema error), merges the account, then calls `resolveTelegramAccount`.
 */
export function resolveFromConfig(
  channelConfig: Record<string, unknown>,
  accountId = "default",
  env: NodeJS.ProcessEnv = {},
): TelegramAccount {
  const channel = telegramConfigSchema.parse(channelConfig);
  return resolveTelegramAccount({ accountId, config: mergeAccountConfig(channel, accountId) as never, channel, env });
}

/** Connects the Telegram plugin's session for one account against `fake`. */
export function runAccount(fake: FakeTelegram, options: RunOptions = {}): RunningAccount {
  const plugin = createTelegramPlugin({ ...FAST, ...options.plugin });
  const channelConfig = { apiRoot: fake.apiRoot, botToken: fake.token, ...options.config };
  const accountId = options.accountId ?? "default";
  const account = resolveFromConfig(channelConfig, accountId);
  const controller = new AbortController();
  const notifier = new Notifier();
  const received: InboundMessage[] = [];
  const statuses: Partial<AccountStatus>[] = [];
  const log = memoryLog();
  const cursor = options.cursor ?? new Map<string, string>();
  const ctx: AccountContext<TelegramAccount> = {
    accountId,
    account,
    signal: controller.signal,
    receive: async (message) => {
      received.push(message);
      notifier.notify();
      await options.onReceive?.(message);
    },
    status: (update) => {
      statuses.push(update);
      notifier.notify();
    },
    log,
    credentialsDir: "/nonexistent",
    cursor: {
      get: (key) => cursor.get(key),
      set: (key, value) => {
        cursor.set(key, value);
        notifier.notify();
      },
    },
  };
  const done = plugin.connect(ctx).then((session) => session.closed);
  const settled = done.then(
    () => ({}),
    (error: unknown) => ({ error }),
  );
  void settled.then(() => notifier.notify());
  return {
    received,
    statuses,
    log,
    cursor,
    notifier,
    done,
    settled,
    waitReceived: (n, timeoutMs = 5000) =>
      notifier.until(() => (received.length >= n ? received : undefined), timeoutMs, `${n} received messages`),
    async stop() {
      controller.abort();
      await settled;
    },
  };
}

/** A deferred promise. */
export function deferred<T = void>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Send options for outbound calls. */
export function sendOptions(overrides: Partial<SendOptions> = {}): SendOptions {
  return { signal: new AbortController().signal, priority: "final", format: "markdown", idempotencyKey: "k1", ...overrides };
}

/** Ann's DM (user 42) and a group with Bob, for `sendUserMessage`. */
export const ann = { chat: { id: 42, type: "private" as const }, from: { id: 42, first_name: "Ann", username: "ann_user" } };
export const group = {
  chat: { id: -100123, type: "supergroup" as const, title: "Team" },
  from: { id: 7, first_name: "Bob", username: "bob" },
};
