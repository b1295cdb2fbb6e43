import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  importLegacySessions,
  listAgentIdsWithLegacySessions,
  openAgentStore,
  openAgentStoreReadOnly,
  type SessionReader,
} from "./index.js";

let stateDir: string;
let dir: string;
const S1 = "11111111-1111-4111-8111-111111111111";
const S2 = "22222222-2222-4222-8222-222222222222";
const S3 = "33333333-3333-4333-8333-333333333333";

const jsonl = (...lines: unknown[]) => `${lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n")}\n`;

beforeEach(() => {
  stateDir = mkdtempSync(path.join(tmpdir(), "openclaw-legacy-"));
  dir = path.join(stateDir, "agents", "main", "sessions");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, "sessions.json"),
    JSON.stringify({
      "agent:main:main": { sessionId: S1, updatedAt: 1_760_000_500_000, chatType: "direct", thinkingLevel: "high" },
      "agent:main:telegram:group:-100": { sessionId: S2, sessionStartedAt: 1_760_000_000_000, updatedAt: 1_760_000_900_000 },
      "agent:main:cron:broken": { note: "no session id" },
      "agent:main:direct:gone": { sessionId: S3, updatedAt: 1_760_000_100_000 },
    }),
  );
  writeFileSync(
    path.join(dir, `${S1}.jsonl`),
    jsonl(
      { type: "session", version: 3, id: S1, timestamp: "2025-10-09T08:00:00.000Z", cwd: "/w" },
      { type: "message", id: "a1", parentId: null, timestamp: "2025-10-09T08:00:01.000Z", message: { role: "user", content: "hi" } },
      "{not json",
      {
        type: "message",
        id: "a2",
        parentId: "a1",
        timestamp: "2025-10-09T08:00:02.000Z",
        message: { role: "assistant", content: "hello" },
      },
      { type: "label", id: "a3", parentId: "zz", timestamp: "2025-10-09T08:00:03.000Z" },
      { id: "no-type" },
    ),
  );
  // A version-1 transcript: no ids, no parents.
  writeFileSync(
    path.join(dir, `${S2}.jsonl`),
    jsonl(
      { type: "session", id: S2, timestamp: "2025-10-09T07:00:00.000Z" },
      { type: "message", timestamp: "2025-10-09T07:00:01.000Z", message: { role: "user", content: "group hi" } },
      { type: "message", timestamp: "2025-10-09T07:00:02.000Z", message: { role: "assistant", content: "group hello" } },
    ),
  );
});
afterEach(() => rmSync(stateDir, { recursive: true, force: true }));

function snapshot(): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir).map((f) => [
      f,
      createHash("sha256")
        .update(readFileSync(path.join(dir, f)))
        .digest("hex"),
    ]),
  );
}

function withReader<T>(fn: (r: SessionReader) => T): T {
  const r = openAgentStoreReadOnly({ stateDir })!;
  try {
    return fn(r);
  } finally {
    r.close();
  }
}

describe("importLegacySessions", () => {
  it("imports entries and transcripts, reports problems with file:line, and keeps the sources", () => {
    const before = snapshot();
    const report = importLegacySessions({ stateDir });
    expect(report).toMatchObject({ agentId: "main", imported: 3, skipped: 1, events: 4 + 3 + 1 });
    const s1 = path.join(dir, `${S1}.jsonl`);
    expect(report.problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^${s1.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:3: not valid JSON`)),
        expect.stringContaining(`${s1}:5: parentId "zz" is not an earlier entry`),
        expect.stringContaining(`${s1}:6: not a transcript entry`),
        expect.stringContaining('entry "agent:main:cron:broken" has no valid sessionId'),
        expect.stringContaining(`${S3}.jsonl: transcript missing`),
      ]),
    );
    expect(snapshot()).toEqual(before);

    withReader((r) => {
      const main = r.getEntry("agent:main:main")!;
      // No sessionStartedAt in sessions.json: taken from the JSONL header.
      expect(main).toMatchObject({ sessionId: S1, sessionStartedAt: Date.parse("2025-10-09T08:00:00.000Z"), thinkingLevel: "high" });
      const events = r.readEvents(S1).map((e) => [e.event.type, e.event.id, e.event.parentId]);
      expect(events).toEqual([
        ["session", S1, undefined],
        ["message", "a1", S1],
        ["message", "a2", "a1"],
        ["label", "a3", "a2"],
      ]);
      expect(r.getEntry("agent:main:telegram:group:-100")?.sessionStartedAt).toBe(1_760_000_000_000);
      const v1 = r.readEvents(S2).map((e) => e.event);
      expect(v1.map((e) => e.parentId)).toEqual([undefined, S2, v1[1]!.id]);
      expect(r.readEvents(S3).map((e) => e.event.type)).toEqual(["session"]);
      expect(r.getSession(S1)?.startReason).toBe("import");
    });
  });

  it("imports nothing twice", () => {
    importLegacySessions({ stateDir });
    const second = importLegacySessions({ stateDir });
    expect(second).toMatchObject({ imported: 0, skipped: 4, events: 0 });
    withReader((r) => expect(r.countEvents(S1)).toBe(4));
  });

  it("uses the gateway's open store and never replaces an entry the gateway already has", () => {
    const store = openAgentStore({ stateDir });
    const live = store.getOrCreateSession("agent:main:main");
    const report = importLegacySessions({ stateDir, store });
    expect(report.imported).toBe(3);
    expect(store.getEntry("agent:main:main")?.sessionId).toBe(live.sessionId);
    expect(store.getSession(S1)?.sessionKey).toBe("agent:main:main");
    store.close();
  });

  it("reports an unreadable sessions.json without throwing, and does nothing without one", () => {
    writeFileSync(path.join(dir, "sessions.json"), "{ broken");
    const report = importLegacySessions({ stateDir });
    expect(report.imported).toBe(0);
    expect(report.problems[0]).toContain(`${path.join(dir, "sessions.json")}:1: cannot read`);
    expect(importLegacySessions({ stateDir, agentId: "other" })).toEqual({
      agentId: "other",
      imported: 0,
      skipped: 0,
      events: 0,
      problems: [],
    });
  });

  it("lists the agents that have legacy sessions", () => {
    mkdirSync(path.join(stateDir, "agents", "work", "sessions"), { recursive: true });
    writeFileSync(path.join(stateDir, "agents", "work", "sessions", "sessions.json"), "{}");
    mkdirSync(path.join(stateDir, "agents", "empty", "agent"), { recursive: true });
    expect(listAgentIdsWithLegacySessions(stateDir)).toEqual(["main", "work"]);
    expect(listAgentIdsWithLegacySessions(path.join(stateDir, "nowhere"))).toEqual([]);
  });
});
