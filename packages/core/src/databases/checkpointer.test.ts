import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { agentStorePath, openAgentStore, type SessionStore } from "../sessions/index.js";
import { openStateDb } from "../state/index.js";
import { checkpointInBackground } from "./checkpointer.js";

let stateDir: string;
let store: SessionStore | undefined;

beforeEach(() => {
  stateDir = mkdtempSync(path.join(tmpdir(), "openclaw-checkpointer-"));
});
afterEach(() => {
  store?.close();
  store = undefined;
  rmSync(stateDir, { recursive: true, force: true });
});

describe("background WAL checkpoints (session stores with groupCommit)", () => {
  it("copies committed pages into the database file without the writer doing it, and lets go of the file on close", async () => {
    store = openAgentStore({ stateDir, groupCommit: true });
    const file = agentStorePath(stateDir, "main");
    const before = statSync(file).size;
    const { sessionId } = store.getOrCreateSession("agent:main:main");
    // About 200 pages: far below the writer's own checkpoint mark.
    for (let i = 0; i < 200; i++) {
      store.appendEvents(sessionId, [{ type: "message", message: { role: "user", content: `${i} ${"x".repeat(3000)}` } }]);
      await store.committed();
    }
    await vi.waitFor(() => expect(statSync(file).size).toBeGreaterThan(before + 100 * 4096), { timeout: 10_000, interval: 50 });
    store.close();
    store = undefined;
    // The last connection to close removes the WAL: the worker's is closed already.
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  it("takes a database registered without start along once a session store starts the worker", async () => {
    const db = openStateDb(stateDir);
    try {
      checkpointInBackground(db, { start: false });
      db.exec("CREATE TABLE filler (x TEXT)");
      const insert = db.prepare("INSERT INTO filler (x) VALUES (?)");
      for (let i = 0; i < 200; i++) insert.run("y".repeat(3000));
      const before = statSync(db.name).size;
      store = openAgentStore({ stateDir, groupCommit: true });
      await vi.waitFor(() => expect(statSync(db.name).size).toBeGreaterThan(before + 100 * 4096), { timeout: 10_000, interval: 50 });
    } finally {
      db.close();
    }
    expect(existsSync(`${db.name}-wal`)).toBe(false);
  });
});
