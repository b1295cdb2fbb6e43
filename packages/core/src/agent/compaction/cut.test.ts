import { describe, expect, it } from "vitest";
import type { StoredEvent } from "../../sessions/index.js";
import { historyFromEvents } from "../transcript.js";
import { eventTokens, findCut } from "./cut.js";

let seq = 0;
const ev = (message: Record<string, unknown>): StoredEvent => {
  seq += 1;
  return { seq, event: { type: "message", id: `e${seq}`, timestamp: "2026-01-01T00:00:00Z", message } };
};
const user = (text: string) => ev({ role: "user", content: text });
const say = (text: string) => ev({ role: "assistant", content: [{ type: "text", text }] });
const call = (...ids: string[]) =>
  ev({ role: "assistant", content: ids.map((id) => ({ type: "toolCall", id, name: "read", arguments: { path: `${id}.txt` } })) });
const result = (id: string, text: string) =>
  ev({ role: "toolResult", toolCallId: id, toolName: "read", content: [{ type: "text", text }] });

/** Turns of: a question, a batch of two parallel tool calls, their results, an answer; some turns steer mid-run. */
function conversation(turns: number): StoredEvent[] {
  const out: StoredEvent[] = [{ seq: ++seq, event: { type: "session", id: `h${seq}`, timestamp: "2026-01-01T00:00:00Z" } }];
  for (let t = 0; t < turns; t += 1) {
    out.push(user(`question ${t} ${"x".repeat(37 * (t % 5))}`));
    out.push(call(`a${t}`, `b${t}`), result(`a${t}`, "r".repeat(90 + t)), result(`b${t}`, "s".repeat(13 * t)));
    if (t % 3 === 0) out.push(user(`steer ${t}`), call(`c${t}`), result(`c${t}`, "t".repeat(200)));
    out.push(say(`answer ${t}`));
  }
  return out;
}

const roleAt = (events: readonly StoredEvent[], i: number) => (events[i]!.event.message as { role: string }).role;

describe("findCut", () => {
  it("never separates a tool call from its result, whatever the budget", () => {
    const events = conversation(12);
    const total = events.reduce((n, e) => n + eventTokens(e.event), 0);
    let cuts = 0;
    for (let budget = 0; budget <= total + 10; budget += 7) {
      const cut = findCut(events, budget);
      if (cut === undefined) continue;
      cuts += 1;
      expect(["user", "assistant"]).toContain(roleAt(events, cut));
      const older = events.slice(0, cut);
      const kept = events.slice(cut);
      // Every result kept has its call kept; every call summarized has its results summarized.
      const callIds = (part: StoredEvent[]) =>
        part
          .flatMap((e) => ((e.event.message as { content?: unknown })?.content as Array<{ type: string; id?: string }> | undefined) ?? [])
          .filter((b) => typeof b === "object" && b.type === "toolCall")
          .map((b) => b.id);
      const resultIds = (part: StoredEvent[]) =>
        part
          .map((e) => e.event.message as { role?: string; toolCallId?: string } | undefined)
          .filter((m) => m?.role === "toolResult")
          .map((m) => m!.toolCallId);
      expect(resultIds(kept).every((id) => callIds(kept).includes(id))).toBe(true);
      expect(resultIds(older).every((id) => callIds(older).includes(id))).toBe(true);
      // The history the model gets from the kept part has no synthetic "did not finish" results.
      expect(historyFromEvents(kept).filter((m) => m.role === "tool" && m.isError)).toEqual([]);
    }
    expect(cuts).toBeGreaterThan(10);
  });

  it("cuts before a user message when one is within the budget, keeping as much as fits", () => {
    const events = conversation(6);
    const lastTurn = events.length - 5; // question, calls, two results, answer
    const budget = events.slice(lastTurn).reduce((n, e) => n + eventTokens(e.event), 0) + 2;
    expect(findCut(events, budget)).toBe(lastTurn);
  });

  it("inside one long turn, cuts before an assistant message, not before a tool result", () => {
    const events = [user("do a long task")];
    for (let i = 0; i < 10; i += 1) events.push(call(`k${i}`), result(`k${i}`, "z".repeat(400)));
    events.push(say("done"));
    const cut = findCut(events, 300)!;
    expect(roleAt(events, cut)).toBe("assistant");
    expect(cut).toBeGreaterThan(0);
  });

  it("leaves a short history alone unless forced; forced, keeps only the last question on", () => {
    const events = conversation(3);
    expect(findCut(events, 1_000_000)).toBeUndefined();
    const forced = findCut(events, 1_000_000, { force: true })!;
    expect(roleAt(events, forced)).toBe("user");
    expect((events[forced]!.event.message as { content: string }).content).toMatch(/^question 2/);
    expect(findCut([user("only one")], 0, { force: true })).toBeUndefined();
  });
});
