// Conformance cases: files (channels that declare `capabilities.media`).
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ConformanceCase } from "./define.js";
import { chatKeyOf, replyKey } from "./drive.js";

export const mediaSent: ConformanceCase = {
  id: "media-sent",
  title: "a file with a caption arrives once, as the message sendMedia reported, showing the caption",
  needs: "media",
  async run(s) {
    const message = await s.newDirectChat();
    const chatId = message.chat.id;
    const dir = mkdtempSync(path.join(tmpdir(), "openclaw-conformance-media-"));
    try {
      const file = path.join(dir, "notes.txt");
      writeFileSync(file, "Notes from the conformance suite.\n");
      const caption = "Here are the notes you asked for.";
      const signal = new AbortController().signal;
      const options = {
        signal,
        priority: "final" as const,
        format: "plain" as const,
        idempotencyKey: replyKey("media"),
        inReplyTo: message.messageId,
      };
      const sent = await s
        .budget()
        .run(chatKeyOf(message.chat), "final", () =>
          s.outbound.sendMedia!({ chat: message.chat }, { kind: "document", source: file, fileName: "notes.txt", caption }, options),
        );
      assert.equal(sent.status, "sent");
      const view = await s.view(chatId);
      assert.deepEqual(
        view.messages.map((m) => m.text.trim()),
        [caption],
        "the chat shows one message with the caption",
      );
      if (sent.status === "sent") assert.equal(sent.value.messageId, view.messages[0]!.messageId, "sendMedia reported that message");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
