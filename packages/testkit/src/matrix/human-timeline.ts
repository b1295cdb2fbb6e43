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

const MESSAGE_TYPES = new Set(["m.room.message", "m.sticker", "m.room.encrypted"]);

function baseMessage(ev: MatrixEvent): HumanMessage {
  const content = ev.getOriginalContent() as any;
  const relation = ev.getWireContent()["m.relates_to"] ?? content["m.relates_to"];
  const encrypted = ev.isEncrypted();
  const undecryptable = encrypted && (ev.isDecryptionFailure() || ev.getType() === "m.room.encrypted");
  return {
    eventId: ev.getId() ?? "",
    sender: ev.getSender() ?? "",
    ts: ev.getTs(),
    type: ev.getType(),
    msgtype: content.msgtype,
    body: typeof content.body === "string" && !undecryptable ? content.body : "",
    formattedBody: content.formatted_body,
    content,
    original: content,
    encrypted,
    decrypted: encrypted && !undecryptable,
    undecryptable,
    edits: 0,
    redacted: ev.isRedacted(),
    threadRootId: relation?.rel_type === "m.thread" ? relation.event_id : undefined,
    replyTo: relation?.["m.in_reply_to"]?.event_id,
  };
}

/**
 * The room's messages in timeline order: edits (`m.replace` from the original's sender) applied,
 * edit events themselves left out, redacted messages kept with `redacted: true`.
 */
export function roomMessages(room: Room | null): HumanMessage[] {
  if (!room) return [];
  const events = room.getLiveTimeline().getEvents();
  const messages: HumanMessage[] = [];
  const byId = new Map<string, HumanMessage>();
  for (const ev of events) {
    if (!MESSAGE_TYPES.has(ev.getType())) continue;
    const relation = ev.getWireContent()["m.relates_to"] ?? (ev.getOriginalContent() as any)["m.relates_to"];
    if (relation?.rel_type === "m.replace") {
      const target = byId.get(relation.event_id);
      const newContent = (ev.getOriginalContent() as any)["m.new_content"];
      if (!target || ev.isRedacted() || ev.getSender() !== target.sender || !newContent) continue;
      target.content = newContent;
      target.body = typeof newContent.body === "string" ? newContent.body : "";
      target.formattedBody = newContent.formatted_body;
      target.msgtype = newContent.msgtype;
      target.edits += 1;
      continue;
    }
    const message = baseMessage(ev);
    if (message.redacted) message.body = "";
    messages.push(message);
    if (message.eventId) byId.set(message.eventId, message);
  }
  return messages;
}
