/**
 * The gateway session kept in the account's cursor: its id and the sequence number of the last
 * event the host recorded, so a reconnect and a restart of the gateway resume where it left off.
 */

/** The cursor key of the gateway session. */
export const SESSION_CURSOR_KEY = "qqbot:gatewaySession";

/** A resumable gateway session. */
export interface GatewaySession {
  sessionId: string;
  /** Sequence number of the last event recorded (Resume asks for every event after it). */
  seq: number;
}

type Cursor = { get(key: string): string | undefined; set(key: string, value: string): void };

/** The stored session, or undefined when there is none (or it cannot be read). */
export function loadSession(cursor: Cursor): GatewaySession | undefined {
  const raw = cursor.get(SESSION_CURSOR_KEY);
  if (raw === undefined || raw === "") return undefined;
  try {
    const value = JSON.parse(raw) as { sessionId?: unknown; seq?: unknown };
    if (typeof value.sessionId === "string" && value.sessionId !== "" && Number.isSafeInteger(value.seq) && (value.seq as number) >= 0) {
      return { sessionId: value.sessionId, seq: value.seq as number };
    }
  } catch {
    // A damaged value means no session: the gateway identifies anew.
  }
  return undefined;
}

/** Stores the session (or forgets it, with undefined). */
export function saveSession(cursor: Cursor, session: GatewaySession | undefined): void {
  cursor.set(SESSION_CURSOR_KEY, session === undefined ? "" : JSON.stringify(session));
}
