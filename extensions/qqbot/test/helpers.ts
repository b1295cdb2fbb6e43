// Runs a QQ Bot account against the fake QQ Bot platform the way the gateway hosts it: schema
// validation, resolveAccount, connect with a recording context whose cursor outlives the session.
import { type AccountSession, type InboundMessage, mergeAccountConfig } from "@openclaw/plugin-sdk";
import { createTestAccountContext, type TestAccountContext } from "@openclaw/plugin-sdk/testing";
import type { FakeQQBot } from "@openclaw/testkit";
import { createQQBotPlugin, type QQBotAccount } from "../src/index.js";

/** A stored-state stand-in for the gateway's cursor table: survives a restart of the account. */
export type CursorStore = Map<string, string>;

/** Fast reconnects for tests (production: 1 s up to 60 s). */
export const testPlugin = createQQBotPlugin({ reconnectDelaysMs: [50, 100, 200], rateLimitedWaitMs: 200 });

/** `channels.qqbot` pointing at the fake. */
export function configFor(fake: FakeQQBot, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { appId: fake.appId, clientSecret: fake.clientSecret, apiBase: fake.apiBase, tokenUrl: fake.tokenUrl, ...extra };
}

/** Resolves the default account as core does. */
export function resolveAccount(channel: Record<string, unknown>): QQBotAccount {
  const parsed = testPlugin.config.schema.parse(channel);
  return testPlugin.resolveAccount({
    accountId: "default",
    config: mergeAccountConfig(parsed, "default") as never,
    channel: parsed,
    env: {},
  });
}

/** A running account with its recording context. */
export interface RunningAccount {
  ctx: TestAccountContext<QQBotAccount>;
  session: AccountSession;
  /** Waits until the host received a message matching `predicate`. */
  waitForInbound(predicate: (m: InboundMessage) => boolean, timeoutMs?: number): Promise<InboundMessage>;
  stop(): Promise<void>;
}

/**
 * Connects the default account; `onReceive` plays the host (it runs before the message counts as
 * recorded). The cursor lives in `cursors`, so a second `startAccount` with it resumes.
 */
export async function startAccount(
  fake: FakeQQBot,
  options: { cursors?: CursorStore; config?: Record<string, unknown>; onReceive?: (m: InboundMessage) => Promise<void> | void } = {},
): Promise<RunningAccount> {
  const cursors = options.cursors ?? new Map<string, string>();
  const account = resolveAccount(configFor(fake, options.config));
  const listeners = new Set<() => void>();
  const base = createTestAccountContext(account, {
    onReceive: async (m) => {
      await options.onReceive?.(m);
      // The context records the message after this resolves; look once it has.
      setImmediate(() => {
        for (const l of [...listeners]) l();
      });
    },
  });
  const ctx: TestAccountContext<QQBotAccount> = {
    ...base,
    cursor: { get: (k) => cursors.get(k), set: (k, v) => void cursors.set(k, v) },
  };
  const session = await testPlugin.connect(ctx);
  return {
    ctx,
    session,
    waitForInbound(predicate, timeoutMs = 5000) {
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

/** A reply of numbered sentences, so any lost or repeated text is easy to see. */
export function longReply(chars: number): string {
  let text = "";
  for (let i = 0; text.length < chars; i++) text += `Sentence number ${i} is here.${i % 7 === 6 ? "\n\n" : " "}`;
  return text.slice(0, chars).trimEnd();
}

/** An openid as the platform spells them (32 upper-case hex characters). */
export function openid(n: number): string {
  return n.toString(16).toUpperCase().padStart(32, "A");
}
