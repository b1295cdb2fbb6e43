import { randomBytes } from "node:crypto";

/** A room event as the client-server API returns it (fields may be anything for injected events). */
export interface RawEvent {
  event_id?: string;
  type?: string;
  sender?: string;
  room_id?: string;
  state_key?: string;
  content?: any;
  origin_server_ts?: number;
  redacts?: string;
  unsigned?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface StoredEvent {
  pos: number;
  event: RawEvent;
  /** The sending user's transaction id, echoed to that user only. */
  txnId?: string;
}

export interface FakeRoom {
  roomId: string;
  events: StoredEvent[];
  /** `type\0stateKey` -> the current state event. */
  state: Map<string, RawEvent>;
  typing: Set<string>;
  typingPos: number;
  /** userId -> { eventId, type, ts } of the user's latest receipt. */
  receipts: Map<string, { eventId: string; type: string; ts: number; pos: number }>;
  /** userId -> type -> content; pos of the last change. */
  accountData: Map<string, Map<string, { content: unknown; pos: number }>>;
}

export interface FakeUser {
  userId: string;
  password: string;
  displayName?: string;
  accountData: Map<string, { content: unknown; pos: number }>;
  filters: unknown[];
}

export const newId = (prefix: string, serverName?: string): string =>
  `${prefix}${randomBytes(12).toString("base64url")}${serverName ? `:${serverName}` : ""}`;

/** Everything the fake homeserver knows, with one stream position for all changes. */
export class FakeMatrixStore {
  pos = 1;
  readonly users = new Map<string, FakeUser>();
  /** accessToken -> { userId, deviceId } */
  readonly tokens = new Map<string, { userId: string; deviceId: string }>();
  readonly rooms = new Map<string, FakeRoom>();
  readonly aliases = new Map<string, string>();
  readonly media = new Map<string, { bytes: Buffer; contentType: string; filename?: string; userId: string }>();
  /** `${token}\0${txnId}` -> event id, so a retried send is not stored twice. */
  readonly txns = new Map<string, string>();

  constructor(readonly serverName: string) {}

  nextPos(): number {
    this.pos += 1;
    return this.pos;
  }

  user(userId: string): FakeUser {
    const user = this.users.get(userId);
    if (!user) throw Object.assign(new Error(`unknown user ${userId}`), { errcode: "M_NOT_FOUND", status: 404 });
    return user;
  }

  room(roomId: string): FakeRoom {
    const room = this.rooms.get(roomId) ?? this.rooms.get(this.aliases.get(roomId) ?? "");
    if (!room) throw Object.assign(new Error(`unknown room ${roomId}`), { errcode: "M_NOT_FOUND", status: 404 });
    return room;
  }

  newRoom(): FakeRoom {
    const room: FakeRoom = {
      roomId: newId("!", this.serverName),
      events: [],
      state: new Map(),
      typing: new Set(),
      typingPos: 0,
      receipts: new Map(),
      accountData: new Map(),
    };
    this.rooms.set(room.roomId, room);
    return room;
  }

  membership(room: FakeRoom, userId: string): string | undefined {
    return room.state.get(`m.room.member\0${userId}`)?.content?.membership;
  }

  members(room: FakeRoom, membership = "join"): string[] {
    const out: string[] = [];
    for (const [key, ev] of room.state) {
      if (key.startsWith("m.room.member\0") && ev.content?.membership === membership) out.push(String(ev.state_key));
    }
    return out;
  }

  /** Appends an event (a state event also updates the room state) and returns it with its id. */
  append(room: FakeRoom, event: RawEvent, txnId?: string): RawEvent {
    const full: RawEvent = {
      event_id: newId("$"),
      origin_server_ts: Date.now(),
      ...event,
      room_id: room.roomId,
    };
    room.events.push({ pos: this.nextPos(), event: full, txnId });
    if (typeof full.state_key === "string" && typeof full.type === "string") room.state.set(`${full.type}\0${full.state_key}`, full);
    return full;
  }

  /** Appends `raw` exactly as given (a malformed event stays malformed). */
  appendRaw(room: FakeRoom, raw: RawEvent): void {
    room.events.push({ pos: this.nextPos(), event: raw });
  }

  /** Redacts `eventId` in place: content stripped (keeping what the spec keeps for membership), `redacted_because` set. */
  redact(room: FakeRoom, eventId: string, because: RawEvent): void {
    const target = room.events.find((e) => e.event.event_id === eventId)?.event;
    if (!target) return;
    const kept = target.type === "m.room.member" ? { membership: target.content?.membership } : {};
    target.content = kept;
    target.unsigned = { ...target.unsigned, redacted_because: because };
  }

  findEvent(room: FakeRoom, eventId: string): RawEvent | undefined {
    return room.events.find((e) => e.event.event_id === eventId)?.event;
  }
}
