// Matrix delivery figures: for a 4000-character reply streamed at a model's pace (40 characters
// every 40 ms, about 1000 characters a second), in each streaming mode, the events and edits it
// takes and the time from the start of the answer to the first text a Matrix client shows. The
// real outbound of @openclaw/matrix under the real delivery engine, over an in-process room that
// applies m.replace edits as a client does (add the homeserver's round trip to the times).
// Run after `pnpm build`: `node bench/matrix-delivery.mjs`.
import { createDeliveryStrategy, InMemoryDeliveryLedger, SendBudget } from "../packages/delivery/dist/index.js";
import { createMatrixOutbound, MATRIX_CAPABILITIES } from "../extensions/matrix/dist/index.js";

function reply(chars) {
  let text = "";
  for (let i = 0; text.length < chars; i++) text += `Sentence number ${i} is here.${i % 7 === 6 ? "\n\n" : " "}`;
  return text.slice(0, chars);
}

async function run(plan, mode) {
  const events = [];
  let firstVisibleAt;
  const room = {
    async sendEvent(_roomId, _type, content) {
      firstVisibleAt ??= performance.now();
      events.push(content);
      return `$e${events.length}`;
    },
    async redact() {},
    async upload() {
      return "mxc://bench/x";
    },
    async setTyping() {},
    isEncrypted: () => false,
    roomFor: async (id) => id,
  };
  const strategy = createDeliveryStrategy(plan, {
    outbound: createMatrixOutbound(room, { modeFor: () => mode, mediaMaxBytes: 1 << 20 }),
    budget: new SendBudget({ perChatRate: MATRIX_CAPABILITIES.sendRate.perChat, perChatBurst: MATRIX_CAPABILITIES.sendRate.perChatBurst }),
    ledger: new InMemoryDeliveryLedger(),
    target: { chat: { kind: "direct", id: "!bench:localhost" } },
    chatKey: "!bench:localhost",
    replyKey: `bench-${mode}`,
    channel: "matrix",
    accountId: "default",
    textLimit: MATRIX_CAPABILITIES.textLimit,
    editLimit: MATRIX_CAPABILITIES.editLimit,
    minEditIntervalMs: MATRIX_CAPABILITIES.minEditIntervalMs,
    chunkMode: "length",
    block: {
      minChars: 800,
      maxChars: 1200,
      breakPreference: "paragraph",
      coalesce: { minChars: 800, maxChars: 1200, idleMs: 1000 },
      break: "text_end",
    },
    typing: false,
    signal: new AbortController().signal,
    log: { warn: () => undefined },
  });
  const text = reply(4000);
  const start = performance.now();
  strategy.onEvent({ type: "run_start" });
  for (let i = 0; i < text.length; i += 40) {
    strategy.onEvent({ type: "text_delta", text: text.slice(i, i + 40) });
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
  for (const event of [
    { type: "text_end" },
    { type: "message_end" },
    { type: "final", text, silent: false },
    { type: "run_end", status: "ok" },
  ]) {
    strategy.onEvent(event);
  }
  const outcome = await strategy.finish();
  return {
    mode: plan.kind === "blocks" ? "block replies" : mode,
    ...outcome.counts,
    firstVisibleMs: Math.round(firstVisibleAt - start),
    totalMs: Math.round(performance.now() - start),
  };
}

const rows = [];
rows.push(await run({ kind: "final" }, "off"));
rows.push(await run({ kind: "preview", mode: "partial" }, "partial"));
rows.push(await run({ kind: "preview", mode: "quiet" }, "quiet"));
rows.push(await run({ kind: "preview", mode: "progress" }, "progress"));
rows.push(await run({ kind: "blocks" }, "off"));
console.log("4000-character reply, streamed over ~4 s:");
for (const r of rows) {
  console.log(
    `  ${r.mode.padEnd(14)} sends ${String(r.sends).padStart(2)}  edits ${String(r.edits).padStart(2)}  redactions ${r.deletes}  first visible text after ${r.firstVisibleMs} ms  (done in ${r.totalMs} ms)`,
  );
}
