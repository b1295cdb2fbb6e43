// A 4000-character reply in each delivery mode, driven by the delivery engine exactly as the
// gateway drives it, through the real session against the fake QQ Bot platform: it arrives whole,
// once, within the 5 passive replies of the user's message.
import {
  createDeliveryStrategy,
  type DeliveryOutcome,
  type DeliveryPlanKind,
  InMemoryDeliveryLedger,
  type ReplyEvent,
  sendBudgetFor,
} from "@openclaw/delivery";
import type { ChatRef, InboundMessage } from "@openclaw/plugin-sdk";
import { type FakeQQBot, startFakeQQBot } from "@openclaw/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { QQBOT_CAPABILITIES } from "../src/index.js";
import { longReply, openid, type RunningAccount, startAccount } from "./helpers.js";

let fake: FakeQQBot;
let account: RunningAccount;
beforeEach(async () => {
  fake = await startFakeQQBot({ heartbeatIntervalMs: 1000 });
  account = await startAccount(fake);
});
afterEach(async () => {
  await account.stop();
  await fake.close();
});

/** Plays a model writing `text` in 100-character deltas every 20 ms, then the final. */
async function write(strategy: { onEvent(e: ReplyEvent): void }, text: string): Promise<void> {
  strategy.onEvent({ type: "run_start" });
  for (let i = 0; i < text.length; i += 100) {
    strategy.onEvent({ type: "text_delta", text: text.slice(i, i + 100) });
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  strategy.onEvent({ type: "text_end" });
  strategy.onEvent({ type: "message_end" });
  strategy.onEvent({ type: "final", text, silent: false });
}

/** Delivers `text` as the reply to `inbound` the way the gateway does for `plan`. */
async function deliver(inbound: InboundMessage, plan: DeliveryPlanKind, text: string): Promise<DeliveryOutcome> {
  const chat: ChatRef = inbound.chat;
  const caps = { ...QQBOT_CAPABILITIES, ...account.session.capabilitiesFor!(chat) };
  const strategy = createDeliveryStrategy(plan, {
    outbound: account.session,
    budget: sendBudgetFor(caps),
    ledger: new InMemoryDeliveryLedger(),
    target: { chat },
    inReplyTo: inbound.messageId,
    chatKey: chat.id,
    replyKey: `reply:${inbound.messageId}`,
    channel: "qqbot",
    accountId: "default",
    textLimit: caps.textLimit,
    editLimit: caps.textLimit,
    minEditIntervalMs: caps.minEditIntervalMs,
    chunkMode: "length",
    ...(caps.nativeStream ? { nativeStream: caps.nativeStream } : {}),
    // agents.defaults.blockStreamingChunk / blockStreamingCoalesce defaults.
    block: {
      minChars: 800,
      maxChars: 1200,
      breakPreference: "paragraph",
      coalesce: { minChars: 800, maxChars: 1200, idleMs: 1000 },
      break: "text_end",
    },
    typing: caps.typing,
    signal: new AbortController().signal,
    log: { warn: () => undefined },
  });
  await write(strategy, text);
  return strategy.finish();
}

const squash = (s: string): string => s.replace(/\s+/g, " ").trim();

async function c2cMessage(n: number): Promise<InboundMessage> {
  const user = openid(100 + n);
  const msgId = fake.userSendsC2C({ openid: user, content: `question ${n}` });
  return account.waitForInbound((m) => m.messageId === msgId);
}

describe("a 4000-character reply within the 5 passive replies", () => {
  const answer = longReply(4000);

  it('streaming.mode "off": one final message with all of it', async () => {
    const inbound = await c2cMessage(1);
    const outcome = await deliver(inbound, { kind: "final" }, answer);
    const seen = fake.c2cMessages(inbound.chat.id);
    expect(outcome.errors).toEqual([]);
    expect(seen.map((m) => m.content).join("")).toBe(answer);
    expect(fake.passiveRepliesUsed(inbound.messageId)).toBeLessThanOrEqual(5);
    console.info(
      `[qqbot] off: ${fake.passiveRepliesUsed(inbound.messageId)} passive replies, ${seen.map((m) => m.content).join("").length} characters`,
    );
  });

  it('streaming.mode "partial" (blocks): blocks while replies last, the rest whole with the final', async () => {
    const inbound = await c2cMessage(2);
    const outcome = await deliver(inbound, { kind: "blocks" }, answer);
    const seen = fake.c2cMessages(inbound.chat.id);
    expect(outcome.errors).toEqual([]);
    expect(seen.length).toBeGreaterThan(1);
    expect(squash(seen.map((m) => m.content).join(" "))).toBe(squash(answer));
    for (const m of seen) expect(m.replyTo).toBe(inbound.messageId);
    expect(fake.passiveRepliesUsed(inbound.messageId)).toBeLessThanOrEqual(5);
    console.info(
      `[qqbot] partial blocks: ${fake.passiveRepliesUsed(inbound.messageId)} passive replies (${seen.length} messages, ${fake.typingNotices(inbound.chat.id)} typing), ${seen.map((m) => m.content).join("").length} characters`,
    );
  });

  it("nativeTransport: one C2C stream that ends holding all of it", async () => {
    const inbound = await c2cMessage(3);
    const outcome = await deliver(inbound, { kind: "native" }, answer);
    expect(outcome.errors).toEqual([]);
    expect(outcome.fallbacks).toEqual([]);
    const streams = fake.streams(inbound.chat.id);
    expect(streams).toHaveLength(1);
    expect(streams[0]).toMatchObject({ done: true, text: answer, msgId: inbound.messageId });
    const indexes = streams[0]!.chunks.map((c) => c.index);
    expect(indexes).toEqual(indexes.map((_, i) => i));
    expect(fake.c2cMessages(inbound.chat.id)).toEqual([]);
    expect(fake.passiveRepliesUsed(inbound.messageId)).toBeLessThanOrEqual(5);
    console.info(
      `[qqbot] nativeTransport: ${fake.passiveRepliesUsed(inbound.messageId)} passive replies (${streams[0]!.chunks.length} chunks), ${streams[0]!.text.length} characters`,
    );
  });

  it("in a group, partial means blocks (no stream, no typing), also within the quota", async () => {
    const group = openid(200);
    const msgId = fake.userSendsGroupAt({ groupOpenid: group, memberOpenid: openid(201), content: "long one please" });
    const inbound = await account.waitForInbound((m) => m.messageId === msgId);
    expect(account.session.capabilitiesFor!(inbound.chat)).toMatchObject({ nativeStream: undefined, typing: false });
    await deliver(inbound, { kind: "blocks" }, answer);
    const seen = fake.groupMessages(group);
    expect(squash(seen.map((m) => m.content).join(" "))).toBe(squash(answer));
    expect(fake.passiveRepliesUsed(msgId)).toBeLessThanOrEqual(5);
  });
});
