/**
 * `@openclaw/plugin-sdk/testing`: small helpers for a plugin's own unit tests. For the full
 * contract check, run the conformance suite of `@openclaw/testkit` against your plugin.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AccountContext, AccountStatus, InboundMessage, PluginLogger } from "../channel/types.js";

/** An `AccountContext` that records what the plugin did, plus the controller of its signal. */
export interface TestAccountContext<Account> extends AccountContext<Account> {
  /** Every message the plugin handed to `receive`, in order. */
  readonly received: InboundMessage[];
  /** Every status update, merged in order; `statuses.at(-1)` is the latest. */
  readonly statuses: Partial<AccountStatus>[];
  /** Log lines as `"<level> <message>"`. */
  readonly logs: string[];
  /** Fires `signal` (the account must stop). */
  stop(reason?: string): void;
}

/**
 * Builds an account context for unit tests: `receive` records and resolves at once (or runs
 * `options.onReceive`, which may reject to simulate a host that cannot record), the cursor is
 * in memory, and `credentialsDir` is a fresh temporary folder.
 */
export function createTestAccountContext<Account>(
  account: Account,
  options: { accountId?: string; onReceive?: (message: InboundMessage) => Promise<void> | void } = {},
): TestAccountContext<Account> {
  const controller = new AbortController();
  const received: InboundMessage[] = [];
  const statuses: Partial<AccountStatus>[] = [];
  const logs: string[] = [];
  const cursor = new Map<string, string>();
  const line =
    (level: string) =>
    (message: string, data?: Record<string, unknown>): void => {
      logs.push(`${level} ${message}${data ? ` ${JSON.stringify(data)}` : ""}`);
    };
  const log: PluginLogger = { debug: line("debug"), info: line("info"), warn: line("warn"), error: line("error") };
  return {
    accountId: options.accountId ?? "default",
    account,
    signal: controller.signal,
    async receive(message) {
      await options.onReceive?.(message);
      received.push(message);
    },
    status: (update) => void statuses.push(update),
    log,
    credentialsDir: mkdtempSync(path.join(tmpdir(), "openclaw-plugin-test-")),
    cursor: { get: (key) => cursor.get(key), set: (key, value) => void cursor.set(key, value) },
    received,
    statuses,
    logs,
    stop: (reason) => controller.abort(new Error(reason ?? "stopped")),
  };
}
