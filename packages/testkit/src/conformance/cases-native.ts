// Conformance cases: native streams (channels that declare `capabilities.nativeStream`).
import assert from "node:assert/strict";
import { InMemoryDeliveryLedger } from "@openclaw/delivery";
import type { ConformanceCase } from "./define.js";
import { abortAndExpectSilence, openNativeStream, pause, replyKey } from "./drive.js";
import type { ConformanceSession, OutboundCallRecord } from "./host.js";
import { prose } from "./text.js";

/** Successful stream calls of `op` to `chatId` after `from`. */
function streamCalls(s: ConformanceSession, chatId: string, from: number, op: OutboundCallRecord["op"]): OutboundCallRecord[] {
  return s.calls.filter((c) => c.seq > from && c.chatId === chatId && c.op === op && c.ok === true);
}

export const nativeStreamFinal: ConformanceCase = {
  id: "native-stream",
  title: "a native stream grows with the reply, paced, in its declared semantics, and ends holding exactly the final",
  needs: "nativeStream",
  async run(s) {
    const message = await s.newDirectChat();
    const chatId = message.chat.id;
    const mode = s.capabilities.nativeStream!;
    const final = prose(Math.min(600, s.textLimit - 20), 47);
    const ledger = new InMemoryDeliveryLedger();
    const key = replyKey("native");
    const from = s.seq();
    const stream = openNativeStream(s, message.chat, s.budget(), new AbortController().signal, key, ledger, message.messageId);
    // Deltas every 10 ms for three throttle intervals: far faster than the channel's update rate.
    const steps = Math.ceil((3 * s.throttleMs) / 10);
    for (let i = 1; i <= steps; i++) {
      stream.update(final.slice(0, Math.max(20, Math.floor((final.length * i) / steps))));
      await pause(10);
    }
    const result = await stream.finalize(final);
    assert.equal(result.via, "stream", `the final finished the stream (fallback: ${result.fallback ?? "none"})`);

    assert.equal(streamCalls(s, chatId, from, "stream-open").length, 1, "one stream was opened");
    const updates = streamCalls(s, chatId, from, "stream-update");
    assert.ok(updates.length >= 1, "the stream was updated while the text grew");
    for (let i = 1; i < updates.length; i++) {
      const gap = updates[i]!.startedAt - updates[i - 1]!.startedAt;
      assert.ok(gap >= s.throttleMs - 5, `two stream updates ${gap} ms apart, the channel asks for ${s.throttleMs} ms`);
    }
    const finish = streamCalls(s, chatId, from, "stream-finish");
    assert.equal(finish.length, 1, "the stream was finished once");
    if (mode === "replace") {
      for (const u of updates) assert.ok(final.startsWith(u.text!), "a replace update carries the whole text so far");
      assert.equal(finish[0]!.text, final, "a replace stream is finished with the whole final");
    } else {
      const pieces = [...updates, ...finish].map((c) => c.text!);
      assert.equal(pieces.join(""), final, "append updates carry only the new text: together they are the final, once");
    }
    const view = await s.view(chatId);
    assert.deepEqual(
      view.messages.map((m) => m.text.trim()),
      [final],
      "the chat shows the final exactly once, in one message",
    );
    assert.deepEqual(result.messageIds, [view.messages[0]!.messageId], "the stream reported the message that holds the final");

    // A retry (say, after a restart) with the same ledger finds the final delivered.
    const seq = s.seq();
    const again = await openNativeStream(
      s,
      message.chat,
      s.budget(),
      new AbortController().signal,
      key,
      ledger,
      message.messageId,
    ).finalize(final);
    assert.equal(again.via, "ledger");
    assert.equal(s.seq(), seq, "nothing was sent again");
  },
};

export const nativeStreamAborted: ConformanceCase = {
  id: "native-stream-aborted",
  title: "aborting a run ends its native stream: nothing but the abort is sent afterwards",
  needs: "nativeStream",
  async run(s) {
    const message = await s.newDirectChat();
    const chatId = message.chat.id;
    const text = prose(600, 53);
    const run = new AbortController();
    const from = s.seq();
    const stream = openNativeStream(
      s,
      message.chat,
      s.budget(),
      run.signal,
      replyKey("native-abort"),
      new InMemoryDeliveryLedger(),
      message.messageId,
    );
    stream.update(text.slice(0, 100));
    await s.waitForCall((c) => c.chatId === chatId && c.op === "stream-update" && c.ok === true, "the first stream update", from);
    stream.update(text.slice(0, 200)); // the next update waits for the throttle
    await abortAndExpectSilence(s, { chatId, run, reply: stream, text, allowed: ["stream-abort"] });
  },
};
