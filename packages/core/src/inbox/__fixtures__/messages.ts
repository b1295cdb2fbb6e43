// Inbound messages and inbox rows for the inbox's unit tests.
import type { InboundMessage } from "@openclaw/plugin-sdk";
import type { InboxRow } from "../store.js";

/** A direct message from user 42 on chat:default; `overrides` replace fields. */
export function inboundMessage(overrides: Partial<InboundMessage> = {}): InboundMessage {
  return {
    channel: "chat",
    accountId: "default",
    messageId: "10",
    chat: { kind: "direct", id: "42" },
    sender: { id: "42" },
    text: "hi",
    mentionsBot: true,
    receivedAt: 1,
    ...overrides,
  };
}

/** A pending inbox row of `message` (as the store returns it), first attempt. */
export function pendingRow(id: number, message: InboundMessage, extra: Partial<InboxRow> = {}): InboxRow {
  return {
    id,
    channel: message.channel,
    accountId: message.accountId,
    chatId: message.chat.id,
    messageId: message.messageId,
    message,
    receivedAt: message.receivedAt,
    state: "pending",
    attempts: 1,
    ...extra,
  };
}
