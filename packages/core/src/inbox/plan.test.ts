import { describe, expect, it } from "vitest";
import { recordedInbound } from "../agent/index.js";
import type { StoredEvent } from "../sessions/index.js";
import { inboundMessage, pendingRow } from "./__fixtures__/messages.js";
import { planSessionReplay } from "./plan.js";
import type { InboxRow } from "./store.js";
import { inboxKeyOf } from "./turn.js";

const row = (id: number, started = false): InboxRow =>
  pendingRow(id, inboundMessage({ messageId: String(id), text: `m${id}`, receivedAt: id }), started ? { startedAt: id } : {});
const key = (r: InboxRow) => inboxKeyOf(r.message);

/** A transcript as the runtime writes it: user entries tagged with inbox keys. */
function transcript(entries: Array<{ role: "user" | "assistant"; text: string; keys?: string[]; steered?: boolean }>): StoredEvent[] {
  return entries.map((e, i) => ({
    seq: i + 2,
    event: {
      type: "message",
      id: `e${i}`,
      timestamp: "2026-01-01T00:00:00.000Z",
      message: { role: e.role, content: e.role === "user" ? e.text : [{ type: "text", text: e.text }] },
      ...(e.keys ? { inbound: { keys: e.keys, ...(e.steered ? { steered: true } : {}) } } : {}),
    },
  }));
}

describe("planSessionReplay", () => {
  it("messages the agent never saw are handled as new, in arrival order", () => {
    const rows = [row(1), row(2)];
    expect(planSessionReplay(rows, new Map())).toEqual({ resume: [], follow: [], fresh: rows });
  });

  it("a message whose own run had started is resumed with the text and keys it was recorded with", () => {
    const [a, b, c] = [row(1), row(2, true), row(3)];
    // b opened a collect turn together with a (a's reply is b's); c arrived later and was never taken.
    const events = transcript([{ role: "user", text: "[2 messages] (1) m1 (2) m2", keys: [key(a), key(b)] }]);
    const plan = planSessionReplay([a, b, c], recordedInbound(events));
    expect(plan.resume).toEqual([{ row: b, text: "[2 messages] (1) m1 (2) m2", inboundKeys: [key(a), key(b)] }]);
    expect(plan.follow).toEqual([a]);
    expect(plan.fresh).toEqual([c]);
  });

  it("a message that was steered into a run follows the run's message, even when its own run had started", () => {
    const [a, b] = [row(1, true), row(2, true)];
    const events = transcript([
      { role: "user", text: "m1", keys: [key(a)] },
      { role: "assistant", text: "working" },
      { role: "user", text: "m2", keys: [key(b)], steered: true },
    ]);
    const plan = planSessionReplay([a, b], recordedInbound(events));
    expect(plan.resume.map((s) => s.row)).toEqual([a]);
    expect(plan.follow).toEqual([b]);
  });

  it("a turn recorded before its start reached the inbox (killed between the two commits) is resumed by its own message", () => {
    // Not started: the opening entry was committed, the inbox's note of the run's start was not.
    const [a, b] = [row(1), row(2)];
    const events = transcript([
      { role: "user", text: "m1", keys: [key(a)] },
      { role: "assistant", text: "answer to m1" },
      { role: "user", text: "m2", keys: [key(b)] },
    ]);
    const plan = planSessionReplay([b], recordedInbound(events));
    expect(plan.resume).toEqual([{ row: b, text: "m2", inboundKeys: [key(b)] }]);
    expect(plan.follow).toEqual([]);
    // The same for a merged turn: its newest message resumes it, the others follow.
    const merged = transcript([{ role: "user", text: "[2 messages] (1) m1 (2) m2", keys: [key(a), key(b)] }]);
    const mergedPlan = planSessionReplay([a, b], recordedInbound(merged));
    expect(mergedPlan.resume.map((s) => s.row)).toEqual([b]);
    expect(mergedPlan.follow).toEqual([a]);
  });
});
