import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { agentStorePath, openAgentStore, type SessionStore } from "../../sessions/index.js";
import { SessionEventCache } from "./event-cache.js";
import { compactedHistory, compactionEvent } from "./history.js";

let stateDir: string;
let store: SessionStore | undefined;
const KEY = "agent:main:loopback:direct:ada";

const open = (): SessionStore => {
  store = openAgentStore({ stateDir });
  return store;
};
const reopen = (): SessionStore => {
  store?.close();
  return open();
};
const say = (s: SessionStore, sessionId: string, text: string) =>
  s.appendEvents(sessionId, [{ type: "message", message: { role: "user", content: text } }]);
const texts = (events: readonly { event: unknown }[]) =>
  events.map((e) => (e.event as { message?: { content?: string } }).message?.content ?? (e.event as { type: string }).type);

beforeEach(() => {
  stateDir = mkdtempSync(path.join(tmpdir(), "openclaw-event-cache-"));
});
afterEach(() => {
  store?.close();
  store = undefined;
  rmSync(stateDir, { recursive: true, force: true });
});

describe("SessionEventCache", () => {
  it("returns what the database holds after another writer replaced it with an older copy and appended other events", () => {
    const cache = new SessionEventCache();
    let s = open();
    const { sessionId } = s.getOrCreateSession(KEY);
    say(s, sessionId, "one");
    s.close(); // checkpoints the WAL into the file
    const file = agentStorePath(stateDir, "main");
    copyFileSync(file, `${file}.bak`);
    s = open();
    say(s, sessionId, "two");
    say(s, sessionId, "three");
    expect(texts(cache.read(s, sessionId))).toEqual(["session", "one", "two", "three"]);
    // The gateway lets go of the database; another process restores the backup and writes on.
    s.close();
    copyFileSync(`${file}.bak`, file);
    s = open();
    say(s, sessionId, "four");
    say(s, sessionId, "five");
    s = reopen();
    // Same seqs as the cached "two" and "three": only the ids tell them apart.
    expect(texts(cache.read(s, sessionId))).toEqual(["session", "one", "four", "five"]);
    expect(texts(cache.read(s, sessionId))).toEqual(texts(s.readEvents(sessionId)));
  });

  it("returns the whole transcript when the database now holds fewer events than were cached", () => {
    const cache = new SessionEventCache();
    let s = open();
    const { sessionId } = s.getOrCreateSession(KEY);
    s.close();
    const file = agentStorePath(stateDir, "main");
    copyFileSync(file, `${file}.bak`);
    s = open();
    say(s, sessionId, "one");
    say(s, sessionId, "two");
    expect(cache.read(s, sessionId)).toHaveLength(3);
    s.close();
    copyFileSync(`${file}.bak`, file);
    s = open();
    expect(texts(cache.read(s, sessionId))).toEqual(["session"]);
  });

  it("reads the events appended since its last read, by this store or a later writer", () => {
    const cache = new SessionEventCache();
    let s = open();
    const { sessionId } = s.getOrCreateSession(KEY);
    say(s, sessionId, "one");
    const first = cache.read(s, sessionId);
    expect(texts(first)).toEqual(["session", "one"]);
    s = reopen();
    say(s, sessionId, "two");
    const second = cache.read(s, sessionId);
    expect(texts(second)).toEqual(["session", "one", "two"]);
    // Nothing re-read: the cached events are the same objects.
    expect(second[1]).toBe(first[1]);
  });

  it("once a session was compacted, keeps only what the model still sees, and still notices a replaced database", () => {
    const cache = new SessionEventCache();
    let s = open();
    const { sessionId } = s.getOrCreateSession(KEY);
    for (const text of ["one", "two", "three"]) say(s, sessionId, text);
    s.close();
    const file = agentStorePath(stateDir, "main");
    copyFileSync(file, `${file}.bak`);
    s = open();
    const compact = (firstKept: string) =>
      s.appendEvents(sessionId, [
        compactionEvent({
          summary: "they counted",
          firstKeptEntryId: s.readEvents(sessionId).find((e) => texts([e])[0] === firstKept)!.event.id as string,
          tokensBefore: 100,
          details: { reason: "manual", tokensAfter: 10, summarizedMessages: 2 },
        }),
      ]);
    expect(cache.read(s, sessionId)).toHaveLength(4);
    compact("three");
    say(s, sessionId, "four");
    const after = cache.read(s, sessionId);
    expect(texts(after)).toEqual(["three", "compaction", "four"]);
    expect(compactedHistory(after)).toEqual(compactedHistory(s.readEvents(sessionId)));
    // The next read only appends (the kept events are the same objects).
    say(s, sessionId, "five");
    const next = cache.read(s, sessionId);
    expect(texts(next)).toEqual(["three", "compaction", "four", "five"]);
    expect(next[0]).toBe(after[0]);
    // A second compaction moves the boundary on.
    compact("five");
    expect(texts(cache.read(s, sessionId))).toEqual(["five", "compaction"]);
    // Another process restores the copy from before any compaction and writes on: read again whole.
    s.close();
    copyFileSync(`${file}.bak`, file);
    s = open();
    say(s, sessionId, "six");
    s = reopen();
    expect(texts(cache.read(s, sessionId))).toEqual(["session", "one", "two", "three", "six"]);
  });

  it("the conversation of each turn, built on from the previous turn's, is the one built from the whole transcript", () => {
    const cache = new SessionEventCache();
    const s = open();
    const { sessionId } = s.getOrCreateSession(KEY);
    const append = (...events: Parameters<SessionStore["appendEvents"]>[1]) => s.appendEvents(sessionId, events);
    const call = (id: string) => ({
      type: "message",
      message: { role: "assistant", content: [{ type: "toolCall", id, name: "read", arguments: { path: `${id}.txt` } }] },
    });
    const result = (id: string) => ({
      type: "message",
      message: { role: "toolResult", toolCallId: id, toolName: "read", content: [{ type: "text", text: `text of ${id}` }] },
    });
    const answer = (text: string) => ({ type: "message", message: { role: "assistant", content: [{ type: "text", text }] } });
    const steps: (() => unknown)[] = [
      () => say(s, sessionId, "read a"),
      () => append(call("a")), // dangling: the synthetic error result closes it for now
      () => append(result("a"), answer("a says hi")),
      () => say(s, sessionId, "read b and c"),
      () => append(call("b")),
      () => say(s, sessionId, "steering while b runs"), // b is never answered: its error result stays
      () => append(result("b")), // too late: dropped
      () => append(answer("done")),
      () =>
        append(
          compactionEvent({
            summary: "they read files",
            firstKeptEntryId: s.readEvents(sessionId).find((e) => texts([e])[0] === "read b and c")!.event.id as string,
            tokensBefore: 100,
            details: { reason: "manual", tokensAfter: 10, summarizedMessages: 4 },
          }),
        ),
      () => say(s, sessionId, "after the compaction"),
      () => append(call("d"), result("d"), answer("d read")),
    ];
    const conversations = [];
    for (const step of steps) {
      step();
      const incremental = compactedHistory(cache.read(s, sessionId));
      expect(incremental).toEqual(compactedHistory([...s.readEvents(sessionId)]));
      conversations.push(incremental);
    }
    expect(conversations[1]).toContainEqual(expect.objectContaining({ role: "tool", toolCallId: "a", isError: true }));
    expect(conversations[2]).toContainEqual(expect.objectContaining({ role: "tool", toolCallId: "a", content: "text of a" }));
    expect(conversations[2]!.filter((m) => m.role === "tool")).toHaveLength(1);
    expect(conversations[8]![0]!.content).toContain("they read files");
    expect(conversations.at(-1)!.at(-1)).toEqual({ role: "assistant", content: "d read" });
  });

  it("a conversation kept for an events array starts over when a compaction entry is appended to it", () => {
    const s = open();
    const { sessionId } = s.getOrCreateSession(KEY);
    for (const text of ["one", "two", "three"]) say(s, sessionId, text);
    const events = [...s.readEvents(sessionId)];
    expect(compactedHistory(events).map((m) => m.content)).toEqual(["one", "two", "three"]);
    const [entry] = s.appendEvents(sessionId, [
      compactionEvent({
        summary: "they counted",
        firstKeptEntryId: events.at(-1)!.event.id as string,
        tokensBefore: 100,
        details: { reason: "manual", tokensAfter: 10, summarizedMessages: 2 },
      }),
    ]);
    events.push(s.readEvents(sessionId, { afterSeq: entry!.seq - 1 })[0]!);
    expect(compactedHistory(events).map((m) => m.content)).toEqual([expect.stringContaining("they counted"), "three"]);
  });
});
