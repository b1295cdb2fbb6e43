import { describe, expect, it } from "vitest";
import type { StoredEvent } from "../sessions/index.js";
import { historyFromEvents } from "./transcript.js";

let seq = 0;
const ev = (message: Record<string, unknown>): StoredEvent => {
  seq += 1;
  return { seq, event: { type: "message", id: `e${seq}`, timestamp: "2026-01-01T00:00:00Z", message } };
};

describe("historyFromEvents", () => {
  const events = [
    ev({ role: "user", content: "read a.txt" }),
    ev({
      role: "assistant",
      content: [
        { type: "text", text: "Reading." },
        { type: "toolCall", id: "c1", name: "read", arguments: { path: "a.txt" } },
      ],
    }),
    ev({ role: "toolResult", toolCallId: "c1", toolName: "read", content: [{ type: "text", text: "hello" }] }),
    ev({ role: "assistant", content: [{ type: "text", text: "It says hello." }] }),
    ev({ role: "user", content: "and b.txt?" }),
    ev({ role: "assistant", content: [{ type: "toolCall", id: "c2", name: "read", arguments: { path: "b.txt" } }] }),
  ];
  const expected = [
    { role: "user", content: "read a.txt" },
    { role: "assistant", content: "Reading.", toolCalls: [{ id: "c1", name: "read", arguments: { path: "a.txt" } }] },
    { role: "tool", toolCallId: "c1", name: "read", content: "hello", isError: false },
    { role: "assistant", content: "It says hello." },
    { role: "user", content: "and b.txt?" },
    { role: "assistant", content: "", toolCalls: [{ id: "c2", name: "read", arguments: { path: "b.txt" } }] },
    // The run died mid-tool: the dangling call gets an error result.
    { role: "tool", toolCallId: "c2", name: "read", content: "The tool did not finish (the run was interrupted).", isError: true },
  ];

  it("rebuilds the conversation, pairing every tool call with a result", () => {
    expect(historyFromEvents(events)).toEqual(expected);
  });

  it("gives every turn the same conversation from the same stored events, whatever an earlier turn did with its copy", () => {
    const first = historyFromEvents(events);
    first.push({ role: "user", content: "a message of that turn only" });
    expect(() => {
      (first[0] as { content: string }).content = "changed";
    }).toThrow(TypeError);
    expect(() => (first[1] as { toolCalls: unknown[] }).toolCalls.push({ id: "x" })).toThrow(TypeError);
    // A later event closes the dangling call with its real result.
    const later = [...events, ev({ role: "toolResult", toolCallId: "c2", toolName: "read", content: [{ type: "text", text: "bye" }] })];
    expect(historyFromEvents(later)).toEqual([
      ...expected.slice(0, -1),
      { role: "tool", toolCallId: "c2", name: "read", content: "bye", isError: false },
    ]);
    expect(historyFromEvents(events)).toEqual(expected);
  });
});
