// Conformance cases: live previews (finalized in place, rollover at the edit limit, pacing).
import assert from "node:assert/strict";
import { isPreviewOp, openPreview, pause, replyKey, updateAndWait, versionsByMessage } from "./drive.js";
import type { ConformanceCase } from "./define.js";
import { nonPrefixVersions, prose, reassemblyError } from "./text.js";

export const previewFinalizedInPlace: ConformanceCase = {
  id: "preview-finalized-in-place",
  title: "a partial preview is edited in place and ends as exactly the final text (one message)",
  async run(s) {
    const message = await s.newDirectChat();
    const chatId = message.chat.id;
    const final = prose(Math.min(240, s.editLimit - 10), 11);
    const preview = openPreview(s, message.chat, s.budget(), new AbortController().signal, replyKey("preview"));
    if (s.outbound.editText !== undefined) {
      await updateAndWait(s, preview, chatId, final.slice(0, 80));
      await updateAndWait(s, preview, chatId, final.slice(0, 160));
    } else {
      preview.update(final.slice(0, 160)); // a channel that cannot edit shows nothing before the final
    }
    await preview.finalize(final);
    const view = await s.view(chatId);
    assert.equal(view.messages.length, 1, "a short reply is one message");
    assert.equal(view.messages[0]!.text.trim(), final, "the message ends with exactly the final text");
    assert.equal(view.deleted.length, 0, "nothing was deleted");
    if (s.outbound.editText !== undefined) assert.ok(view.messages[0]!.edits >= 1, "the preview was edited in place");
  },
};

export const rolloverWithoutRepeats: ConformanceCase = {
  id: "rollover-without-repeats",
  title: "a preview that outgrows the edit limit continues in a new message without repeating text",
  needsEdit: true,
  async run(s) {
    const message = await s.newDirectChat();
    const chatId = message.chat.id;
    const limit = s.editLimit;
    const final = prose(Math.floor(limit * 2.4), 17, Math.max(40, Math.floor(limit / 5)));
    const preview = openPreview(s, message.chat, s.budget(), new AbortController().signal, replyKey("rollover"));
    for (const share of [0.5, 1.1, 1.7, 2.2]) await updateAndWait(s, preview, chatId, final.slice(0, Math.floor(limit * share)));
    const previewMessages = new Set(s.calls.filter((c) => isPreviewOp(chatId)(c) && c.ok && c.op === "send").map((c) => c.messageId));
    assert.ok(previewMessages.size >= 2, "the preview rolled over to a second message before the final");
    await preview.finalize(final);

    const view = await s.view(chatId);
    assert.ok(view.messages.length >= 3, `a reply of ${final.length} characters at an edit limit of ${limit} spans at least 3 messages`);
    for (const m of view.messages) {
      const cap = m.edits > 0 ? limit : s.textLimit;
      assert.ok(m.text.length <= cap, `message ${m.messageId} has ${m.text.length} characters, above ${cap}`);
    }
    assert.equal(
      reassemblyError(
        view.messages.map((m) => m.text),
        final,
      ),
      null,
    );
    assert.equal(view.deleted.length, 0, "nothing was deleted and sent again");
    for (const [id, versions] of versionsByMessage(s.calls, chatId)) {
      assert.deepEqual(nonPrefixVersions(versions), [], `message ${id} never took back text it had shown`);
    }
  },
};

export const editsPaced: ConformanceCase = {
  id: "edits-paced",
  title: "preview edits are paced to at most one per minEditIntervalMs per message",
  needsEdit: true,
  async run(s) {
    const message = await s.newDirectChat();
    const chatId = message.chat.id;
    const final = prose(Math.min(s.editLimit - 20, 900), 23);
    const preview = openPreview(s, message.chat, s.budget(), new AbortController().signal, replyKey("paced"));
    const from = s.seq();
    // Deltas every 10 ms for three throttle intervals: far faster than the channel's edit rate.
    const steps = Math.ceil((3 * s.throttleMs) / 10);
    for (let i = 1; i <= steps; i++) {
      preview.update(final.slice(0, Math.max(40, Math.floor((final.length * i) / steps))));
      await pause(10);
    }
    await preview.finalize(final);
    const ops = s.calls.filter((c) => c.seq > from && isPreviewOp(chatId)(c));
    assert.ok(ops.length >= 2, "the preview was sent and edited while the text grew");
    const byMessage = new Map<string, number[]>();
    for (const op of ops) {
      const key = op.messageId ?? `call ${op.seq}`;
      byMessage.set(key, [...(byMessage.get(key) ?? []), op.startedAt]);
    }
    for (const [id, times] of byMessage) {
      for (let i = 1; i < times.length; i++) {
        const gap = times[i]! - times[i - 1]!;
        assert.ok(gap >= s.throttleMs - 5, `message ${id}: two preview changes ${gap} ms apart, the channel asks for ${s.throttleMs} ms`);
      }
    }
    const view = await s.view(chatId);
    assert.equal(view.messages.length, 1);
    assert.equal(view.messages[0]!.text.trim(), final);
  },
};
