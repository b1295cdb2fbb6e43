// Replies through the delivery engine (@openclaw/delivery) and this plugin's session against the
// fake homeserver: a 429 storm during a streamed reply, and a progress draft that is redacted only
// after the reply that replaces it was accepted.
import {
  createDeliveryStrategy,
  type DeliveryPlanKind,
  InMemoryDeliveryLedger,
  type ReplyEvent,
  SendBudget,
  type SendBudgetOptions,
} from "@openclaw/delivery";
import { DEFAULT_BLOCK_SETTINGS, numberedReply } from "./replies.js";
import { afterEach, describe, expect, it } from "vitest";
import { MATRIX_CAPABILITIES } from "../src/index.js";
import { BOT, connectBot, type FakeWorld, type RunningBot, startWorld } from "./fake-homeserver.js";

let world: FakeWorld;
let bot: RunningBot | undefined;
afterEach(async () => {
  await bot?.stop().catch(() => undefined);
  bot = undefined;
  await world?.close();
});

/** A DM with alice and a connected bot. */
async function dm(): Promise<{ alice: string; roomId: string }> {
  world = await startWorld();
  const alice = await world.person("alice");
  const roomId = await world.roomWithBot(alice, { isDirect: true });
  bot = await connectBot(world.config);
  return { alice, roomId };
}

function strategyFor(plan: DeliveryPlanKind, roomId: string, budget: SendBudgetOptions = {}) {
  return createDeliveryStrategy(plan, {
    outbound: bot!.session,
    budget: new SendBudget({ perChatRate: 20, perChatBurst: 5, ...budget }),
    ledger: new InMemoryDeliveryLedger(),
    target: { chat: { kind: "direct", id: roomId } },
    chatKey: roomId,
    replyKey: `reply-${Math.random()}`,
    channel: "matrix",
    accountId: "default",
    textLimit: MATRIX_CAPABILITIES.textLimit,
    editLimit: MATRIX_CAPABILITIES.editLimit,
    minEditIntervalMs: 250,
    // As the gateway passes it from the channel's capabilities.
    finalEditAfterPreview: MATRIX_CAPABILITIES.finalEditAfterPreview,
    chunkMode: "length",
    block: DEFAULT_BLOCK_SETTINGS,
    typing: false,
    signal: new AbortController().signal,
    log: { warn: () => undefined },
  });
}

/** The events that end a run whose reply is `text`; resolves once delivery is done. */
async function endReply(strategy: ReturnType<typeof strategyFor>, text: string) {
  const events: ReplyEvent[] = [
    { type: "text_end" },
    { type: "message_end" },
    { type: "final", text, silent: false },
    { type: "run_end", status: "ok" },
  ];
  for (const event of events) strategy.onEvent(event);
  return strategy.finish();
}

const botMessages = (roomId: string) => world.fake.timeline(roomId).filter((m) => m.sender === BOT);
const visible = (roomId: string) => botMessages(roomId).filter((m) => !m.redacted);

describe("delivery against the fake homeserver", () => {
  it("a 429 storm during a 4000-character partial preview ends in the whole reply, each part once", async () => {
    const { roomId } = await dm();
    const text = numberedReply(4400);
    const strategy = strategyFor({ kind: "preview", mode: "partial" }, roomId);
    strategy.onEvent({ type: "run_start" });
    for (let i = 0; i < text.length; i += 400) {
      strategy.onEvent({ type: "text_delta", text: text.slice(i, i + 400) });
      // The storm starts once the preview is up.
      if (i === 1200) {
        await world.fake.waitFor(() => botMessages(roomId).length > 0);
        world.fake.rateLimitNext(6, 50);
      }
    }
    await endReply(strategy, text);

    const shown = visible(roomId).map((m) => m.body);
    expect(shown.join(" ").replace(/\s+/g, " ")).toBe(text.replace(/\s+/g, " "));
    for (const body of shown) expect(body.length).toBeLessThanOrEqual(MATRIX_CAPABILITIES.textLimit);
    expect(world.fake.requests.some((r) => r.status === 429)).toBe(true);
    // No preview left live: the last version of each message has no MSC4357 marker.
    for (const m of visible(roomId)) expect(m.content["org.matrix.msc4357.live"]).toBeUndefined();
  }, 30_000);

  it("a partial preview that already shows the whole reply still gets a last edit without the live marker", async () => {
    const { roomId } = await dm();
    const text = "A short answer that the preview shows whole before the turn ends.";
    const strategy = strategyFor({ kind: "preview", mode: "partial" }, roomId);
    strategy.onEvent({ type: "run_start" });
    strategy.onEvent({ type: "text_delta", text });
    const live = await world.fake.waitForMessage(roomId, (m) => m.sender === BOT && m.body === text);
    expect(live.content["org.matrix.msc4357.live"]).toBeDefined();
    await endReply(strategy, text);
    const [message] = visible(roomId);
    expect(visible(roomId)).toHaveLength(1);
    expect(message!.body).toBe(text);
    expect(message!.content["org.matrix.msc4357.live"]).toBeUndefined();
    expect(message!.edits).toBe(live.edits + 1);
  });

  it("a progress draft is redacted after its reply was accepted, and stays when the reply could not be sent", async () => {
    const { roomId } = await dm();
    // Accepted: the reply's event comes before the draft's redaction.
    const ok = strategyFor({ kind: "preview", mode: "progress" }, roomId);
    ok.onEvent({ type: "run_start" });
    ok.onEvent({ type: "tool_start", callId: "1", name: "exec", args: { command: "ls" } });
    const draft = await world.fake.waitForMessage(roomId, (m) => m.sender === BOT && m.body.startsWith("Working"));
    world.fake.slowSends(100);
    ok.onEvent({ type: "tool_end", callId: "1", isError: false });
    ok.onEvent({ type: "final", text: "Here is the answer.", silent: false });
    ok.onEvent({ type: "run_end", status: "ok" });
    await ok.finish();
    world.fake.slowSends(0);
    const sent = world.fake.sent.filter((e) => e.userId === BOT && e.roomId === roomId);
    const answerAt = sent.findIndex((e) => e.type === "m.room.message" && (e.content as { body?: string }).body === "Here is the answer.");
    const redactAt = sent.findIndex((e) => e.type === "m.room.redaction");
    expect(answerAt).toBeGreaterThanOrEqual(0);
    expect(redactAt).toBeGreaterThan(answerAt);
    expect(botMessages(roomId).find((m) => m.eventId === draft.eventId)?.redacted).toBe(true);
    expect(visible(roomId).map((m) => m.body)).toEqual(["Here is the answer."]);

    // Refused: the homeserver rate-limits every attempt of the reply; the draft must stay visible.
    const failing = strategyFor({ kind: "preview", mode: "progress" }, roomId, { maxRateLimitedAttempts: 3 });
    failing.onEvent({ type: "run_start" });
    failing.onEvent({ type: "tool_start", callId: "2", name: "exec", args: { command: "ls" } });
    const second = await world.fake.waitForMessage(roomId, (m) => m.sender === BOT && m.body.startsWith("Working") && !m.redacted);
    world.fake.rateLimitNext(3, 20);
    failing.onEvent({ type: "final", text: "This answer never gets through.", silent: false });
    failing.onEvent({ type: "run_end", status: "ok" });
    const outcome = await failing.finish();
    expect(world.fake.requests.filter((r) => r.status === 429)).toHaveLength(3);
    expect(visible(roomId).map((m) => m.body)).not.toContain("This answer never gets through.");
    expect(botMessages(roomId).find((m) => m.eventId === second.eventId)?.redacted).toBe(false);
    expect(outcome).toBeDefined();
  }, 30_000);
});
