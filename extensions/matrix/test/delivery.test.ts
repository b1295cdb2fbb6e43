// The delivery engine (@openclaw/delivery) driving this package's outbound in each streaming mode,
// over a transport that keeps a room the way a Matrix client shows it (m.replace edits applied,
// redactions removed): a 4000+-character streamed reply never shows text twice, never leaves a
// preview live, and 429s wait for retry_after_ms.
import { createDeliveryStrategy, type DeliveryPlanKind, InMemoryDeliveryLedger, type ReplyEvent, SendBudget } from "@openclaw/delivery";
import { DEFAULT_BLOCK_SETTINGS, numberedReply } from "./replies.js";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createMatrixOutbound, LIVE_MARKER, MATRIX_CAPABILITIES, type MatrixStreamingMode, type MatrixTransport } from "../src/index.js";

interface RoomEvent {
  eventId: string;
  content: Record<string, unknown>;
  edits: number;
  redacted: boolean;
}

/** A room as a client renders it, plus a 429 switch. */
class RecordingRoom implements MatrixTransport {
  events: RoomEvent[] = [];
  sendCalls: { at: number; txnId: string }[] = [];
  private limited = 0;
  private retryAfterMs = 0;

  rateLimitNext(count: number, retryAfterMs: number): void {
    this.limited = count;
    this.retryAfterMs = retryAfterMs;
  }

  async sendEvent(_roomId: string, _type: string, content: Record<string, unknown>, txnId: string): Promise<string> {
    this.sendCalls.push({ at: Date.now(), txnId });
    if (this.limited > 0) {
      this.limited--;
      throw Object.assign(new Error("Too Many Requests"), {
        httpStatus: 429,
        errcode: "M_LIMIT_EXCEEDED",
        data: { retry_after_ms: this.retryAfterMs },
      });
    }
    const relates = content["m.relates_to"] as { rel_type?: string; event_id?: string } | undefined;
    if (relates?.rel_type === "m.replace") {
      const target = this.events.find((e) => e.eventId === relates.event_id);
      if (target) {
        target.content = content["m.new_content"] as Record<string, unknown>;
        target.edits++;
      }
      return `$edit${this.sendCalls.length}`;
    }
    const eventId = `$e${this.events.length + 1}`;
    this.events.push({ eventId, content, edits: 0, redacted: false });
    return eventId;
  }
  async redact(_roomId: string, eventId: string): Promise<void> {
    const target = this.events.find((e) => e.eventId === eventId);
    if (target) target.redacted = true;
  }
  async upload(): Promise<string> {
    return "mxc://example.org/x";
  }
  async setTyping(): Promise<void> {}
  isEncrypted(): boolean {
    return false;
  }
  async roomFor(chatId: string): Promise<string> {
    return chatId;
  }

  visible(): RoomEvent[] {
    return this.events.filter((e) => !e.redacted);
  }
}

function numbersIn(texts: string[]): number[] {
  return (texts.join(" ").match(/Sentence number (\d+)/g) ?? []).map((s) => Number(s.slice("Sentence number ".length)));
}

async function deliver(plan: DeliveryPlanKind, mode: MatrixStreamingMode, text: string, room = new RecordingRoom()) {
  const outbound = createMatrixOutbound(room, { modeFor: () => mode, mediaMaxBytes: 1 << 20 });
  const strategy = createDeliveryStrategy(plan, {
    outbound,
    budget: new SendBudget({ perChatRate: MATRIX_CAPABILITIES.sendRate.perChat, perChatBurst: MATRIX_CAPABILITIES.sendRate.perChatBurst }),
    ledger: new InMemoryDeliveryLedger(),
    target: { chat: { kind: "direct", id: "!dm:example.org" } },
    inReplyTo: "$in",
    chatKey: "!dm:example.org",
    replyKey: "reply-1",
    channel: "matrix",
    accountId: "default",
    textLimit: MATRIX_CAPABILITIES.textLimit,
    editLimit: MATRIX_CAPABILITIES.editLimit,
    minEditIntervalMs: MATRIX_CAPABILITIES.minEditIntervalMs,
    chunkMode: "length",
    block: DEFAULT_BLOCK_SETTINGS,
    typing: true,
    signal: new AbortController().signal,
    log: { warn: () => undefined },
  });
  const started = Date.now();
  let firstVisibleAt: number | undefined;
  const events: ReplyEvent[] = [{ type: "run_start" }];
  for (let i = 0; i < text.length; i += 40) events.push({ type: "text_delta", text: text.slice(i, i + 40) });
  events.push({ type: "text_end" }, { type: "message_end" }, { type: "final", text, silent: false }, { type: "run_end", status: "ok" });
  for (const event of events) {
    strategy.onEvent(event);
    await vi.advanceTimersByTimeAsync(50);
    if (firstVisibleAt === undefined && room.visible().length > 0) firstVisibleAt = Date.now();
  }
  const outcome = strategy.finish();
  await vi.advanceTimersByTimeAsync(60_000);
  return { room, outcome: await outcome, firstVisibleMs: (firstVisibleAt ?? Date.now()) - started };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const text = numberedReply(4500);
const bodies = (room: RecordingRoom) => room.visible().map((e) => String(e.content.body));

describe("a 4500-character streamed reply", () => {
  it.each<[string, DeliveryPlanKind, MatrixStreamingMode]>([
    ["off", { kind: "final" }, "off"],
    ["partial", { kind: "preview", mode: "partial" }, "partial"],
    ["quiet", { kind: "preview", mode: "quiet" }, "quiet"],
    ["progress", { kind: "preview", mode: "progress" }, "progress"],
    ["block replies", { kind: "blocks" }, "off"],
  ])("%s: every sentence once, in order, no event over 4000 characters, nothing left live", async (_name, plan, mode) => {
    const { room, outcome } = await deliver(plan, mode, text);
    expect(outcome.status).toBe("delivered");
    const numbers = numbersIn(bodies(room));
    expect(numbers).toEqual(numbers.map((_, i) => i));
    expect(bodies(room).join(" ").replace(/\s+/g, " ")).toBe(text.replace(/\s+/g, " "));
    for (const event of room.visible()) {
      expect(String(event.content.body).length).toBeLessThanOrEqual(4000);
      expect(event.content[LIVE_MARKER]).toBeUndefined();
    }
  });

  it("partial: previews carry the MSC4357 marker, edits are paced at one per second, the final edit drops it", async () => {
    const room = new RecordingRoom();
    const seen: Record<string, unknown>[] = [];
    const original = room.sendEvent.bind(room);
    room.sendEvent = async (roomId, type, content, txnId) => {
      seen.push({ ...content, at: Date.now() });
      return original(roomId, type, content, txnId);
    };
    const { outcome } = await deliver({ kind: "preview", mode: "partial" }, "partial", text, room);
    const edits = seen.filter((c) => (c["m.relates_to"] as { rel_type?: string } | undefined)?.rel_type === "m.replace");
    expect(outcome.counts.edits).toBe(edits.length);
    expect(seen[0]?.[LIVE_MARKER]).toEqual({});
    expect(seen[0]?.msgtype).toBe("m.text");
    const gaps = edits.slice(1).map((e, i) => Number(e.at) - Number(edits[i]!.at));
    const sameEventGaps = gaps.filter(
      (_, i) =>
        (edits[i + 1]!["m.relates_to"] as { event_id: string }).event_id === (edits[i]!["m.relates_to"] as { event_id: string }).event_id,
    );
    for (const gap of sameEventGaps) expect(gap).toBeGreaterThanOrEqual(1000);
    const lastEdits = new Map<string, Record<string, unknown>>();
    for (const e of edits)
      lastEdits.set((e["m.relates_to"] as { event_id: string }).event_id, e["m.new_content"] as Record<string, unknown>);
    for (const last of lastEdits.values()) expect(last[LIVE_MARKER]).toBeUndefined();
  });

  it("quiet: the preview is an m.notice that mentions nobody", async () => {
    const room = new RecordingRoom();
    const first: Record<string, unknown>[] = [];
    const original = room.sendEvent.bind(room);
    room.sendEvent = async (roomId, type, content, txnId) => {
      first.push(content);
      return original(roomId, type, content, txnId);
    };
    await deliver({ kind: "preview", mode: "quiet" }, "quiet", text, room);
    expect(first[0]).toMatchObject({ msgtype: "m.notice", "m.mentions": {} });
    expect(first[0]?.[LIVE_MARKER]).toBeUndefined();
  });

  it("a 429 storm: every send waits the server's retry_after_ms and the reply still arrives whole", async () => {
    const room = new RecordingRoom();
    room.rateLimitNext(5, 2000);
    const { outcome } = await deliver({ kind: "final" }, "off", text, room);
    expect(outcome.status).toBe("delivered");
    expect(numbersIn(bodies(room))).toEqual(numbersIn([text]));
    const attempts = room.sendCalls.map((c) => c.at);
    for (let i = 1; i <= 5; i++) expect(attempts[i]! - attempts[i - 1]!).toBeGreaterThanOrEqual(2000);
  });
});
