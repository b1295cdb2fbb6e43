// Feishu streaming card: what one streamed reply costs and how soon the user sees text.
//
// Streams a 4000-character reply at model speeds (4 characters per token) through the delivery
// engine's NativeStreamController and SendBudget (production pacing: updates at most every
// 160 ms, sooner at sentence ends) into the real @openclaw/feishu session (the
// @larksuiteoapi/node-sdk Client) against the fake Feishu Open Platform. Prints the card updates
// per reply against the naive baseline of one update per model delta, and the time from the first
// model text to the first text visible in the card against the final-only baseline (the user sees
// nothing until the whole reply is written).
//
// Run after building: `pnpm build && node bench/feishu-card.mjs [--quick]`.
import { InMemoryDeliveryLedger, NativeStreamController, SendBudget } from "../packages/delivery/dist/index.js";
import { startFakeFeishu } from "../packages/testkit/dist/feishu/index.js";
import plugin from "../extensions/feishu/dist/index.js";

const quick = process.argv.includes("--quick");
const REPLY_CHARS = 4000;
const CHARS_PER_TOKEN = 4;
const rates = quick ? [100] : [50, 100];
const silentLog = { debug() {}, info() {}, warn() {}, error() {} };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function reply(chars) {
  let text = "";
  for (let i = 0; text.length < chars; i++) text += `Sentence number ${i} of the answer is here.${i % 6 === 5 ? "\n\n" : " "}`;
  return text.slice(0, chars).trim();
}

async function run(tokensPerSecond) {
  const fake = await startFakeFeishu();
  const stop = new AbortController();
  try {
    const store = new Map();
    const account = plugin.resolveAccount({
      accountId: "default",
      config: { appId: fake.appId, appSecret: fake.appSecret, domain: fake.baseUrl },
      channel: { appId: fake.appId, appSecret: fake.appSecret, domain: fake.baseUrl },
      env: {},
    });
    const session = await plugin.connect({
      accountId: "default",
      account,
      signal: stop.signal,
      receive: async () => undefined,
      status: () => undefined,
      log: silentLog,
      credentialsDir: "/tmp",
      cursor: { get: (k) => store.get(k), set: (k, v) => store.set(k, v) },
    });
    const caps = plugin.config.capabilities;
    const controller = new NativeStreamController({
      outbound: session,
      target: { chat: { kind: "direct", id: "oc_bench" } },
      budget: new SendBudget({ perChatRate: caps.sendRate.perChat, perChatBurst: caps.sendRate.perChatBurst }),
      chatKey: "oc_bench",
      mode: "replace",
      ledger: new InMemoryDeliveryLedger(),
      ledgerKey: "bench:final",
      textLimit: account.textChunkLimit,
      streamLimit: caps.nativeStreamLimit,
      throttleMs: caps.minEditIntervalMs,
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
      const wait = started + deltas * deltaMs - Date.now();
      if (wait > 0) await sleep(wait);
    }
    const streamMs = Date.now() - started;
    const result = await controller.finalize(text);
    const cards = fake.cards();
    const history = cards.flatMap((c) => c.history);
    const firstVisible = history.find((h) => h.content.trim() !== "");
    const settings = fake.calls.filter((c) => c.method === "PATCH" && c.path.includes("/settings") && c.status === 200).length;
    const shown = cards.map((c) => Object.values(c.elements).join("")).join("");
    return {
      tokensPerSecond,
      streamMs,
      deltas,
      updates: history.length,
      settings,
      firstVisibleMs: firstVisible ? firstVisible.at - started : Number.NaN,
      cards: cards.length,
      exactlyOnce: result.messageIds.length === 1 && shown === text,
    };
  } finally {
    stop.abort();
    await fake.close();
  }
}

for (const rate of rates) {
  const r = await run(rate);
  console.log(
    `${REPLY_CHARS} chars at ${r.tokensPerSecond} tok/s (${(r.streamMs / 1000).toFixed(1)} s): ${r.cards} card, ` +
      `${r.updates} content updates + ${r.settings} close = ${r.updates + r.settings} card calls; baseline (one update per delta) ${r.deltas}; ` +
      `ratio ${((r.updates + r.settings) / r.deltas).toFixed(3)}; first text visible after ${r.firstVisibleMs} ms ` +
      `(final-only baseline ${r.streamMs} ms, ratio ${(r.firstVisibleMs / r.streamMs).toFixed(3)}); one card holds the reply exactly: ${r.exactlyOnce}`,
  );
}
