import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { InboundMessage } from "@openclaw/plugin-sdk";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStateDb, type StateDb } from "../state/index.js";
import { inboundMessage } from "./__fixtures__/messages.js";
import { InboxStore } from "./store.js";

let dir: string;
let db: StateDb;
let now: number;
let store: InboxStore;
let errors: string[];

const message = (messageId: string, chatId = "42", text = `text of ${messageId}`): InboundMessage =>
  inboundMessage({ messageId, chat: { kind: "direct", id: chatId }, sender: { id: chatId, name: "Ann" }, text, receivedAt: 1_000 });

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "openclaw-inbox-"));
  db = openStateDb(dir);
  now = 5_000;
  errors = [];
  store = new InboxStore(
    db,
    () => now,
    (err) => errors.push((err as Error).message),
  );
});
afterEach(() => {
  store.flush();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("InboxStore", () => {
  it("records a message once: the platform delivering it again gets nothing back, whatever its state", () => {
    const row = store.record(message("7"))!;
    expect(row).toMatchObject({ channel: "chat", accountId: "default", chatId: "42", messageId: "7", state: "pending", attempts: 1 });
    expect(row.message).toEqual(message("7"));
    expect(row.receivedAt).toBe(5_000);
    expect(store.record(message("7", "42", "edited text"))).toBeUndefined();
    store.settle(row.id, "answered", "replied");
    expect(store.record(message("7"))).toBeUndefined();
    expect(store.get(row.id)!.message.text).toBe("text of 7");
  });

  it("tells apart messages with the same id in different chats (platforms number them per chat)", () => {
    const a = store.record(message("7", "42"))!;
    const b = store.record(message("7", "43"))!;
    expect(b.id).not.toBe(a.id);
    expect(store.find("chat", "default", "43", "7")?.id).toBe(b.id);
  });

  it("lists pending messages in arrival order; settled ones leave the list and keep their first outcome", () => {
    const ids = ["1", "2", "3", "4"].map((m) => store.record(message(m, m === "3" ? "99" : "42"))!.id);
    store.settle(ids[1]!, "answered", "replied");
    store.settle(ids[3]!, "dropped", "not allowed");
    store.settle(ids[3]!, "answered", "a second outcome is ignored");
    expect(store.pending().map((r) => r.messageId)).toEqual(["1", "3"]);
    expect(store.get(ids[3]!)).toMatchObject({ state: "dropped", reason: "not allowed" });
  });

  it("notes the start of the run answering a message once, and counts attempts of pending messages only", () => {
    const row = store.record(message("1"))!;
    now = 6_000;
    store.markStarted(row.id);
    now = 7_000;
    store.markStarted(row.id);
    expect(store.get(row.id)!.startedAt).toBe(6_000);
    expect(store.beginAttempt(row.id)).toBe(2);
    store.settle(row.id, "answered", "replied");
    expect(store.beginAttempt(row.id)).toBe(2);
  });

  it("prunes settled messages after 7 days and keeps pending ones however old", () => {
    const old = store.record(message("1"))!;
    const waiting = store.record(message("2"))!;
    store.settle(old.id, "answered", "replied");
    now += 7 * 24 * 3600_000 + 1;
    expect(store.prune()).toBe(1);
    expect(store.get(old.id)).toBeUndefined();
    expect(store.get(waiting.id)).toBeDefined();
    // Pruned: the same message is new again (a platform would not redeliver it that late).
    expect(store.record(message("1"))).toBeDefined();
  });

  it("journals the messages of a reply in order, with the text they show; deleted ones drop out", () => {
    const row = store.record(message("1"))!;
    store.addReplyMessage(row.id, "m1", "Hel");
    store.addReplyMessage(row.id, "m2", "second");
    store.updateReplyMessage(row.id, "m1", "Hello there");
    store.deleteReplyMessage(row.id, "m2");
    store.addReplyMessage(row.id, "m3", "third");
    expect(store.replyMessages(row.id)).toEqual([
      { seq: 1, messageId: "m1", text: "Hello there" },
      { seq: 3, messageId: "m3", text: "third" },
    ]);
    expect(store.replyMessages(store.record(message("2"))!.id)).toEqual([]);
  });

  describe("bookkeeping written behind", () => {
    /** What another connection (another process) sees in the file. */
    const onDisk = (id: number) => {
      const other = new Database(db.name, { readonly: true });
      try {
        return other.prepare("SELECT state, reason, started_at AS startedAt FROM inbox WHERE id = ?").get(id);
      } finally {
        other.close();
      }
    };
    const nextPass = () => new Promise((resolve) => setImmediate(resolve));

    it("commits the start and the outcome of a handling by the next event-loop pass; the store's own reads see them at once", async () => {
      const row = store.record(message("1"))!;
      store.markStarted(row.id);
      store.settle(row.id, "answered", "replied");
      expect(store.get(row.id)).toMatchObject({ state: "answered", startedAt: 5_000 });
      const other = store.record(message("2"))!;
      store.settle(other.id, "dropped", "not allowed");
      expect(onDisk(other.id)).toEqual({ state: "pending", reason: null, startedAt: null });
      await nextPass();
      expect(onDisk(other.id)).toEqual({ state: "dropped", reason: "not allowed", startedAt: null });
      expect(errors).toEqual([]);
    });

    it("commits queued bookkeeping, in order, together with the next write that must be on disk when it returns", () => {
      const row = store.record(message("1"))!;
      store.markStarted(row.id);
      expect(onDisk(row.id)).toMatchObject({ startedAt: null });
      store.addReplyMessage(row.id, "m1", "Hello");
      expect(onDisk(row.id)).toMatchObject({ startedAt: 5_000 });
      store.settle(row.id, "answered", "replied");
      const next = store.record(message("2"))!;
      expect(onDisk(row.id)).toMatchObject({ state: "answered" });
      expect(onDisk(next.id)).toMatchObject({ state: "pending" });
    });

    it("reports a queued write that fails and still commits the others", async () => {
      db.exec(`CREATE TRIGGER refuse BEFORE UPDATE ON inbox WHEN NEW.reason = 'refused'
                 BEGIN SELECT RAISE(ABORT, 'this outcome is refused'); END`);
      const a = store.record(message("1"))!;
      const b = store.record(message("2"))!;
      store.settle(a.id, "answered", "refused");
      store.settle(b.id, "answered", "replied");
      await nextPass();
      expect(errors).toEqual(["this outcome is refused"]);
      expect(onDisk(a.id)).toMatchObject({ state: "pending" });
      expect(onDisk(b.id)).toMatchObject({ state: "answered" });
    });

    it("reports a failing queued write once when the write it was committed with fails too", () => {
      db.exec(`CREATE TRIGGER refuse BEFORE UPDATE ON inbox WHEN NEW.reason = 'refused'
                 BEGIN SELECT RAISE(ABORT, 'this outcome is refused'); END;
               CREATE TRIGGER refuse_reply BEFORE INSERT ON inbox_reply_messages WHEN NEW.text = 'refused'
                 BEGIN SELECT RAISE(ABORT, 'this reply is refused'); END`);
      const a = store.record(message("1"))!;
      const b = store.record(message("2"))!;
      store.settle(a.id, "answered", "refused");
      store.settle(b.id, "answered", "replied");
      expect(() => store.addReplyMessage(b.id, "m1", "refused")).toThrow("this reply is refused");
      expect(errors).toEqual(["this outcome is refused"]);
      expect(onDisk(a.id)).toMatchObject({ state: "pending" });
      expect(onDisk(b.id)).toMatchObject({ state: "answered" });
    });

    it("reports, rather than drops in silence, bookkeeping still queued when the database closed", async () => {
      const row = store.record(message("1"))!;
      store.settle(row.id, "answered", "replied");
      db.close();
      await nextPass();
      expect(errors).toEqual(["1 inbox write(s) were lost: the state database was closed before they were committed"]);
      db = openStateDb(dir);
    });
  });
});
