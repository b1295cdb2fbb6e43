// Conformance cases: exactly one final, rate limits honoured, abort.
import assert from "node:assert/strict";
import { InMemoryDeliveryLedger } from "@openclaw/delivery";
import { abortAndExpectSilence, deliverFinalText, isPreviewOp, isRateLimited, openPreview, replyKey, updateAndWait } from "./drive.js";
import type { ConformanceCase } from "./define.js";
import type { ConformanceSession } from "./host.js";
import { prose, reassemblyError } from "./text.js";

/** Successful final-priority sends and edits to `chatId` after `from`. */
function finals(s: ConformanceSession, chatId: string, from: number) {
  return s.calls.filter(
    (c) => c.seq > from && c.chatId === chatId && c.priority === "final" && c.ok === true && (c.op === "send" || c.op === "edit"),
  );
}

export const exactlyOneFinal: ConformanceCase = {
  id: "exactly-one-final",
  title: "the final reply is delivered exactly once (finalize twice, retries, a crash mid-reply)",
  async run(s) {
    // A preview finalized twice (a host calling finalize on both text_end and final).
    const message = await s.newDirectChat();
    const chatId = message.chat.id;
    const final = prose(200, 29);
    const preview = openPreview(s, message.chat, s.budget(), new AbortController().signal, replyKey("once"));
    const from = s.seq();
    if (s.outbound.editText !== undefined) await updateAndWait(s, preview, chatId, final.slice(0, 120));
    const [a, b] = await Promise.all([preview.finalize(final), preview.finalize(final)]);
    assert.deepEqual(a, b);
    assert.equal(finals(s, chatId, from).length, 1, "one final send or edit");
    assert.deepEqual(
      (await s.view(chatId)).messages.map((m) => m.text.trim()),
      [final],
    );

    // A final in parts, cut short after its first part and retried with the same ledger.
    const second = await s.newDirectChat();
    const text = prose(Math.floor(s.textLimit * 2.5), 31);
    const ledger = new InMemoryDeliveryLedger();
    const key = replyKey("resume");
    const budget = s.budget();
    await assert.rejects(
      deliverFinalText(s, {
        chat: second.chat,
        text,
        budget,
        key,
        ledger,
        beforeSend: (index) => {
          if (index === 1) throw new Error("the host crashed");
        },
      }),
      /crashed/,
    );
    const ids = await deliverFinalText(s, { chat: second.chat, text, budget, key, ledger });
    const again = await deliverFinalText(s, { chat: second.chat, text, budget, key, ledger });
    assert.deepEqual(again, ids, "a delivery already complete sends nothing");
    const view = await s.view(second.chat.id);
    assert.equal(view.messages.length, ids.length);
    assert.equal(
      reassemblyError(
        view.messages.map((m) => m.text),
        text,
      ),
      null,
      "every part is shown once, in order",
    );
  },
};

export const rateLimitHonoured: ConformanceCase = {
  id: "rate-limit-honoured",
  title: "429s are reported as RateLimitedError and honoured; a storm during a preview still ends in exactly one final",
  async run(s) {
    const message = await s.newDirectChat();
    const chatId = message.chat.id;
    const final = prose(300, 37);
    const preview = openPreview(s, message.chat, s.budget(), new AbortController().signal, replyKey("429"));
    const from = s.seq();
    const canEdit = s.outbound.editText !== undefined;
    if (canEdit) await updateAndWait(s, preview, chatId, final.slice(0, 100));
    await s.harness.platform.inject429(2, 300);
    if (canEdit) await updateAndWait(s, preview, chatId, final.slice(0, 200), true);
    preview.update(final.slice(0, 250));
    const finalized = await preview.finalize(final).then(
      () => undefined,
      (error: unknown) => error,
    );

    const calls = s.calls.filter((c) => c.seq > from && c.chatId === chatId);
    const limited = calls.filter((c) => c.ok === false);
    assert.ok(limited.length >= 1, "the platform's 429 reached the plugin");
    for (const c of limited)
      assert.ok(isRateLimited(c.error), `a 429 must surface as RateLimitedError with retryAfterMs, got ${String(c.error)}`);
    assert.equal(finalized, undefined, "the final was delivered despite the 429s");
    for (const c of limited) {
      const resumeAt = c.endedAt! + (c.error as { retryAfterMs: number }).retryAfterMs;
      const early = calls.find((o) => o.seq > c.seq && o.op !== "typing" && o.startedAt < resumeAt - 5);
      assert.equal(early, undefined, `a call ${early ? resumeAt - early.startedAt : 0} ms before the retry-after of a 429 had passed`);
    }
    const finalOps = calls.filter((c) => c.priority === "final" && c.ok === true);
    assert.equal(finalOps.length, 1, "exactly one final send or edit");
    const afterFinal = calls.find((c) => c.seq > finalOps[0]!.seq && isPreviewOp(chatId)(c));
    assert.equal(afterFinal, undefined, "no preview edit after the final");
    const view = await s.view(chatId);
    assert.deepEqual(
      view.messages.map((m) => m.text.trim()),
      [final],
      "one message with the final text",
    );

    // A final-only reply in two parts through a 429.
    const second = await s.newDirectChat();
    const text = prose(Math.floor(s.textLimit * 1.5), 41);
    await s.harness.platform.inject429(1, 300);
    await deliverFinalText(s, { chat: second.chat, text, budget: s.budget(), key: replyKey("429-final") });
    const secondView = await s.view(second.chat.id);
    assert.equal(
      reassemblyError(
        secondView.messages.map((m) => m.text),
        text,
      ),
      null,
      "the final arrived complete, each part once",
    );
  },
};

export const abortStopsStream: ConformanceCase = {
  id: "abort-stops-stream",
  title: "aborting a run stops its preview: nothing is sent after the abort",
  async run(s) {
    const message = await s.newDirectChat();
    const chatId = message.chat.id;
    const text = prose(600, 43);
    const run = new AbortController();
    const preview = openPreview(s, message.chat, s.budget(), run.signal, replyKey("abort"));
    if (s.outbound.editText !== undefined) await updateAndWait(s, preview, chatId, text.slice(0, 100));
    preview.update(text.slice(0, 200)); // an edit now waits for the throttle
    await abortAndExpectSilence(s, { chatId, run, reply: preview, text });
  },
};
