// src/inbound.ts: what `GET /updates` returns, checked with zod and turned into InboundMessages.
import type { InboundMessage } from "@openclaw/plugin-sdk";
import { z } from "zod";

/** Every update has an increasing id; `GET /updates?after=<id>` returns the later ones. */
const envelopeSchema = z.object({ id: z.int().nonnegative() });

/** A chat message, the only kind of update this plugin handles. */
const messageSchema = z.object({
  id: z.string().min(1),
  chat: z.object({ id: z.string().min(1), type: z.enum(["dm", "group"]), title: z.string().optional() }),
  from: z.object({ id: z.string().min(1), name: z.string(), bot: z.boolean() }),
  text: z.string(),
  /** Ids of the users the message @-mentions. */
  mentions: z.array(z.string()).default([]),
  replyTo: z.object({ id: z.string(), fromId: z.string(), text: z.string().optional() }).optional(),
  /** Milliseconds since the epoch. */
  date: z.number(),
});

type ChatterboxMessage = z.infer<typeof messageSchema>;

/** One raw update, sorted: a message to hand on, one to skip (with the reason), or no id at all. */
export type ParsedUpdate =
  | { kind: "message"; id: number; message: ChatterboxMessage }
  | { kind: "skip"; id: number; reason: string }
  | { kind: "invalid"; reason: string };

/** Sorts one element of the `GET /updates` answer. Never throws: the platform's data is not trusted. */
export function parseUpdate(raw: unknown): ParsedUpdate {
  const envelope = envelopeSchema.safeParse(raw);
  if (!envelope.success) return { kind: "invalid", reason: z.prettifyError(envelope.error) };
  const { id } = envelope.data;
  const payload = (raw as { message?: unknown }).message;
  if (payload === undefined) return { kind: "skip", id, reason: `update ${id} is of a type this plugin does not handle` };
  const message = messageSchema.safeParse(payload);
  if (!message.success) return { kind: "skip", id, reason: `update ${id} is malformed: ${z.prettifyError(message.error)}` };
  return { kind: "message", id, message: message.data };
}

/** The gateway's view of a Chatterbox message. In a DM the bot is always addressed. */
export function toInbound(message: ChatterboxMessage, accountId: string, botId: string): InboundMessage {
  const direct = message.chat.type === "dm";
  return {
    channel: "chatterbox",
    accountId,
    messageId: message.id,
    chat: { kind: direct ? "direct" : "group", id: message.chat.id, title: message.chat.title },
    sender: { id: message.from.id, name: message.from.name, isBot: message.from.bot },
    text: message.text,
    mentionsBot: direct || message.mentions.includes(botId) || message.replyTo?.fromId === botId,
    replyTo: message.replyTo && { messageId: message.replyTo.id, fromBot: message.replyTo.fromId === botId, text: message.replyTo.text },
    receivedAt: message.date,
  };
}
