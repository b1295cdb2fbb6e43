import { type FakeMatrixStore, type FakeRoom, newId, type RawEvent } from "./store.js";

/** What a user did through the API (or a test helper) that the fake records and tests inspect. */
export interface FakeMatrixSent {
  userId: string;
  roomId: string;
  eventId: string;
  type: string;
  content: any;
  stateKey?: string;
  redacts?: string;
  txnId?: string;
  at: number;
}

export class MatrixError extends Error {
  constructor(
    readonly status: number,
    readonly errcode: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** Room operations shared by the HTTP routes and the test helpers; each notifies waiting syncs. */
export class RoomActions {
  readonly sent: FakeMatrixSent[] = [];

  constructor(
    readonly store: FakeMatrixStore,
    private readonly notify: () => void,
  ) {}

  private joined(room: FakeRoom, userId: string): void {
    if (this.store.membership(room, userId) !== "join") throw new MatrixError(403, "M_FORBIDDEN", `${userId} is not in ${room.roomId}`);
  }

  private record(userId: string, room: FakeRoom, ev: RawEvent, txnId?: string): void {
    this.sent.push({
      userId,
      roomId: room.roomId,
      eventId: String(ev.event_id),
      type: String(ev.type),
      content: ev.content,
      ...(ev.state_key !== undefined ? { stateKey: ev.state_key } : {}),
      ...(ev.redacts ? { redacts: ev.redacts } : {}),
      ...(txnId ? { txnId } : {}),
      at: Date.now(),
    });
  }

  send(userId: string, roomId: string, type: string, content: unknown, txnId?: string): RawEvent {
    const room = this.store.room(roomId);
    this.joined(room, userId);
    const ev = this.store.append(room, { type, sender: userId, content }, txnId);
    this.record(userId, room, ev, txnId);
    this.notify();
    return ev;
  }

  setState(userId: string, roomId: string, type: string, stateKey: string, content: unknown): RawEvent {
    const room = this.store.room(roomId);
    this.joined(room, userId);
    const ev = this.store.append(room, { type, state_key: stateKey, sender: userId, content });
    this.record(userId, room, ev);
    this.notify();
    return ev;
  }

  redact(userId: string, roomId: string, eventId: string, reason?: string, txnId?: string): RawEvent {
    const room = this.store.room(roomId);
    this.joined(room, userId);
    const ev = this.store.append(
      room,
      { type: "m.room.redaction", sender: userId, redacts: eventId, content: { redacts: eventId, ...(reason ? { reason } : {}) } },
      txnId,
    );
    this.store.redact(room, eventId, ev);
    this.record(userId, room, ev, txnId);
    this.notify();
    return ev;
  }

  createRoom(userId: string, body: any = {}): string {
    const room = this.store.newRoom();
    const add = (type: string, stateKey: string, content: unknown, sender = userId) =>
      this.store.append(room, { type, state_key: stateKey, sender, content });
    add("m.room.create", "", { creator: userId, room_version: "10" });
    add("m.room.member", userId, { membership: "join", displayname: this.store.users.get(userId)?.displayName });
    const preset = body.preset ?? (body.visibility === "public" ? "public_chat" : "private_chat");
    add("m.room.power_levels", "", {
      users: {
        [userId]: 100,
        ...(preset === "trusted_private_chat" ? Object.fromEntries((body.invite ?? []).map((u: string) => [u, 100])) : {}),
      },
      users_default: 0,
      events_default: 0,
      state_default: 50,
    });
    add("m.room.join_rules", "", { join_rule: preset === "public_chat" ? "public" : "invite" });
    add("m.room.history_visibility", "", { history_visibility: "shared" });
    if (body.name) add("m.room.name", "", { name: body.name });
    if (body.room_alias_name) {
      const alias = `#${body.room_alias_name}:${this.store.serverName}`;
      this.store.aliases.set(alias, room.roomId);
      add("m.room.canonical_alias", "", { alias });
    }
    for (const state of body.initial_state ?? []) add(state.type, state.state_key ?? "", state.content);
    for (const invitee of body.invite ?? []) {
      add("m.room.member", invitee, { membership: "invite", ...(body.is_direct ? { is_direct: true } : {}) });
    }
    this.notify();
    return room.roomId;
  }

  membership(
    sender: string,
    roomIdOrAlias: string,
    target: string,
    membership: "invite" | "join" | "leave" | "ban",
    extra: Record<string, unknown> = {},
  ): string {
    const room = this.store.room(roomIdOrAlias);
    const current = this.store.membership(room, target);
    if (membership === "join") {
      const rule = room.state.get("m.room.join_rules\0")?.content?.join_rule;
      if (current !== "join" && current !== "invite" && rule !== "public")
        throw new MatrixError(403, "M_FORBIDDEN", `${target} is not invited to ${room.roomId}`);
    } else if (membership === "invite") {
      this.joined(room, sender);
      if (current === "join") throw new MatrixError(403, "M_FORBIDDEN", `${target} is already in the room`);
    } else if (sender === target && current !== "join" && current !== "invite") {
      throw new MatrixError(403, "M_FORBIDDEN", `${target} is not in ${room.roomId}`);
    }
    const displayname = membership === "join" ? this.store.users.get(target)?.displayName : undefined;
    const ev = this.store.append(room, {
      type: "m.room.member",
      state_key: target,
      sender,
      content: { membership, ...(displayname ? { displayname } : {}), ...extra },
    });
    this.record(sender, room, ev);
    if (membership !== "join") room.typing.delete(target);
    this.notify();
    return room.roomId;
  }

  typing(userId: string, roomId: string, typing: boolean): void {
    const room = this.store.room(roomId);
    this.joined(room, userId);
    if (typing) room.typing.add(userId);
    else room.typing.delete(userId);
    room.typingPos = this.store.nextPos();
    this.notify();
  }

  receipt(userId: string, roomId: string, type: string, eventId: string): void {
    const room = this.store.room(roomId);
    this.joined(room, userId);
    room.receipts.set(userId, { eventId, type, ts: Date.now(), pos: this.store.nextPos() });
    this.notify();
  }

  setAccountData(userId: string, type: string, content: unknown, roomId?: string): void {
    const entry = { content, pos: this.store.nextPos() };
    if (roomId) {
      const room = this.store.room(roomId);
      const perUser = room.accountData.get(userId) ?? new Map();
      perUser.set(type, entry);
      room.accountData.set(userId, perUser);
    } else {
      this.store.user(userId).accountData.set(type, entry);
    }
    this.notify();
  }

  upload(userId: string, bytes: Buffer, contentType: string, filename?: string): string {
    const mediaId = newId("");
    this.store.media.set(mediaId, { bytes, contentType, filename, userId });
    return `mxc://${this.store.serverName}/${mediaId}`;
  }
}
