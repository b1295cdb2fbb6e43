import type { FakeMatrixStore, FakeRoom, RawEvent, StoredEvent } from "./store.js";

const INITIAL_TIMELINE_LIMIT = 100;
const STRIPPED_TYPES = new Set([
  "m.room.create",
  "m.room.name",
  "m.room.join_rules",
  "m.room.encryption",
  "m.room.canonical_alias",
  "m.room.avatar",
]);

function forUser(stored: StoredEvent, userId: string): RawEvent {
  if (!stored.txnId || stored.event.sender !== userId) return stored.event;
  return { ...stored.event, unsigned: { ...stored.event.unsigned, transaction_id: stored.txnId } };
}

function memberPos(room: FakeRoom, userId: string): number {
  for (let i = room.events.length - 1; i >= 0; i--) {
    const stored = room.events[i]!;
    if (stored.event.type === "m.room.member" && stored.event.state_key === userId) return stored.pos;
  }
  return 0;
}

function stripped(ev: RawEvent): RawEvent {
  return { type: ev.type, state_key: ev.state_key, content: ev.content, sender: ev.sender };
}

function joinedRoom(store: FakeMatrixStore, room: FakeRoom, userId: string, since: number | undefined) {
  const joinPos = memberPos(room, userId);
  const fresh = since === undefined || since < joinPos;
  let visible = room.events.filter((e) => e.pos >= joinPos && (fresh || e.pos > (since ?? 0)));
  let limited = false;
  if (fresh && visible.length > INITIAL_TIMELINE_LIMIT) {
    visible = visible.slice(-INITIAL_TIMELINE_LIMIT);
    limited = true;
  }
  const inTimeline = new Set(visible.map((e) => e.event.event_id));
  const state = fresh ? [...room.state.values()].filter((ev) => !inTimeline.has(ev.event_id)) : [];
  const after = fresh ? 0 : (since ?? 0);
  const ephemeral: RawEvent[] = [];
  if (room.typingPos > after) ephemeral.push({ type: "m.typing", content: { user_ids: [...room.typing] } });
  const receipts: Record<string, Record<string, Record<string, { ts: number }>>> = {};
  for (const [uid, r] of room.receipts) {
    if (r.pos <= after) continue;
    receipts[r.eventId] ??= {};
    receipts[r.eventId]![r.type] ??= {};
    receipts[r.eventId]![r.type]![uid] = { ts: r.ts };
  }
  if (Object.keys(receipts).length > 0) ephemeral.push({ type: "m.receipt", content: receipts });
  const accountData = [...(room.accountData.get(userId) ?? new Map())]
    .filter(([, v]) => v.pos > after)
    .map(([type, v]) => ({ type, content: v.content }));
  const empty = !fresh && visible.length === 0 && ephemeral.length === 0 && accountData.length === 0;
  if (empty) return undefined;
  return {
    timeline: { events: visible.map((e) => forUser(e, userId)), limited, prev_batch: `p${visible[0]?.pos ?? store.pos}` },
    state: { events: state },
    ephemeral: { events: ephemeral },
    account_data: { events: accountData },
    unread_notifications: { notification_count: 0, highlight_count: 0 },
    summary: {},
  };
}

/** The `/sync` response for `userId` since stream position `since` (undefined: initial sync); undefined when nothing is new. */
export function buildSync(store: FakeMatrixStore, userId: string, since: number | undefined): Record<string, unknown> | undefined {
  const join: Record<string, unknown> = {};
  const invite: Record<string, unknown> = {};
  const leave: Record<string, unknown> = {};
  for (const room of store.rooms.values()) {
    const membership = store.membership(room, userId);
    const pos = memberPos(room, userId);
    if (membership === "join") {
      const body = joinedRoom(store, room, userId, since);
      if (body) join[room.roomId] = body;
    } else if (membership === "invite" && (since === undefined || pos > since)) {
      const events = [...room.state.values()].filter((ev) => STRIPPED_TYPES.has(String(ev.type))).map(stripped);
      const own = room.state.get(`m.room.member\0${userId}`)!;
      const inviter = room.state.get(`m.room.member\0${own.sender}`);
      if (inviter) events.push(stripped(inviter));
      events.push(stripped(own));
      invite[room.roomId] = { invite_state: { events } };
    } else if ((membership === "leave" || membership === "ban") && since !== undefined && pos > since) {
      const own = room.events.find((e) => e.pos === pos)!;
      leave[room.roomId] = { timeline: { events: [forUser(own, userId)], limited: false }, state: { events: [] } };
    }
  }
  const user = store.user(userId);
  const accountData = [...user.accountData]
    .filter(([, v]) => since === undefined || v.pos > since)
    .map(([type, v]) => ({ type, content: v.content }));
  const nothing =
    since !== undefined &&
    Object.keys(join).length === 0 &&
    Object.keys(invite).length === 0 &&
    Object.keys(leave).length === 0 &&
    accountData.length === 0;
  if (nothing) return undefined;
  return {
    next_batch: String(store.pos),
    rooms: { join, invite, leave, knock: {} },
    account_data: { events: accountData },
    presence: { events: [] },
    to_device: { events: [] },
    device_lists: { changed: [], left: [] },
    device_one_time_keys_count: { signed_curve25519: 50 },
    "org.matrix.msc2732.device_unused_fallback_key_types": ["signed_curve25519"],
    device_unused_fallback_key_types: ["signed_curve25519"],
  };
}
