import type { HumanMessage } from "../timeline.js";
import type { FakeMatrixSent } from "./actions.js";
import type { RawEvent } from "./store.js";

export type { FakeMatrixSent } from "./actions.js";
export type { RawEvent } from "./store.js";

export interface FakeHomeserverOptions {
  /** The part after the colon in ids. Default "fake.test". */
  serverName?: string;
}

/** One HTTP request the fake received (`status` -1: the connection was dropped by `dropSyncs`). */
export interface FakeMatrixRequest {
  method: string;
  path: string;
  userId?: string;
  body?: unknown;
  status: number;
  at: number;
}

/** A fake Matrix homeserver on 127.0.0.1 with test helpers that act as other users. */
export interface FakeHomeserver {
  baseUrl: string;
  serverName: string;
  /** Every request, in order. */
  requests: FakeMatrixRequest[];
  /** Every event a user created through the API or the helpers (messages, edits, redactions, state, membership). */
  sent: FakeMatrixSent[];
  /** Registers a user with a logged-in device. Default password `<localpart>-password`. */
  registerUser(
    localpart: string,
    opts?: { password?: string; displayName?: string },
  ): Promise<{ userId: string; accessToken: string; deviceId: string; password: string }>;
  /** Creates a room as `creator` (invite-only unless `public`; `isDirect` marks the invites `is_direct`). */
  createRoom(
    creator: string,
    opts?: { name?: string; invite?: string[]; isDirect?: boolean; encrypted?: boolean; public?: boolean },
  ): string;
  invite(by: string, roomId: string, userId: string): void;
  join(userId: string, roomIdOrAlias: string): void;
  leave(userId: string, roomId: string): void;
  /** Sets `userId`'s `m.direct` account data. */
  setDirect(userId: string, direct: Record<string, string[]>): void;
  /** Sends a message as `userId` (text becomes an `m.text`; an object is sent as the content). */
  sendMessage(
    userId: string,
    roomId: string,
    text: string | Record<string, unknown>,
    opts?: { mentions?: string[]; threadRootId?: string; replyTo?: string },
  ): string;
  /** Appends `rawEvent` to the room's timeline exactly as given (for malformed events); returns its `event_id` if it has one. */
  injectEvent(roomId: string, rawEvent: RawEvent): string | undefined;
  /** The next `n` writes (send, redact, state, upload) get 429 `M_LIMIT_EXCEEDED` with `retry_after_ms` (default 100). */
  rateLimitNext(n: number, retryAfterMs?: number): void;
  /** The next `n` `/sync` requests (long polls waiting now first) have their connection destroyed without an answer. */
  dropSyncs(n: number): void;
  /** Delays every write by `ms` (0 turns it off). */
  slowSends(ms: number): void;
  /** Users typing in the room now. */
  typing(roomId: string): string[];
  /** userId -> event id of that user's latest receipt. */
  receipts(roomId: string): Record<string, string>;
  accountData(userId: string, type: string): unknown;
  membership(roomId: string, userId: string): string | undefined;
  /** The bytes uploaded at `mxc`, if any. */
  media(mxc: string): Buffer | undefined;
  /** Messages as a room member sees them: edits applied, redacted ones flagged. */
  timeline(roomId: string): HumanMessage[];
  /** Visible messages' latest bodies joined by "\n" (edits applied, redactions removed). */
  visibleText(roomId: string, opts?: { sender?: string }): string;
  /** Raw events of the room's timeline. */
  events(roomId: string): RawEvent[];
  /** Resolves with the predicate's first truthy value, re-checked after every request. Default timeout 5 s. */
  waitFor<T>(predicate: () => T | undefined | null | false, timeoutMs?: number, describe?: () => string): Promise<T>;
  waitForMessage(roomId: string, predicate: (message: HumanMessage) => boolean, timeoutMs?: number): Promise<HumanMessage>;
  close(): Promise<void>;
}
