// Live preview on Telegram: how many Bot API calls one streamed reply costs.
//
// Streams a 4000-character reply at realistic model speeds (4 characters per token) through the
// delivery engine's PreviewController and SendBudget (production defaults: 1000 ms throttle, 1 send/s per
// chat, burst 3) into the real @openclaw/telegram outbound (grammY) against the fake Bot API with
// Telegram-like flood control (1/s per chat, burst 3). The baseline is the naive approach the
// reference once had: one edit per model delta. Prints calls per reply, the ratio to the
// baseline, 429s seen, and whether the chat shows the reply exactly once.
//
// Run after building: `pnpm build && node bench/telegram-preview.mjs [--quick]`.
import { PreviewController, SendBudget } from "../packages/delivery/dist/index.js";
import { startFakeTelegram } from "../packages/testkit/dist/index.js";
import { createTelegramPlugin } from "../extensions/telegram/dist/index.js";

const quick = process.argv.includes("--quick");
const REPLY_CHARS = 4000;
const CHARS_PER_TOKEN = 4;
const rates = quick ? [200] : [50, 100];

function reply(chars) {
  let text = "";
  for (let i = 0; text.length < chars; i++) text += `Sentence number ${i} of the answer is here.${i % 6 === 5 ? "\n\n" : " "}`;
  return text.slice(0, chars).trim();
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const silentLog = { debug() {}, info() {}, warn() {}, error() {} };

async function run(tokensPerSecond) {
  const fake = await startFakeTelegram({ enforceRateLimit: { perChatPerSecond: 1, burst: 3 } });
  try {
    const plugin = createTelegramPlugin();
    const account = plugin.resolveAccount({ apiRoot: fake.apiRoot, botToken: fake.token }, "default", {});
    const outbound = plugin.createOutbound(account, { accountId: "default", log: silentLog, signal: new AbortController().signal });
    const budget = new SendBudget();
    const controller = new PreviewController({
      outbound,
      target: { chat: { kind: "direct", id: "42" } },
      budget,
      chatKey: "42",
      textLimit: plugin.capabilities.textLimit,
      editLimit: plugin.capabilities.editLimit,
      format: "markdown",
      idempotencyKey: "bench",
      signal: new AbortController().signal,
    });
    const text = reply(REPLY_CHARS);
    const deltaMs = 1000 / tokensPerSecond;
    const started = Date.now();
    let deltas = 0;
    for (let end = CHARS_PER_TOKEN; end < text.length + CHARS_PER_TOKEN; end += CHARS_PER_TOKEN) {
      controller.update(text.slice(0, end));
      deltas += 1;
      const due = started + deltas * deltaMs;
      const wait = due - Date.now();
      if (wait > 0) await sleep(wait);
    }
    const streamMs = Date.now() - started;
    const finalStarted = Date.now();
    await controller.finalize(text);
    const finalMs = Date.now() - finalStarted;
    const calls = fake.calls.filter((c) => c.method === "sendMessage" || c.method === "editMessageText");
    const chat = fake.chat(42);
    const shown = chat
      .map((m) => m.text)
      .join(" ")
      .replace(/\s+/g, " ");
    return {
      tokensPerSecond,
      streamSeconds: streamMs / 1000,
      deltas,
      sends: calls.filter((c) => c.method === "sendMessage" && c.ok).length,
      edits: calls.filter((c) => c.method === "editMessageText" && c.ok).length,
      rateLimited: calls.filter((c) => c.httpStatus === 429).length,
      finalMs,
      exactlyOnce: chat.length === 1 && shown === text.replace(/\s+/g, " "),
    };
  } finally {
    await fake.close();
  }
}

for (const rate of rates) {
  const r = await run(rate);
  const apiCalls = r.sends + r.edits;
  console.log(
    `${REPLY_CHARS} chars at ${r.tokensPerSecond} tok/s (${r.streamSeconds.toFixed(1)} s): ` +
      `${r.sends} send + ${r.edits} edits = ${apiCalls} calls; baseline (one edit per delta) ${r.deltas} calls; ` +
      `ratio ${(apiCalls / r.deltas).toFixed(3)} (${(r.deltas / apiCalls).toFixed(1)}x fewer); ` +
      `429s ${r.rateLimited}; final took ${r.finalMs} ms; reply shown exactly once: ${r.exactlyOnce}`,
  );
}
