// Runs WhatsApp accounts and logins against the fake WhatsApp of @openclaw/testkit the way the
// host does: schema validation, resolveAccount, connect / login with a recording context.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type InboundMessage, mergeAccountConfig, type SendOptions } from "@openclaw/plugin-sdk";
import { createTestAccountContext, type TestAccountContext } from "@openclaw/plugin-sdk/testing";
import { createFakeWhatsApp, type FakeWhatsApp } from "@openclaw/testkit/whatsapp";
import type { ChannelLoginContext } from "@openclaw/plugin-sdk";
import {
  type Clock,
  createWhatsAppPlugin,
  type MakeSocket,
  type WhatsAppAccount,
  type WhatsAppPlugin,
  type WhatsAppPluginOptions,
  type WhatsAppSession,
} from "../src/index.js";

/** A clock that moves only when the test says so; `timers` shows what is scheduled. */
export class ManualClock implements Clock {
  #now = 1_000_000;
  #next = 1;
  readonly timers = new Map<number, { at: number; ms: number; callback: () => void }>();
  /** Every delay ever scheduled, in order. */
  readonly scheduled: number[] = [];
  randomValue = 0.5;
  now(): number {
    return this.#now;
  }
  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.#next++;
    this.timers.set(id, { at: this.#now + ms, ms, callback });
    this.scheduled.push(ms);
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }
  random(): number {
    return this.randomValue;
  }
  /** Moves time forward, firing every timer that falls due, in order. */
  advance(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      const due = [...this.timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (due === undefined) break;
      this.timers.delete(due[0]);
      this.#now = Math.max(this.#now, due[1].at);
      due[1].callback();
    }
    this.#now = end;
  }
}

/** The fake, and a plugin wired to it (fast timings unless overridden). */
export function setup(options: WhatsAppPluginOptions = {}, fakeOptions: Parameters<typeof createFakeWhatsApp>[0] = {}) {
  const fake: FakeWhatsApp = createFakeWhatsApp(fakeOptions);
  const plugin: WhatsAppPlugin = createWhatsAppPlugin({
    makeSocket: fake.makeSocket as unknown as MakeSocket,
    downloadMedia: (message) => fake.downloadMedia(message as never),
    reconnect: { initialMs: 10, maxMs: 50, factor: 2, jitter: 0.2, maxAttempts: 5 },
    linkPollMs: 20,
    reconnectWaitMs: 2000,
    rateLimitedWaitMs: 50,
    ...options,
  });
  return { fake, plugin };
}

/** Resolves an account from a `channels.whatsapp` config, as core does. */
export function resolveAccount(plugin: WhatsAppPlugin, channel: Record<string, unknown> = {}, accountId = "default"): WhatsAppAccount {
  const parsed = plugin.config.schema.parse(channel);
  return plugin.resolveAccount({ accountId, config: mergeAccountConfig(parsed, accountId) as never, channel: parsed, env: {} });
}

/** A fresh credentials folder. */
export function credentialsDir(): string {
  return mkdtempSync(path.join(tmpdir(), "openclaw-wa-creds-"));
}

/** A login context recording what the host would show. */
export function loginContext(plugin: WhatsAppPlugin, dir: string, method: ChannelLoginContext<WhatsAppAccount>["method"] = { kind: "qr" }) {
  const controller = new AbortController();
  const qrs: string[] = [];
  const codes: string[] = [];
  const logs: string[] = [];
  const line = (level: string) => (message: string) => void logs.push(`${level} ${message}`);
  const ctx: ChannelLoginContext<WhatsAppAccount> = {
    accountId: "default",
    account: resolveAccount(plugin),
    credentialsDir: dir,
    log: { debug: line("debug"), info: line("info"), warn: line("warn"), error: line("error") },
    signal: controller.signal,
    method,
    showQr: (data) => void qrs.push(data),
    showPairingCode: (code) => void codes.push(code),
  };
  return { ctx, qrs, codes, logs, cancel: () => controller.abort(new Error("cancelled")) };
}

/** Links a fresh credentials folder through the plugin's login and the fake phone's QR scan. */
export async function linkedDir(fake: FakeWhatsApp, plugin: WhatsAppPlugin, dir = credentialsDir()): Promise<string> {
  const login = loginContext(plugin, dir);
  const done = plugin.login(login.ctx);
  await fake.phone.waitFor(() => fake.phone.currentQr !== undefined);
  fake.phone.scanQr();
  await done;
  return dir;
}

/** A running account with its recording context. */
export interface RunningAccount {
  ctx: TestAccountContext<WhatsAppAccount>;
  session: WhatsAppSession;
  waitForInbound(predicate: (m: InboundMessage) => boolean, timeoutMs?: number): Promise<InboundMessage>;
  /** The latest status state. */
  state(): string | undefined;
  stop(): Promise<void>;
}

/** Connects an account whose login lives in `dir`. */
export async function startAccount(plugin: WhatsAppPlugin, dir: string, channel: Record<string, unknown> = {}): Promise<RunningAccount> {
  const account = resolveAccount(plugin, channel);
  const listeners = new Set<() => void>();
  const base = createTestAccountContext(account, {
    onReceive: () => {
      setImmediate(() => {
        for (const l of [...listeners]) l();
      });
    },
  });
  const ctx: TestAccountContext<WhatsAppAccount> = { ...base, credentialsDir: dir };
  const session = (await plugin.connect(ctx)) as WhatsAppSession;
  return {
    ctx,
    session,
    state: () => [...ctx.statuses].reverse().find((s) => s.state !== undefined)?.state,
    waitForInbound(predicate, timeoutMs = 3000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const found = ctx.received.find(predicate);
          if (found === undefined) return;
          listeners.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`timed out waiting for an inbound message (received: ${ctx.received.map((m) => m.text).join(" | ")})`));
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
    async stop() {
      base.stop("test finished");
      await session.closed;
    },
  };
}

/** Send options for direct outbound calls. */
export function sendOptions(extra: Partial<{ format: "markdown" | "plain"; key: string }> = {}): SendOptions {
  return {
    signal: new AbortController().signal,
    priority: "final" as const,
    format: extra.format ?? ("markdown" as const),
    idempotencyKey: extra.key ?? `k-${Math.random()}`,
  };
}

/** Resolves when `predicate` holds, checking every few ms (bounded). */
export async function until(predicate: () => boolean, timeoutMs = 3000): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error("condition not met in time");
    await new Promise((r) => setImmediate(r));
  }
}
