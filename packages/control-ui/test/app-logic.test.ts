// The page logic that needs no browser: the reply stream, transcript rows, the token's trip from
// the link to sessionStorage, and where a config issue is shown.
import { describe, expect, it } from "vitest";
import type { AgentEvent, StoredEvent } from "../src/api/types.js";
import { adoptToken, tokenFromFragment, webchatClient, webchatSessionKey } from "../src/auth.js";
import { lineOfPath } from "../src/config-lines.js";
import { applyAgentEvent, emptyReply, replyText } from "../src/chat/reply.js";
import { mergeEvents, transcriptRows } from "../src/chat/transcript.js";

function memoryStore() {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
}

describe("the reply stream", () => {
  const play = (events: AgentEvent[]) => events.reduce(applyAgentEvent, emptyReply("r1"));

  it("appends deltas in order and puts tool activity lines between text blocks", () => {
    const reply = play([
      { type: "text_delta", text: "Let me " },
      { type: "text_delta", text: "look." },
      { type: "tool_start", callId: "c1", name: "read", args: {} },
      { type: "tool_end", callId: "c1", name: "read", result: "x", isError: false, durationMs: 12 },
      { type: "text_delta", text: "Found it." },
      { type: "final", text: "Found it.", silent: false },
      { type: "run_end", runId: "r1", status: "ok", usage: { inputTokens: 0, outputTokens: 0 }, durationMs: 40 },
    ]);
    expect(reply.parts).toEqual([
      { kind: "text", text: "Let me look." },
      { kind: "tool", callId: "c1", name: "read", state: "ok", durationMs: 12 },
      { kind: "text", text: "Found it." },
    ]);
    expect(reply.status).toBe("ok");
    expect(replyText(reply)).toBe("Let me look.Found it.");
  });

  it("shows a final text only when nothing was streamed (a command's answer), never twice", () => {
    expect(replyText(play([{ type: "final", text: "Started a new session.", silent: false }]))).toBe("Started a new session.");
    expect(
      replyText(
        play([
          { type: "text_delta", text: "Hi" },
          { type: "final", text: "Hi", silent: false },
        ]),
      ),
    ).toBe("Hi");
  });

  it("keeps every one of 500 deltas in order", () => {
    const words = Array.from({ length: 500 }, (_, i) => `w${i} `);
    const reply = play(words.map((text) => ({ type: "text_delta", text })));
    expect(replyText(reply)).toBe(words.join(""));
  });

  it("marks a failed tool, a silent answer and an error", () => {
    const reply = play([
      { type: "tool_start", callId: "c1", name: "exec", args: {} },
      { type: "tool_end", callId: "c1", name: "exec", result: "boom", isError: true, durationMs: 3 },
      { type: "error", kind: "provider", message: "the model is down" },
      { type: "final", text: "", silent: true },
      { type: "run_end", runId: "r1", status: "error", usage: { inputTokens: 0, outputTokens: 0 }, durationMs: 5 },
    ]);
    expect(reply.parts[0]).toMatchObject({ kind: "tool", state: "error" });
    expect(reply).toMatchObject({ silent: true, error: "the model is down", status: "error" });
  });
});

describe("transcript rows", () => {
  const message = (seq: number, message: Record<string, unknown>): StoredEvent => ({
    seq,
    event: { type: "message", id: `e${seq}`, timestamp: "2026-01-01T00:00:00Z", message: message as never },
  });

  it("folds each tool result into its call and skips the header", () => {
    const rows = transcriptRows([
      { seq: 1, event: { type: "session", id: "h", timestamp: "" } },
      message(2, { role: "user", content: "what time is it?" }),
      message(3, { role: "assistant", content: [{ type: "toolCall", id: "c1", name: "clock", arguments: { tz: "UTC" } }] }),
      message(4, { role: "toolResult", toolCallId: "c1", toolName: "clock", content: [{ type: "text", text: "12:00" }], isError: false }),
      message(5, { role: "assistant", content: [{ type: "text", text: "Noon." }] }),
    ]);
    expect(rows.map((r) => r.kind)).toEqual(["user", "tool", "assistant"]);
    expect(rows[1]).toMatchObject({ name: "clock", result: "12:00", isError: false });
    expect(rows[1]?.kind === "tool" && JSON.parse(rows[1].args)).toEqual({ tz: "UTC" });
  });

  it("shows a result whose call is on an earlier page as its own row", () => {
    const rows = transcriptRows([message(9, { role: "toolResult", toolCallId: "old", toolName: "exec", content: "done", isError: true })]);
    expect(rows).toEqual([{ kind: "tool", seq: 9, callId: "old", name: "exec", args: "", result: "done", isError: true }]);
  });

  it("merges pages by seq without duplicates", () => {
    const a = [message(3, { role: "user", content: "c" }), message(4, { role: "user", content: "d" })];
    const b = [message(1, { role: "user", content: "a" }), message(3, { role: "user", content: "c" })];
    expect(mergeEvents(b, a).map((e) => e.seq)).toEqual([1, 3, 4]);
  });
});

describe("the token", () => {
  it("is read from #token= and the rest of the fragment kept", () => {
    expect(tokenFromFragment("#token=abc")).toEqual({ token: "abc", rest: "" });
    expect(tokenFromFragment("#token=a%2Bb&x=1")).toEqual({ token: "a+b", rest: "#x=1" });
    expect(tokenFromFragment("#/chat")).toBeUndefined();
  });

  it("moves from the link into the store and out of the address bar", () => {
    const store = memoryStore();
    const replaced: string[] = [];
    const win = {
      location: { hash: "#token=s3cret", pathname: "/ui/", search: "" },
      history: { replaceState: (_s: unknown, _t: string, url: string) => replaced.push(url) },
    };
    expect(adoptToken(win as never, store)).toBe("s3cret");
    expect(replaced).toEqual(["/ui/"]);
    expect(store.map.get("openclaw.token")).toBe("s3cret");
    // A reload without the fragment keeps the session's token; no URL change.
    win.location.hash = "";
    expect(adoptToken(win as never, store)).toBe("s3cret");
    expect(replaced).toHaveLength(1);
  });

  it("gives each browser one stable WebChat key", () => {
    const store = memoryStore();
    const first = webchatClient(store, () => "0123ABCD-4567-89ef-0000-000000000000");
    expect(first).toEqual({ id: "0123abcd456789ef", fresh: true });
    expect(webchatClient(store, () => "ffffffff-ffff-ffff-ffff-ffffffffffff")).toEqual({ id: first.id, fresh: false });
    const id = first.id;
    expect(webchatSessionKey("main", id)).toBe("agent:main:webchat:0123abcd456789ef");
  });
});

describe("config issues in place", () => {
  const raw = [
    "{",
    '  agents: { defaults: { model: "x" } },',
    "  channels: {",
    "    telegram: {",
    '      "botToken": 5,',
    "    },",
    "  },",
    "}",
  ].join("\n");

  it("finds the line of the deepest key written", () => {
    expect(lineOfPath(raw, "channels.telegram.botToken")).toBe(5);
    expect(lineOfPath(raw, "agents.defaults.model")).toBe(2);
    // A key that is missing: the line of its parent.
    expect(lineOfPath(raw, "channels.telegram.allowFrom")).toBe(4);
    expect(lineOfPath(raw, "gateway.port")).toBeUndefined();
  });
});
