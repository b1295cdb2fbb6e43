/**
 * The SDK store that keeps the /sync position on disk, and advances it only once every message
 * of a batch was handed to core. matrix-js-sdk awaits `setSyncData(batch)` after it has emitted the
 * batch's events; this store first awaits `settle()` (the plugin's pending `ctx.receive` calls for
 * those events), then folds the batch into a `SyncAccumulator` and writes it (rooms, account data
 * such as `m.direct`, and `next_batch`) atomically. At the next start the SDK reads it back
 * through `getSavedSync`, so a restart resumes at the last handled batch: nothing is replayed, and
 * what arrived while the gateway was down comes in the next /sync. When `settle()` rejects (core
 * could not record a message: the gateway is stopping), the position freezes for the rest of the
 * session, so that batch and every later one come again at the next start.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { ISyncResponse } from "matrix-js-sdk";
import { MemoryStore, SyncAccumulator } from "./matrix-sdk.js";
import { ensurePrivateDir, writePrivateFileAtomic } from "./crypto/private-file.js";

/** The saved sync, as `getSavedSync` returns it. */
type SavedSync = NonNullable<Awaited<ReturnType<MemoryStore["getSavedSync"]>>>;

/** The file the sync position and room state are kept in, under the account's credentials folder. */
export const SYNC_FILE = "sync.json";

/** Options of `PersistedSyncStore`. */
export interface PersistedSyncStoreOptions {
  /** The account's credentials folder (the file is `<dir>/sync.json`). */
  dir: string;
  /** Resolves once every event the SDK emitted for the batch with this `next_batch` was handled. */
  settle(nextBatch: string): Promise<void>;
  /** Timeline events kept per room (default 20): enough context for the SDK, never answered again. */
  maxTimelineEntries?: number;
}

/** A matrix-js-sdk store whose sync position survives restarts and only moves past handled messages. */
export class PersistedSyncStore extends MemoryStore {
  private readonly accumulator: SyncAccumulator;
  private readonly file: string;
  private saved: SavedSync | null = null;
  private writes: Promise<void> = Promise.resolve();
  private frozen = false;

  constructor(private readonly options: PersistedSyncStoreOptions) {
    super();
    this.file = path.join(options.dir, SYNC_FILE);
    this.accumulator = new SyncAccumulator({ maxTimelineEntries: options.maxTimelineEntries ?? 20 });
  }

  /** Reads the saved sync from disk (call before `startClient`); a missing or damaged file means a first start. */
  async load(): Promise<string | null> {
    try {
      const data = JSON.parse(await readFile(this.file, "utf8")) as SavedSync;
      if (typeof data.nextBatch !== "string" || data.nextBatch === "") return null;
      this.accumulator.accumulate(
        { next_batch: data.nextBatch, rooms: data.roomsData, account_data: { events: data.accountData } } as ISyncResponse,
        true,
      );
      this.saved = this.accumulator.getJSON() as SavedSync;
      return data.nextBatch;
    } catch {
      return null;
    }
  }

  /** The `next_batch` of the last batch whose messages were all handled (null on a first start). */
  get position(): string | null {
    return this.saved?.nextBatch ?? null;
  }

  override async getSavedSync(): Promise<SavedSync | null> {
    return this.saved ? structuredClone(this.saved) : null;
  }

  override async getSavedSyncToken(): Promise<string | null> {
    return this.saved?.nextBatch ?? null;
  }

  override async setSyncData(syncData: ISyncResponse): Promise<void> {
    if (this.frozen) return;
    try {
      await this.options.settle(syncData.next_batch);
    } catch {
      this.frozen = true;
      return;
    }
    this.accumulator.accumulate(syncData);
    const json = this.accumulator.getJSON(true) as SavedSync;
    this.saved = json;
    const write = this.writes.then(() => this.write(json));
    this.writes = write.catch(() => undefined);
    await write;
  }

  /** Waits for the last write to reach the disk. */
  async flush(): Promise<void> {
    await this.writes;
  }

  private async write(json: SavedSync): Promise<void> {
    await ensurePrivateDir(this.options.dir);
    await writePrivateFileAtomic(this.file, JSON.stringify(json));
  }
}
