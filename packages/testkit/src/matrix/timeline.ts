import type { MatrixEvent, Room } from "matrix-js-sdk";

/** One message as a person sees it in a room: its latest content after edits. */
export interface HumanMessage {
  eventId: string;
  sender: string;
  ts: number;
  /** Event type after decryption (`m.room.message`, `m.sticker`; `m.room.encrypted` while undecryptable). */
  type: string;
  msgtype?: string;
  /** `body` of the latest content (after `m.replace` edits); "" while undecryptable or redacted. */
  body: string;
  formattedBody?: string;
  /** The latest content (an edit's `m.new_content`, else the original's). */
  content: any;
  /** The original event's content. */
  original: any;
  /** Sent encrypted (whether or not it could be decrypted). */
  encrypted: boolean;
  /** Sent encrypted and decrypted. */
  decrypted: boolean;
  /** Sent encrypted and not (yet) decrypted. */
  undecryptable: boolean;
  /** How many `m.replace` edits by its sender were applied. */
  edits: number;
  redacted: boolean;
  threadRootId?: string;
  replyTo?: string;
}

/** One timeline event reduced to what folding needs (from a matrix-js-sdk event or raw JSON). */
export interface TimelineItem {
  eventId: string;
  sender: string;
  ts: number;
  type: string;
  /** Cleartext content (the original, not an SDK-applied replacement). */
  content: any;
  relation: any;
  encrypted: boolean;
  undecryptable: boolean;
  redacted: boolean;
}

const MESSAGE_TYPES = new Set(["m.room.message", "m.sticker", "m.room.encrypted"]);

/** A matrix-js-sdk event as a timeline item. */
export function itemFromSdk(ev: MatrixEvent): TimelineItem {
  const content = ev.getOriginalContent() as any;
  const encrypted = ev.isEncrypted();
  return {
    eventId: ev.getId() ?? "",
    sender: ev.getSender() ?? "",
    ts: ev.getTs(),
    type: ev.getType(),
    content,
    relation: ev.getWireContent()["m.relates_to"] ?? content["m.relates_to"],
    encrypted,
    undecryptable: encrypted && (ev.isDecryptionFailure() || ev.getType() === "m.room.encrypted"),
    redacted: ev.isRedacted(),
  };
}

/** A raw client-server API event as a timeline item (tolerates malformed events). */
export function itemFromRaw(ev: Record<string, any>): TimelineItem {
  const content = ev.content && typeof ev.content === "object" ? ev.content : {};
  return {
    eventId: String(ev.event_id ?? ""),
    sender: String(ev.sender ?? ""),
    ts: Number(ev.origin_server_ts ?? 0),
    type: String(ev.type ?? ""),
    content,
    relation: content["m.relates_to"],
    encrypted: ev.type === "m.room.encrypted",
    undecryptable: ev.type === "m.room.encrypted",
    redacted: Boolean(ev.unsigned?.redacted_because),
  };
}

/**
 * Messages in timeline order as a person sees them: edits (`m.replace` from the original's
 * sender) applied, edit events themselves left out, redacted messages kept with `redacted: true`
 * and an empty body.
 */
export function foldMessages(items: TimelineItem[]): HumanMessage[] {
  const messages: HumanMessage[] = [];
  const byId = new Map<string, HumanMessage>();
  for (const item of items) {
    if (!MESSAGE_TYPES.has(item.type)) continue;
    const relation = item.relation;
    if (relation?.rel_type === "m.replace") {
      const target = byId.get(relation.event_id);
      const newContent = item.content["m.new_content"];
      if (!target || item.redacted || item.sender !== target.sender || !newContent) continue;
      target.content = newContent;
      target.body = typeof newContent.body === "string" && !target.redacted ? newContent.body : "";
      target.formattedBody = newContent.formatted_body;
      target.msgtype = newContent.msgtype;
      target.edits += 1;
      continue;
    }
    const { content } = item;
    const message: HumanMessage = {
      eventId: item.eventId,
      sender: item.sender,
      ts: item.ts,
      type: item.type,
      msgtype: content.msgtype,
      body: typeof content.body === "string" && !item.undecryptable && !item.redacted ? content.body : "",
      formattedBody: content.formatted_body,
      content,
      original: content,
      encrypted: item.encrypted,
      decrypted: item.encrypted && !item.undecryptable,
      undecryptable: item.undecryptable,
      edits: 0,
      redacted: item.redacted,
      threadRootId: relation?.rel_type === "m.thread" ? relation.event_id : undefined,
      replyTo: relation?.["m.in_reply_to"]?.event_id,
    };
    messages.push(message);
    if (message.eventId) byId.set(message.eventId, message);
  }
  return messages;
}

/** The room's messages as its member sees them (see `foldMessages`). */
export function roomMessages(room: Room | null): HumanMessage[] {
  return room ? foldMessages(room.getLiveTimeline().getEvents().map(itemFromSdk)) : [];
}

/** The visible messages' bodies joined by "\n": redacted ones left out. */
export function visibleTextOf(messages: HumanMessage[], sender?: string): string {
  return messages
    .filter((m) => !m.redacted && (!sender || m.sender === sender))
    .map((m) => m.body)
    .join("\n");
}
