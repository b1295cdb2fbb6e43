// Conformance cases: inbound messages, final replies, long replies, bad inbound data.
import assert from "node:assert/strict";
import { deliverFinalText, replyKey } from "./drive.js";
import type { ConformanceCase } from "./define.js";
import { inboundProblems, prose, reassemblyError } from "./text.js";

export const inboundToReply: ConformanceCase = {
  id: "inbound-to-reply",
  title: "a DM arrives as a normalized InboundMessage and a reply reaches the chat",
  async run(s) {
    const text = "hello, is anyone there?";
    const message = await s.newDirectChat(text);
    assert.deepEqual(inboundProblems(message, s.plugin.id, s.accountId), [], "the InboundMessage is well-formed");
    assert.equal(message.chat.kind, "direct", 'a DM has chat.kind "direct"');
    assert.equal(message.text, text);
    assert.match(message.sender.id, /\S/, "the sender has an id");

    const reply = "Yes, the bot is here and answering.";
    const ids = await deliverFinalText(s, { chat: message.chat, text: reply, budget: s.budget(), key: replyKey("inbound") });
    assert.equal(ids.length, 1, "a short reply is one message");
    const view = await s.view(message.chat.id);
    assert.deepEqual(
      view.messages.map((m) => m.text.trim()),
      [reply],
      "the user sees the reply once",
    );

    if (s.capabilities.chatTypes.includes("group")) {
      const from = s.received.length;
      const groupText = "a question for the bot in a group";
      await s.harness.platform.userSays({ senderId: "conf-group-user", text: groupText, kind: "group", mentionsBot: true });
      const inGroup = await s.waitForInbound((m) => m.text.includes(groupText), "the plugin to receive the group message", from);
      assert.equal(inGroup.chat.kind, "group", 'a group message has chat.kind "group"');
      assert.equal(inGroup.mentionsBot, true, "a message that mentions the bot has mentionsBot true");
      assert.deepEqual(inboundProblems(inGroup, s.plugin.id, s.accountId), []);
    }
  },
};

export const longReplyChunked: ConformanceCase = {
  id: "long-reply-chunked",
  title: "a long reply is split within the platform's text limit, nothing repeated or lost",
  async run(s) {
    const message = await s.newDirectChat();
    // Paragraphs, then one long run without blank lines (the chunker must break at spaces).
    const text = `${prose(Math.floor(s.textLimit * 1.4), 3)}\n\n${prose(Math.floor(s.textLimit * 1.2), 5, Number.POSITIVE_INFINITY)}`;
    const ids = await deliverFinalText(s, { chat: message.chat, text, budget: s.budget(), key: replyKey("long") });
    const view = await s.view(message.chat.id);
    assert.equal(view.messages.length, ids.length, "every part the plugin reported sent is in the chat");
    assert.ok(view.messages.length >= 3, `a reply of ${text.length} characters needs at least 3 messages at ${s.textLimit}`);
    for (const m of view.messages) {
      assert.ok(
        m.text.length <= s.capabilities.textLimit,
        `message ${m.messageId} has ${m.text.length} characters, above the limit ${s.capabilities.textLimit}`,
      );
    }
    assert.equal(
      reassemblyError(
        view.messages.map((m) => m.text),
        text,
      ),
      null,
    );
  },
};

export const badInboundRejected: ConformanceCase = {
  id: "bad-inbound-rejected",
  title: "malformed inbound data is rejected without a crash; the next good message arrives",
  async run(s) {
    const from = s.received.length;
    await s.harness.platform.injectBadPayload();
    const good = await s.newDirectChat("a good message after a bad one");
    assert.ok(s.running(), "the account is still running (start() has not ended)");
    assert.notEqual(s.status.state, "error", "the account did not report an error state");
    const since = s.received.slice(from);
    for (const m of since) assert.deepEqual(inboundProblems(m, s.plugin.id, s.accountId), [], "only well-formed messages reach receive()");
    assert.equal(since[since.length - 1], good, "the good message arrived last");
    assert.deepEqual(s.problems, [], "no malformed message was received and start() did not fail");
  },
};
