// Conformance cases: the typing indicator (channels that declare `capabilities.typing`).
import assert from "node:assert/strict";
import type { ConformanceCase } from "./define.js";
import { chatKeyOf, deliverFinalText, replyKey } from "./drive.js";

export const typingShown: ConformanceCase = {
  id: "typing-shown",
  title: "typing resolves, adds no message, and the reply sent right after it arrives",
  needs: "typing",
  async run(s) {
    const message = await s.newDirectChat();
    const chatId = message.chat.id;
    const budget = s.budget();
    const from = s.seq();
    const key = replyKey("typing");
    const options = {
      signal: new AbortController().signal,
      priority: "typing" as const,
      format: "plain" as const,
      idempotencyKey: `${key}:typing`,
      inReplyTo: message.messageId,
    };
    const typed = await budget.run(chatKeyOf(message.chat), "typing", () => s.outbound.typing!({ chat: message.chat }, options));
    assert.equal(typed.status, "sent", "typing on an idle chat is sent");
    const call = s.calls.find((c) => c.seq > from && c.op === "typing");
    assert.equal(call?.ok, true, "the platform accepted the typing indicator");
    assert.equal((await s.view(chatId)).messages.length, 0, "typing adds no message to the chat");

    const reply = "The answer, right after typing.";
    await deliverFinalText(s, { chat: message.chat, text: reply, budget, key, inReplyTo: message.messageId });
    assert.deepEqual(
      (await s.view(chatId)).messages.map((m) => m.text.trim()),
      [reply],
    );
  },
};
