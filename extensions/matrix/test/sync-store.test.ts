// The sync position: written only after every message of a batch was handed to core, read back
// at the next start (with the rooms and m.direct), frozen when core could not record a message.
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ISyncResponse } from "matrix-js-sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PersistedSyncStore, SYNC_FILE } from "../src/index.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "mx-sync-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function batch(nextBatch: string, body: string): ISyncResponse {
  return {
    next_batch: nextBatch,
    account_data: { events: [{ type: "m.direct", content: { "@alice:example.org": ["!dm:example.org"] } }] },
    rooms: {
      join: {
        "!dm:example.org": {
          timeline: {
            events: [
              {
                type: "m.room.message",
                event_id: `$${nextBatch}`,
                sender: "@alice:example.org",
                origin_server_ts: 1,
                content: { msgtype: "m.text", body },
              },
            ],
            limited: false,
            prev_batch: "p",
          },
          state: { events: [] },
          ephemeral: { events: [] },
          account_data: { events: [] },
          unread_notifications: {},
          summary: {},
        },
      },
      invite: {},
      leave: {},
      knock: {},
    },
  } as unknown as ISyncResponse;
}

describe("PersistedSyncStore", () => {
  it("advances only after the batch's messages settle, and a new store resumes there with m.direct", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const store = new PersistedSyncStore({ dir, settle: () => gate });
    expect(await store.load()).toBeNull();
    const saving = store.setSyncData(batch("s1", "hello"));
    await new Promise((resolve) => setImmediate(resolve));
    expect(store.position).toBeNull();
    expect(await new PersistedSyncStore({ dir, settle: async () => undefined }).load()).toBeNull();
    release();
    await saving;
    expect(store.position).toBe("s1");
    expect((await stat(path.join(dir, SYNC_FILE))).mode & 0o777).toBe(0o600);

    const restarted = new PersistedSyncStore({ dir, settle: async () => undefined });
    expect(await restarted.load()).toBe("s1");
    expect(await restarted.getSavedSyncToken()).toBe("s1");
    const saved = await restarted.getSavedSync();
    expect(saved?.accountData).toEqual([{ type: "m.direct", content: { "@alice:example.org": ["!dm:example.org"] } }]);
    expect(Object.keys(saved?.roomsData.join ?? {})).toEqual(["!dm:example.org"]);
  });

  it("a batch core could not record freezes the position for the rest of the session", async () => {
    let fail = false;
    const store = new PersistedSyncStore({
      dir,
      settle: async () => {
        if (fail) throw new Error("gateway stopping");
      },
    });
    await store.setSyncData(batch("s1", "one"));
    fail = true;
    await store.setSyncData(batch("s2", "two"));
    fail = false;
    await store.setSyncData(batch("s3", "three"));
    expect(store.position).toBe("s1");
    expect(await new PersistedSyncStore({ dir, settle: async () => undefined }).load()).toBe("s1");
  });
});
