import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { UserError } from "../config/index.js";
import {
  agentStorePath,
  openAgentStore,
  openAgentStoreReadOnly,
  resolveSessionConfig,
  SCHEMA_VERSION,
  StoreLockedError,
  type SessionStore,
} from "./index.js";

let stateDir: string;
let store: SessionStore | undefined;
const KEY = "agent:main:telegram:direct:42";
const t0 = new Date(2026, 0, 5, 12, 0).getTime();
const msg = (text: string) => ({ type: "message", message: { role: "user", content: text } });

beforeEach(() => {
  stateDir = mkdtempSync(path.join(tmpdir(), "openclaw-sessions-"));
});
afterEach(() => {
  store?.close();
  store = undefined;
  rmSync(stateDir, { recursive: true, force: true });
});

function open(config: object = {}): SessionStore {
  store = openAgentStore({ stateDir, sessionConfig: resolveSessionConfig(config) });
  return store;
}

describe("sessions and entries", () => {
  it("creates the database at <stateDir>/agents/<agentId>/agent/openclaw-agent.sqlite with WAL", () => {
    const s = openAgentStore({ stateDir, agentId: "Work Bot" });
    expect(s.path).toBe(path.join(stateDir, "agents", "work-bot", "agent", "openclaw-agent.sqlite"));
    expect(s.agentId).toBe("work-bot");
    s.close();
    const db = new Database(agentStorePath(stateDir, "work-bot"), { readonly: true });
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
  });

  it("mints a session on first use and returns the same one afterwards", () => {
    const s = open();
    const first = s.getOrCreateSession(KEY.toUpperCase(), { now: t0, origin: { chatType: "direct", channel: "telegram" } });
    expect(first).toMatchObject({ key: KEY, isNew: true });
    expect(first.entry).toMatchObject({
      sessionId: first.sessionId,
      sessionStartedAt: t0,
      lastInteractionAt: t0,
      updatedAt: t0,
      chatType: "direct",
      channel: "telegram",
    });
    const again = s.getOrCreateSession(KEY, { now: t0 + 1000 });
    expect(again).toMatchObject({ sessionId: first.sessionId, isNew: false });
    expect(again.entry.lastInteractionAt).toBe(t0 + 1000);
    // The header is written with the session.
    expect(s.readEvents(first.sessionId)).toEqual([
      { seq: 1, event: { type: "session", version: 3, id: first.sessionId, timestamp: new Date(t0).toISOString() } },
    ]);
  });

  it("does not extend idle freshness on system turns (touch: false)", () => {
    const s = open({ session: { reset: { mode: "idle", idleMinutes: 10 } } });
    const a = s.getOrCreateSession(KEY, { now: t0 });
    s.getOrCreateSession(KEY, { now: t0 + 9 * 60_000, touch: false });
    const later = s.getOrCreateSession(KEY, { now: t0 + 10 * 60_000 });
    expect(later).toMatchObject({ isNew: true, resetReason: "idle", previousSessionId: a.sessionId });
  });

  it("resets daily at atHour and keeps the old rows", () => {
    const s = open({ session: { reset: { mode: "daily", atHour: 4 } } });
    const day1 = s.getOrCreateSession(KEY, { now: t0 });
    s.appendEvents(day1.sessionId, [msg("yesterday")], { now: t0 });
    s.updateEntry(KEY, { modelOverride: "gpt-x", inputTokens: 99 }, { now: t0 });
    const sameDay = s.getOrCreateSession(KEY, { now: new Date(2026, 0, 6, 3, 59).getTime() });
    expect(sameDay.sessionId).toBe(day1.sessionId);
    const next = s.getOrCreateSession(KEY, { now: new Date(2026, 0, 6, 4, 0).getTime() });
    expect(next).toMatchObject({ isNew: true, resetReason: "daily", previousSessionId: day1.sessionId });
    expect(next.entry.modelOverride).toBe("gpt-x");
    expect(next.entry.inputTokens).toBeUndefined();
    expect(s.countEvents(day1.sessionId)).toBe(2);
    expect(s.sessionHistory(KEY).map((r) => [r.sessionId, r.status, r.startReason])).toEqual([
      [day1.sessionId, "ended", "initial"],
      [next.sessionId, "active", "daily"],
    ]);
  });

  it("resetByChannel wins over session.reset", () => {
    const s = open({ session: { reset: { mode: "idle", idleMinutes: 1 }, resetByChannel: { telegram: { mode: "none" } } } });
    const a = s.getOrCreateSession(KEY, { now: t0 });
    expect(s.getOrCreateSession(KEY, { now: t0 + 3_600_000 }).sessionId).toBe(a.sessionId);
  });

  it("resetSession mints a new id for /new and keeps the transcript of the old one", () => {
    const s = open();
    const a = s.getOrCreateSession(KEY, { now: t0 });
    s.appendEvents(a.sessionId, [msg("hi")]);
    const b = s.resetSession(KEY, "/new", { now: t0 + 5 });
    expect(b).toMatchObject({ isNew: true, resetReason: "/new", previousSessionId: a.sessionId });
    expect(b.sessionId).not.toBe(a.sessionId);
    expect(s.getEntry(KEY)?.sessionId).toBe(b.sessionId);
    expect(s.readEvents(a.sessionId)).toHaveLength(2);
    expect(s.readEvents(b.sessionId).map((e) => e.event.type)).toEqual(["session"]);
    expect(s.getSession(a.sessionId)).toMatchObject({ status: "ended", endedAt: t0 + 5 });
    expect(s.getSession(b.sessionId)).toMatchObject({ previousSessionId: a.sessionId, startReason: "/new" });
  });

  it("updateEntry merges a patch, keeps the session id, and lists sessions", () => {
    const s = open();
    const a = s.getOrCreateSession(KEY, { now: t0 });
    const e = s.updateEntry(KEY, { sessionId: "hijack", displayName: "Alice", totalTokens: 10 }, { now: t0 + 7 });
    expect(e).toMatchObject({ sessionId: a.sessionId, displayName: "Alice", totalTokens: 10, updatedAt: t0 + 7 });
    expect(s.getEntry(KEY)).toEqual(e);
    s.getOrCreateSession("agent:main:main", { now: t0 + 1 });
    expect(s.listSessions().map((x) => [x.key, x.eventCount])).toEqual([
      [KEY, 1],
      ["agent:main:main", 1],
    ]);
    expect(() => s.updateEntry("agent:main:nope", {})).toThrow(/no session entry/);
  });
});

describe("transcript events", () => {
  it("assigns ids and seqs and chains parents by default", () => {
    const s = open();
    const { sessionId } = s.getOrCreateSession(KEY, { now: t0 });
    const [a, b] = s.appendEvents(sessionId, [msg("one"), msg("two")], { now: t0 });
    expect(a).toMatchObject({ seq: 2, parentId: sessionId, duplicate: false });
    expect(b).toMatchObject({ seq: 3, parentId: a!.id });
    const c = s.appendEvent(sessionId, { ...msg("branch"), id: "custom-id", parentId: a!.id, timestamp: "2026-01-01T00:00:00.000Z" });
    expect(c).toEqual({ id: "custom-id", seq: 4, parentId: a!.id, duplicate: false });
    const d = s.appendEvent(sessionId, msg("after branch"));
    expect(d.parentId).toBe("custom-id");
    expect(s.readTail(sessionId, 2).map((e) => [e.seq, e.event.id, e.event.parentId])).toEqual([
      [4, "custom-id", a!.id],
      [5, d.id, "custom-id"],
    ]);
    expect(s.readEvents(sessionId, { afterSeq: 1, limit: 2 }).map((e) => e.event.message)).toEqual([
      { role: "user", content: "one" },
      { role: "user", content: "two" },
    ]);
    expect(s.readTail(sessionId, 100)).toHaveLength(5);
    expect(s.readTail(sessionId, 0)).toEqual([]);
  });

  it("rejects a bad batch as a whole", () => {
    const s = open();
    const { sessionId } = s.getOrCreateSession(KEY, { now: t0 });
    expect(() => s.appendEvents(sessionId, [msg("ok"), { ...msg("bad"), parentId: "missing" }])).toThrow(/parentId "missing"/);
    expect(() =>
      s.appendEvents(sessionId, [
        { ...msg("x"), id: "dup" },
        { ...msg("y"), id: "dup" },
      ]),
    ).toThrow(/already exists/);
    expect(() => s.appendEvents(sessionId, [{ type: "session", id: "h2" }])).toThrow(/header/);
    expect(() => s.appendEvents("no-such-session", [msg("x")])).toThrow(/unknown session/);
    expect(s.countEvents(sessionId)).toBe(1);
    // The chain state was rolled back with the data: the next append still hangs off the header.
    expect(s.appendEvent(sessionId, msg("fine"))).toMatchObject({ seq: 2, parentId: sessionId });
  });

  it("stores an idempotency key once", () => {
    const s = open();
    const { sessionId } = s.getOrCreateSession(KEY, { now: t0 });
    const first = s.appendEvent(sessionId, { ...msg("hi"), idempotencyKey: "tg:42:1001" });
    const again = s.appendEvents(sessionId, [{ ...msg("hi"), idempotencyKey: "tg:42:1001" }, msg("next")]);
    expect(again[0]).toEqual({ ...first, duplicate: true });
    expect(again[1]).toMatchObject({ seq: 3, parentId: first.id, duplicate: false });
    expect(s.readEvents(sessionId).map((e) => e.event.idempotencyKey)).toEqual([undefined, undefined, undefined]);
  });

  it("continues the chain after reopening", () => {
    const s = open();
    const { sessionId } = s.getOrCreateSession(KEY, { now: t0 });
    const last = s.appendEvents(sessionId, [msg("a"), msg("b")])[1]!;
    s.close();
    const s2 = open();
    expect(s2.appendEvent(sessionId, msg("c"))).toMatchObject({ seq: 4, parentId: last.id });
  });
});

describe("single writer and schema versions", () => {
  it("refuses a second writer with a clear error, and allows one after close", () => {
    const s = open();
    let err: unknown;
    try {
      openAgentStore({ stateDir });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StoreLockedError);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toContain(s.path);
    expect((err as Error).message).toContain(`process ${process.pid}`);
    s.close();
    store = openAgentStore({ stateDir });
  });

  it("lets readers in while the writer works, and reports a missing database as null", () => {
    expect(openAgentStoreReadOnly({ stateDir })).toBeNull();
    const s = open();
    const { sessionId } = s.getOrCreateSession(KEY, { now: t0 });
    const reader = openAgentStoreReadOnly({ stateDir })!;
    s.appendEvents(sessionId, [msg("visible")]);
    expect(reader.readTail(sessionId, 1)[0]?.event.message).toEqual({ role: "user", content: "visible" });
    expect(reader.getEntry(KEY)?.sessionId).toBe(sessionId);
    expect("appendEvents" in reader).toBe(false);
    reader.close();
  });

  it("refuses a database from a newer openclaw, naming the file, both versions and the fix", () => {
    open().close();
    store = undefined;
    const file = agentStorePath(stateDir);
    const db = new Database(file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
    db.close();
    for (const attempt of [() => openAgentStore({ stateDir }), () => openAgentStoreReadOnly({ stateDir })]) {
      let err: unknown;
      try {
        attempt();
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(UserError);
      const text = (err as Error).message;
      expect(text).toContain(file);
      expect(text).toContain(`version ${SCHEMA_VERSION + 5}`);
      expect(text).toContain(`up to ${SCHEMA_VERSION}`);
      expect(text).toMatch(/upgrade openclaw/);
    }
    // Refusal left the file as it was, and the writer lock was released.
    const check = new Database(file, { readonly: true });
    expect(check.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION + 5);
    check.close();
  });
});

describe("transaction", () => {
  it("commits a session, its entry and its first events together, or none of them when the function throws", () => {
    const s = open();
    expect(() =>
      s.transaction(() => {
        const { sessionId } = s.getOrCreateSession(KEY, { now: t0 });
        s.appendEvents(sessionId, [msg("hello")], { now: t0 });
        throw new Error("crash before commit");
      }),
    ).toThrow("crash before commit");
    expect(s.getEntry(KEY)).toBeUndefined();

    const sessionId = s.transaction(() => {
      const session = s.getOrCreateSession(KEY, { now: t0 });
      s.appendEvents(session.sessionId, [msg("hello")], { now: t0 });
      return session.sessionId;
    });
    s.close();
    const reader = openAgentStoreReadOnly({ stateDir })!;
    expect(reader.getEntry(KEY)?.sessionId).toBe(sessionId);
    expect(reader.readEvents(sessionId).map((e) => e.event.type)).toEqual(["session", "message"]);
    reader.close();
  });
});

describe("group commit", () => {
  const openGrouped = () => {
    store = openAgentStore({ stateDir, groupCommit: true });
    return store;
  };

  it("shows other connections the writes of one event-loop turn only once committed() resolves", async () => {
    const s = openGrouped();
    const a = s.getOrCreateSession(`${KEY}:a`, { now: t0 });
    const b = s.getOrCreateSession(`${KEY}:b`, { now: t0 });
    s.appendEvents(a.sessionId, [msg("to a")], { now: t0 });
    s.appendEvents(b.sessionId, [msg("to b")], { now: t0 });
    const reader = openAgentStoreReadOnly({ stateDir })!;
    try {
      // The writer sees its own writes at once; a reader (another process) not before the commit.
      expect(s.readEvents(a.sessionId)).toHaveLength(2);
      expect(reader.getEntry(`${KEY}:a`)).toBeUndefined();
      await s.committed();
      expect(reader.readEvents(a.sessionId).map((e) => e.event.type)).toEqual(["session", "message"]);
      expect(reader.readEvents(b.sessionId).map((e) => e.event.type)).toEqual(["session", "message"]);
    } finally {
      reader.close();
    }
  });

  it("rolls back a failing write alone and commits the rest of its batch", async () => {
    const s = openGrouped();
    const { sessionId } = s.getOrCreateSession(KEY, { now: t0 });
    s.appendEvents(sessionId, [msg("kept")], { now: t0 });
    expect(() => s.appendEvents(sessionId, [msg("fine"), { type: "" }], { now: t0 })).toThrow("has no type");
    s.appendEvents(sessionId, [msg("also kept")], { now: t0 });
    await s.committed();
    s.close();
    const reader = openAgentStoreReadOnly({ stateDir })!;
    const texts = reader.readEvents(sessionId).map((e) => (e.event as { message?: { content: string } }).message?.content);
    reader.close();
    expect(texts).toEqual([undefined, "kept", "also kept"]);
  });

  it("commits what is pending when the store closes", () => {
    const s = openGrouped();
    const { sessionId } = s.getOrCreateSession(KEY, { now: t0 });
    s.appendEvents(sessionId, [msg("last words")], { now: t0 });
    s.close();
    const reader = openAgentStoreReadOnly({ stateDir })!;
    expect(reader.countEvents(sessionId)).toBe(2);
    reader.close();
  });
});
