// The writer side of an agent's session database.
//
// Durability: the connection runs journal_mode=WAL with synchronous=NORMAL. A committed
// transaction then survives a crash of the process (SIGKILL included: the WAL is in the OS page
// cache), but the newest commits can be lost on power failure or an OS crash; the file is never
// corrupted. `appendEvent` (one event, "acknowledged" means durable) switches to
// synchronous=FULL for its transaction, so the WAL is fsynced before it returns; `appendEvents`
// does the same only with `durable: true`.
//
// Single writer: `openAgentStore` takes an OS-level lock (see writer-lock.ts) that a second
// opener in any process is refused, and that dies with its process. Other processes read through
// `openAgentStoreReadOnly`.
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { normalizeAgentId } from "../agents/index.js";
import { DatabaseCorruptError, damageOf, isCorruptionError, sessionDatabase } from "../databases/index.js";
import { checkpointInBackground } from "../databases/checkpointer.js";
import { GroupCommit } from "./group-commit.js";
import { newTimeOrderedId } from "./ids.js";
import { resolveSessionConfig, type SessionConfig } from "./config.js";
import { agentStorePath } from "./paths.js";
import { SqliteSessionReader, type SessionReader } from "./reader.js";
import { evaluateFreshness, resolveResetPolicy, type ResetPolicy } from "./reset-policy.js";
import { normalizeStoreKey } from "./rows.js";
import { assertSchemaNotNewer, migrate } from "./schema.js";
import { TranscriptWriter } from "./transcript-writer.js";
import type { AppendResult, SessionEntry, SessionOrigin, TranscriptEventInput } from "./types.js";
import { StoreLockedError, tryAcquireWriterLock, type WriterLock } from "./writer-lock.js";

/** The result of resolving or resetting a key's session. */
export interface SessionResolution {
  key: string;
  sessionId: string;
  entry: SessionEntry;
  /** True when this call minted the session (first use, automatic reset, or `resetSession`). */
  isNew: boolean;
  /** Why a new session replaced an older one: `daily`, `idle`, or the reason given to `resetSession`. */
  resetReason?: string;
  previousSessionId?: string;
}

export interface GetOrCreateOptions {
  /** Default `Date.now()` (or the store's clock). */
  now?: number;
  /** Recorded on the session row and entry (chat type, channel, display name, header cwd). */
  origin?: SessionOrigin;
  /**
   * Default true: this turn is a user interaction and moves `lastInteractionAt`. Pass false for
   * system, heartbeat and cron turns, which must not keep an idle session alive.
   */
  touch?: boolean;
  /** Overrides the policy resolved from the store's `session` config. */
  resetPolicy?: ResetPolicy;
}

/** The single writer of one agent's session database. Owned by the gateway process. */
export interface SessionStore extends SessionReader {
  /**
   * The `session` config the store applies, resolved when the store is opened. The gateway reads
   * its config once at start, so a changed `session` block applies after a restart.
   */
  sessionConfig: SessionConfig;
  /**
   * Returns the current session of `key`, minting one when the key is new or its session is
   * stale under the reset policy at `now` (the old rows are kept; the entry moves to the new id).
   */
  getOrCreateSession(key: string, options?: GetOrCreateOptions): SessionResolution;
  /**
   * Mints a new session id for `key` (e.g. on `/new` or `/reset`; `reason` is recorded), ends
   * the old session and keeps its rows. Settings such as model and thinking overrides carry
   * over; token counters start again. Works for a key that has no session yet.
   */
  resetSession(key: string, reason: string, options?: { now?: number; origin?: SessionOrigin }): SessionResolution;
  /**
   * Appends events in one transaction (synchronous=NORMAL: survives a process crash; the last
   * commits may be lost on power failure unless `durable: true`). Returns one result per input,
   * in order. Throws, writing nothing, on an unknown session, a duplicate event id, or a parentId
   * that is not in the session.
   */
  appendEvents(sessionId: string, events: readonly TranscriptEventInput[], options?: { now?: number; durable?: boolean }): AppendResult[];
  /** Appends one event in its own fsynced transaction (synchronous=FULL): once it returns, the event survives a crash or power loss. */
  appendEvent(sessionId: string, event: TranscriptEventInput, options?: { now?: number }): AppendResult;
  /**
   * Merges `patch` into the key's entry (`sessionId` cannot change; `updatedAt` becomes `now`
   * unless the patch sets it). Throws when the key has no entry.
   */
  updateEntry(key: string, patch: Partial<SessionEntry>, options?: { now?: number }): SessionEntry;
  /**
   * Runs `fn` in one transaction: the store's writes inside it (each otherwise its own
   * transaction) commit together, or not at all when `fn` throws (the error is rethrown). Nested
   * calls join the outer one. `fn` must be synchronous.
   */
  transaction<T>(fn: () => T): T;
  /**
   * Resolves once every write made so far is committed; rejects when that commit failed (the
   * writes of that batch are then gone). With `groupCommit` (see {@link OpenAgentStoreOptions})
   * writes are committed together once per event-loop turn, so whatever must be durable before
   * it is acknowledged or acted on awaits this first; without it, writes commit as they return
   * and this resolves at once.
   */
  committed(): Promise<void>;
  /** Imports a finished session (used by the legacy importer); see `ImportedSession`. */
  importSession(session: ImportedSession): { imported: boolean; entrySet: boolean };
}

/** A complete session to import in one transaction. */
export interface ImportedSession {
  key: string;
  entry: SessionEntry;
  /** Must start with the `session` header whose id is `entry.sessionId`. */
  events: readonly TranscriptEventInput[];
  /** Where it came from, recorded for idempotency (`legacy_imports`). */
  sourcePath: string;
  problemCount?: number;
  now?: number;
}

export interface OpenAgentStoreOptions {
  stateDir: string;
  /** Normalized with `normalizeAgentId`; default `main`. */
  agentId?: string;
  /** The resolved `session` config (see `resolveSessionConfig`); default: every default. */
  sessionConfig?: SessionConfig;
  /** How long a statement waits for a lock; default 5000 ms. */
  busyTimeoutMs?: number;
  /** Injected clock for tests; default `Date.now`. */
  clock?: () => number;
  /**
   * Default false. When true, the store's writes (each `transaction`, `appendEvents`, ... a
   * savepoint of its own, so a failing one still changes nothing) share one SQLite transaction
   * per event-loop turn, committed in a `setImmediate` after the first write: concurrent turns
   * pay one commit instead of one each. A write is then durable only once `committed()`
   * resolves, and other connections see it only then. `appendEvent` and
   * `appendEvents(..., { durable: true })` commit at once (the pending batch first).
   * WAL checkpoints of such a store run in a background worker thread (see
   * `databases/checkpointer.ts`), not in the commits of the main thread.
   */
  groupCommit?: boolean;
}

/** Parsed entries a store keeps in memory (keys seen lately); past it the cache starts again empty. */
const MAX_CACHED_ENTRIES = 4096;

/** Entry fields that survive a reset; everything else starts fresh. */
const CARRIED_FIELDS = [
  "chatType",
  "channel",
  "provider",
  "displayName",
  "thinkingLevel",
  "verboseLevel",
  "reasoningLevel",
  "elevatedLevel",
  "sendPolicy",
  "providerOverride",
  "modelOverride",
  "authProfileOverride",
  "modelOverrideSource",
  "lastRoute",
  "pinnedAt",
] as const;

class SqliteSessionStore extends SqliteSessionReader implements SessionStore {
  sessionConfig: SessionConfig;
  private readonly writer: TranscriptWriter;
  private readonly lock: WriterLock;
  private readonly clock: () => number;
  private readonly w;

  constructor(db: Database.Database, agentId: string, file: string, lock: WriterLock, options: OpenAgentStoreOptions) {
    super(db, agentId, file);
    this.lock = lock;
    this.clock = options.clock ?? Date.now;
    this.sessionConfig = options.sessionConfig ?? resolveSessionConfig({});
    this.writer = new TranscriptWriter(db);
    if (options.groupCommit) {
      this.group = new GroupCommit(db, () => this.forget());
      checkpointInBackground(db);
    }
    this.w = {
      insertSession: db.prepare(
        `INSERT INTO sessions (session_id, session_key, created_at, updated_at, started_at, status, chat_type,
           channel, display_name, parent_session_key, spawned_by, previous_session_id, start_reason)
         VALUES (@sessionId, @key, @now, @now, @startedAt, @status, @chatType, @channel, @displayName,
           @parentSessionKey, @spawnedBy, @previousSessionId, @reason)`,
      ),
      endSession: db.prepare<[number, number, string]>(
        "UPDATE sessions SET status = 'ended', ended_at = ?, updated_at = ? WHERE session_id = ?",
      ),
      touchSession: db.prepare<[number, string | null, string | null, string | null, string]>(
        `UPDATE sessions SET updated_at = ?, chat_type = coalesce(?, chat_type), channel = coalesce(?, channel),
           display_name = coalesce(?, display_name) WHERE session_id = ?`,
      ),
      upsertEntry: db.prepare<[string, string, string, number]>(
        `INSERT INTO session_entries (session_key, session_id, entry_json, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (session_key) DO UPDATE SET session_id = excluded.session_id,
           entry_json = excluded.entry_json, updated_at = excluded.updated_at`,
      ),
      hasSession: db.prepare<[string], { x: number }>("SELECT 1 AS x FROM sessions WHERE session_id = ?"),
      recordImport: db.prepare(
        `INSERT OR IGNORE INTO legacy_imports (source_path, session_id, session_key, event_count, problem_count, imported_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
      ),
      releaseLockRow: db.prepare("DELETE FROM writer_lock WHERE lock_name = 'writer'"),
    };
  }

  private readonly runInTransaction = this.db.transaction((fn: () => unknown) => fn());
  /** With `groupCommit`: the transaction the writes of the current event-loop pass share. */
  private readonly group: GroupCommit | undefined;

  transaction<T>(fn: () => T): T {
    this.group?.join();
    try {
      // Inside the open batch this is a savepoint: a failing write rolls back alone.
      return this.runInTransaction.immediate(fn) as T;
    } catch (err) {
      this.forget();
      throw err;
    }
  }

  committed(): Promise<void> {
    return this.group?.committed() ?? Promise.resolve();
  }

  private writeEntry(key: string, entry: SessionEntry): void {
    this.w.upsertEntry.run(key, entry.sessionId, JSON.stringify(entry), entry.updatedAt);
    this.remember(key, { ...entry });
  }

  /**
   * Entries as last written or read, parsed: a turn reads its entry several times. Sound because
   * this store is the database's only writer while it is open; emptied when a write rolls back.
   * The objects are frozen and shared: callers copy before changing (as `updateEntry` does).
   */
  private readonly entries = new Map<string, SessionEntry>();

  private remember(key: string, entry: SessionEntry): SessionEntry {
    if (this.entries.size >= MAX_CACHED_ENTRIES) this.entries.clear();
    const frozen = Object.freeze(entry);
    this.entries.set(key, frozen);
    return frozen;
  }

  override getEntry(rawKey: string): SessionEntry | undefined {
    const key = normalizeStoreKey(rawKey);
    const hit = this.entries.get(key);
    if (hit) return hit;
    const read = super.getEntry(key);
    return read ? this.remember(key, read) : undefined;
  }

  private forget(): void {
    this.writer.reset();
    this.entries.clear();
  }

  private mint(
    key: string,
    now: number,
    reason: string,
    origin: SessionOrigin | undefined,
    previous: SessionEntry | undefined,
  ): SessionEntry {
    const sessionId = newTimeOrderedId(now);
    const entry: SessionEntry = { sessionId, sessionStartedAt: now, updatedAt: now };
    if (previous) {
      const carried: Record<string, unknown> = entry;
      for (const f of CARRIED_FIELDS) if (previous[f] !== undefined) carried[f] = previous[f];
      this.w.endSession.run(now, now, previous.sessionId);
    }
    if (origin?.chatType !== undefined) entry.chatType = origin.chatType;
    if (origin?.channel !== undefined) entry.channel = origin.channel;
    if (origin?.displayName !== undefined) entry.displayName = origin.displayName;
    this.w.insertSession.run({
      sessionId,
      key,
      now,
      startedAt: now,
      status: "active",
      chatType: entry.chatType ?? null,
      channel: entry.channel ?? null,
      displayName: entry.displayName ?? null,
      parentSessionKey: origin?.parentSessionKey ?? null,
      spawnedBy: origin?.spawnedBy ?? null,
      previousSessionId: previous?.sessionId ?? null,
      reason,
    });
    const header: TranscriptEventInput = { type: "session", version: 3, id: sessionId };
    if (origin?.cwd !== undefined) header.cwd = origin.cwd;
    this.writer.insert(sessionId, [header], now);
    this.writeEntry(key, entry);
    return entry;
  }

  getOrCreateSession(rawKey: string, options: GetOrCreateOptions = {}): SessionResolution {
    const key = normalizeStoreKey(rawKey);
    const now = options.now ?? this.clock();
    return this.transaction(() => {
      const current = this.getEntry(key);
      let entry: SessionEntry;
      const result: Omit<SessionResolution, "entry" | "sessionId"> = { key, isNew: false };
      if (!current) {
        entry = this.mint(key, now, "initial", options.origin, undefined);
        result.isNew = true;
      } else {
        const policy =
          options.resetPolicy ?? resolveResetPolicy(this.sessionConfig, { key, channel: options.origin?.channel ?? current.channel });
        const freshness = evaluateFreshness(current, policy, now);
        if (freshness.fresh) {
          entry = { ...current };
        } else {
          entry = this.mint(key, now, freshness.reason, options.origin, current);
          Object.assign(result, { isNew: true, resetReason: freshness.reason, previousSessionId: current.sessionId });
        }
      }
      const origin = options.origin;
      const originChanged =
        (origin?.chatType !== undefined && origin.chatType !== entry.chatType) ||
        (origin?.channel !== undefined && origin.channel !== entry.channel) ||
        (origin?.displayName !== undefined && origin.displayName !== entry.displayName);
      if (options.touch !== false || originChanged) {
        if (origin?.chatType !== undefined) entry.chatType = origin.chatType;
        if (origin?.channel !== undefined) entry.channel = origin.channel;
        if (origin?.displayName !== undefined) entry.displayName = origin.displayName;
        if (options.touch !== false) entry.lastInteractionAt = now;
        entry.updatedAt = Math.max(entry.updatedAt, now);
        this.writeEntry(key, entry);
        this.w.touchSession.run(
          entry.updatedAt,
          origin?.chatType ?? null,
          origin?.channel ?? null,
          origin?.displayName ?? null,
          entry.sessionId,
        );
      }
      return { ...result, sessionId: entry.sessionId, entry };
    });
  }

  resetSession(rawKey: string, reason: string, options: { now?: number; origin?: SessionOrigin } = {}): SessionResolution {
    const key = normalizeStoreKey(rawKey);
    const now = options.now ?? this.clock();
    return this.transaction(() => {
      const current = this.getEntry(key);
      const entry = this.mint(key, now, reason, options.origin, current);
      const res: SessionResolution = { key, sessionId: entry.sessionId, entry, isNew: true, resetReason: reason };
      if (current) res.previousSessionId = current.sessionId;
      return res;
    });
  }

  appendEvents(
    sessionId: string,
    events: readonly TranscriptEventInput[],
    options: { now?: number; durable?: boolean } = {},
  ): AppendResult[] {
    const now = options.now ?? this.clock();
    if (!options.durable) return this.transaction(() => this.writer.insert(sessionId, events, now));
    this.group?.commit();
    this.db.pragma("synchronous = FULL");
    try {
      const results = this.transaction(() => this.writer.insert(sessionId, events, now));
      this.group?.commit();
      return results;
    } finally {
      this.db.pragma("synchronous = NORMAL");
    }
  }

  appendEvent(sessionId: string, event: TranscriptEventInput, options: { now?: number } = {}): AppendResult {
    return this.appendEvents(sessionId, [event], { ...options, durable: true })[0]!;
  }

  updateEntry(rawKey: string, patch: Partial<SessionEntry>, options: { now?: number } = {}): SessionEntry {
    const key = normalizeStoreKey(rawKey);
    const now = options.now ?? this.clock();
    return this.transaction(() => {
      const current = this.getEntry(key);
      if (!current) throw new Error(`no session entry for key "${key}"`);
      const entry: SessionEntry = { ...current, ...patch, sessionId: current.sessionId };
      if (patch.updatedAt === undefined) entry.updatedAt = now;
      this.writeEntry(key, entry);
      this.w.touchSession.run(entry.updatedAt, patch.chatType ?? null, patch.channel ?? null, patch.displayName ?? null, entry.sessionId);
      return entry;
    });
  }

  importSession(session: ImportedSession): { imported: boolean; entrySet: boolean } {
    const key = normalizeStoreKey(session.key);
    const now = session.now ?? this.clock();
    const { entry } = session;
    return this.transaction(() => {
      const existing = this.getEntry(key);
      const setEntry = (): boolean => {
        if (existing) return false;
        this.writeEntry(key, entry);
        return true;
      };
      if (this.w.hasSession.get(entry.sessionId)) return { imported: false, entrySet: setEntry() };
      this.w.insertSession.run({
        sessionId: entry.sessionId,
        key,
        now,
        startedAt: entry.sessionStartedAt,
        status: "active",
        chatType: typeof entry.chatType === "string" ? entry.chatType : null,
        channel: typeof entry.channel === "string" ? entry.channel : null,
        displayName: typeof entry.displayName === "string" ? entry.displayName : null,
        parentSessionKey: null,
        spawnedBy: null,
        previousSessionId: null,
        reason: "import",
      });
      this.writer.insert(entry.sessionId, session.events, now);
      this.w.recordImport.run(session.sourcePath, entry.sessionId, key, session.events.length, session.problemCount ?? 0, now);
      return { imported: true, entrySet: setEntry() };
    });
  }

  override close(): void {
    this.group?.commit();
    if (this.db.open) {
      try {
        this.w.releaseLockRow.run();
      } finally {
        this.db.close();
      }
    }
    this.lock.release();
  }
}

function readLockHolder(file: string): StoreLockedError["holder"] {
  if (!existsSync(file)) return undefined;
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      const row = db.prepare("SELECT pid, hostname, acquired_at FROM writer_lock WHERE lock_name = 'writer'").get() as
        | { pid: number; hostname: string; acquired_at: number }
        | undefined;
      return row ? { pid: row.pid, hostname: row.hostname, acquiredAt: row.acquired_at } : undefined;
    } finally {
      db.close();
    }
  } catch {
    return undefined;
  }
}

/**
 * Opens (creating when missing) `<stateDir>/agents/<agentId>/agent/openclaw-agent.sqlite` as its
 * single writer: migrates the schema forward, sets WAL, `busy_timeout` and synchronous=NORMAL.
 * Throws `StoreLockedError` (a UserError) when another store already writes it, in this process
 * or another; the lock dies with its process, so a crash never leaves it stale. Throws a
 * UserError naming the file and both versions when the database comes from a newer openclaw, and
 * a {@link DatabaseCorruptError} naming it and the fix when the file is damaged.
 */
export function openAgentStore(options: OpenAgentStoreOptions): SessionStore {
  const agentId = normalizeAgentId(options.agentId);
  const file = agentStorePath(options.stateDir, agentId);
  mkdirSync(path.dirname(file), { recursive: true });
  const lock = tryAcquireWriterLock(file);
  if (!lock) throw new StoreLockedError(file, readLockHolder(file));
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { timeout: options.busyTimeoutMs ?? 5000 });
    assertSchemaNotNewer(db, file);
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("foreign_keys = ON");
    const now = (options.clock ?? Date.now)();
    const opened = db;
    opened
      .transaction(() => {
        migrate(opened, { agentId, now });
        opened
          .prepare(
            `INSERT INTO writer_lock (lock_name, pid, hostname, token, acquired_at) VALUES ('writer', ?, ?, ?, ?)
             ON CONFLICT (lock_name) DO UPDATE SET pid = excluded.pid, hostname = excluded.hostname,
               token = excluded.token, acquired_at = excluded.acquired_at`,
          )
          .run(process.pid, hostname(), randomUUID(), now);
      })
      .immediate();
    return new SqliteSessionStore(opened, agentId, file, lock, options);
  } catch (err) {
    if (db?.open) db.close();
    lock.release();
    if (isCorruptionError(err)) {
      throw new DatabaseCorruptError([damageOf(options.stateDir, sessionDatabase(options.stateDir, agentId), (err as Error).message)]);
    }
    throw err;
  }
}
