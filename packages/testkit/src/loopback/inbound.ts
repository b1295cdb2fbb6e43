// Raw platform updates -> normalized InboundMessage, rejecting anything malformed with a reason.
import type { InboundMessage } from "@openclaw/plugin-sdk";
import { z } from "zod";

const nonEmpty = z.string().min(1);

const updateSchema = z.object({
  updateId: z.number().int().optional(),
  type: z.literal("message"),
  message: z.object({
    messageId: nonEmpty,
    chat: z.object({
      id: nonEmpty,
      kind: z.enum(["direct", "group", "channel"]),
      title: z.string().optional(),
      threadId: nonEmpty.optional(),
    }),
    from: z.object({
      id: nonEmpty,
      name: z.string().optional(),
      username: z.string().optional(),
      isBot: z.boolean().optional(),
    }),
    text: z.string(),
    mentionsBot: z.boolean(),
    replyTo: z.object({ messageId: nonEmpty, fromBot: z.boolean(), text: z.string().optional() }).optional(),
    date: z.number().finite(),
  }),
});

/** The outcome of `parseUpdate`: a message, an update of a kind the channel ignores, or a rejection. */
export type ParsedUpdate =
  | { kind: "message"; message: InboundMessage }
  | { kind: "ignored"; type: string }
  | { kind: "rejected"; reason: string };

/**
 * Validates a raw update and normalizes it for `channel`/`accountId`. Updates of another `type`
 * (e.g. `"poll"`) are ignored; anything else that is not a well-formed message is rejected with
 * the first problem found.
 */
export function parseUpdate(payload: unknown, channel: string, accountId: string): ParsedUpdate {
  if (typeof payload === "object" && payload !== null && !Array.isArray(payload)) {
    const type = (payload as { type?: unknown }).type;
    if (typeof type === "string" && type !== "message") return { kind: "ignored", type };
  }
  const parsed = updateSchema.safeParse(payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? issue.path.join(".") : "the update";
    return { kind: "rejected", reason: `${where}: ${issue.message}` };
  }
  const m = parsed.data.message;
  const message: InboundMessage = {
    channel,
    accountId,
    messageId: m.messageId,
    chat: {
      kind: m.chat.kind,
      id: m.chat.id,
      ...(m.chat.threadId !== undefined ? { threadId: m.chat.threadId } : {}),
      ...(m.chat.title !== undefined ? { title: m.chat.title } : {}),
    },
    sender: {
      id: m.from.id,
      ...(m.from.name !== undefined ? { name: m.from.name } : {}),
      ...(m.from.username !== undefined ? { username: m.from.username } : {}),
      ...(m.from.isBot !== undefined ? { isBot: m.from.isBot } : {}),
    },
    text: m.text,
    mentionsBot: m.mentionsBot,
    receivedAt: Date.now(),
    ...(m.replyTo !== undefined
      ? {
          replyTo: {
            messageId: m.replyTo.messageId,
            fromBot: m.replyTo.fromBot,
            ...(m.replyTo.text !== undefined ? { text: m.replyTo.text } : {}),
          },
        }
      : {}),
  };
  return { kind: "message", message };
}
