// Done-when: a session driven past a small context window compacts, flushes memory first, and
// still answers with what it was told in turn 1, because the summary carries it.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { lastUserText, startFakeOpenAI, type FakeModelServer, type FakeTurn, type RecordedRequest } from "@openclaw/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentRuntime, AgentEvent } from "../../src/agent/index.js";
import { buildSessionKey, openAgentStoreReadOnly } from "../../src/sessions/index.js";
import { fakeModelRuntime } from "../helpers/fake-model-runtime.js";

let stateDir: string;
let fake: FakeModelServer;
let runtime: AgentRuntime | undefined;

beforeEach(async () => {
  stateDir = mkdtempSync(path.join(tmpdir(), "openclaw-compaction-"));
  // A pre-seeded (empty) workspace: skipBootstrap keeps the prompt small.
  mkdirSync(path.join(stateDir, "ws"));
  fake = await startFakeOpenAI({ responder: rememberingModel });
});
afterEach(async () => {
  await runtime?.close();
  runtime = undefined;
  await fake.close();
  rmSync(stateDir, { recursive: true, force: true });
});

type Msg = { role: string; content: unknown; tool_calls?: unknown };
const messagesOf = (r: RecordedRequest): Msg[] => r.body.messages;
const textOf = (m: Msg) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? ""));
const isSummaryCall = (r: RecordedRequest) => textOf(messagesOf(r)[0]!).startsWith("You maintain the running summary");

/**
 * A fake model that knows only what its request holds: it summarizes by keeping the user's
 * "remember" lines (and an earlier summary's bullets), writes what it was told to the memory
 * file in a flush turn, and answers the locker-code question from its context or admits it
 * does not know.
 */
function rememberingModel(request: RecordedRequest): FakeTurn {
  const messages = messagesOf(request);
  const last = messages[messages.length - 1]!;
  const said = lastUserText(request);
  if (isSummaryCall(request)) {
    const kept = [...said.matchAll(/^- .+$|^User: .*remember.*$/gim)].map((m) => m[0].replace(/^User: /, "- "));
    return [{ text: kept.length ? [...new Set(kept)].join("\n") : "- Small talk only." }];
  }
  if (last.role === "tool") return [{ text: "NO_REPLY" }];
  if (said.includes("[Memory flush")) {
    const file = /memory\/\d{4}-\d{2}-\d{2}\.md/.exec(said)![0];
    const fact = /my locker code is \d+/i.exec(JSON.stringify(messages.slice(0, -1)))?.[0] ?? "nothing new";
    return [{ toolCall: { name: "write", arguments: { path: file, content: `- The user said: ${fact}\n` } } }];
  }
  if (/what is my locker code/i.test(said)) {
    const known = /locker code is (\d+)/i.exec(JSON.stringify(messages.slice(0, -1)));
    return [{ text: known ? `Your locker code is ${known[1]}.` : "I do not know your locker code." }];
  }
  return [{ text: `Noted (${said.length} characters).` }];
}

function makeRuntime(contextWindow: number) {
  runtime = fakeModelRuntime({ stateDir, baseUrl: fake.baseUrl, contextWindow, extra: { tools: { allow: ["read", "write", "edit"] } } });
  return runtime;
}

const filler = (i: number) => `Filler ${i}: ${"The weather report for a town nobody visits, read out slowly and with feeling. ".repeat(4)}`;

describe("compaction end to end (fake model)", () => {
  it("flushes memory, compacts past a small window, and still knows the turn-1 fact", async () => {
    const rt = makeRuntime(4000);
    const sessionKey = buildSessionKey({ kind: "direct", agentId: "main", channel: "test", peerId: "alice", dmScope: "per-peer" });
    const events: AgentEvent[] = [];
    const turn = (message: string) => rt.runTurn({ sessionKey, message, onEvent: (e) => events.push(e) });

    const first = await turn("Please remember this: my locker code is 4417.");
    expect(first.status).toBe("ok");
    let turns = 0;
    while (!events.some((e) => e.type === "compaction") && turns < 60) {
      const r = await turn(filler(turns));
      expect(r.status).toBe("ok");
      expect(r.text).toMatch(/^Noted/);
      turns += 1;
    }
    expect(events.filter((e) => e.type === "compaction")).toEqual([expect.objectContaining({ reason: "threshold" })]);

    // The flush ran (silently) before the compaction and wrote the fact to today's note.
    const memoryDir = path.join(stateDir, "ws", "memory");
    expect(existsSync(memoryDir)).toBe(true);
    const notes = readdirSync(memoryDir).filter((f) => /^\d{4}-\d{2}-\d{2}\.md$/.test(f));
    expect(notes).toHaveLength(1);
    expect(readFileSync(path.join(memoryDir, notes[0]!), "utf8")).toContain("my locker code is 4417");
    expect(events.some((e) => e.type === "final" && /NO_REPLY|\[Memory flush/.test(e.text))).toBe(false);

    const reader = openAgentStoreReadOnly({ stateDir, agentId: "main" })!;
    const entry = reader.getEntry(sessionKey)!;
    const stored = reader.readEvents(entry.sessionId).map((e) => e.event);
    reader.close();
    const flushAt = stored.findIndex((e) => e.trigger === "memory-flush");
    const compactionAt = stored.findIndex((e) => e.type === "compaction");
    expect(flushAt).toBeGreaterThan(0);
    expect(compactionAt).toBeGreaterThan(flushAt);
    expect(String(stored[compactionAt]!.summary)).toContain("4417");
    expect(entry.compactionCount).toBe(1);
    // The raw events stay: turn 1 is still in the store.
    expect(JSON.stringify(stored[1])).toContain("my locker code is 4417");

    const answer = await turn("What is my locker code?");
    expect(answer.text).toBe("Your locker code is 4417.");
    const sent = messagesOf(fake.lastRequest()!);
    // The model no longer gets turn 1 itself, only the summary that carries the fact.
    expect(sent.some((m) => m.role === "user" && textOf(m).startsWith("Please remember this"))).toBe(false);
    const summary = sent.find((m) => m.role === "user" && textOf(m).startsWith("[The earlier part of this conversation was compacted"));
    expect(summary && textOf(summary)).toContain("my locker code is 4417");
    // And its prompt is back under the window.
    expect(JSON.stringify(sent).length / 4).toBeLessThan(4000);
  });

  it("runs no flush before a turn re-run after a crash (its message is recorded already), but before the next one", async () => {
    const rt = makeRuntime(4000);
    const sessionKey = "agent:main:main";
    const inboundKeys = ["test:default:chat:1"];
    // Flush turns started (their first model call ends with the flush message).
    const flushes = () =>
      fake.requests.filter((r) => messagesOf(r).at(-1)!.role === "user" && lastUserText(r).includes("[Memory flush")).length;
    fake.enqueue([{ error: { status: 400 } }]);
    expect((await rt.runTurn({ sessionKey, message: "hello again", inboundKeys })).status).toBe("error");
    // The last context was near the window: a flush is due.
    rt.store("main").updateEntry(sessionKey, { contextUsedTokens: 3900 });
    const again = await rt.runTurn({ sessionKey, message: "hello again", inboundKeys });
    expect(again).toMatchObject({ status: "ok", text: "Noted (11 characters)." });
    expect(flushes()).toBe(0);

    rt.store("main").updateEntry(sessionKey, { contextUsedTokens: 3900 });
    expect((await rt.runTurn({ sessionKey, message: "something new" })).text).toBe("Noted (13 characters).");
    expect(flushes()).toBe(1);
  });
});
