// The Feishu channel (extensions/feishu) in the real gateway process, against the fake Feishu Open
// Platform and a fake model: streamed replies end as one card, block replies show each word once,
// a 40 KB answer continues into a second card, redelivered events are answered once (also across a
// restart), webhook mode runs on the gateway's own port, and the long connection comes back after
// it was dropped.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type FakeModelServer, startFakeOpenAI } from "@openclaw/testkit";
import { dmChatId, type FakeFeishu, startFakeFeishu } from "@openclaw/testkit/feishu";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type GatewayCliProcess, makeTempHome, startGatewayCli } from "../helpers/cli.js";

const PLUGIN_DIR = fileURLToPath(new URL("../../../../extensions/feishu/", import.meta.url));
const USER = "ou_1111111111111111111111111111aaaa";
const CHAT = dmChatId(USER);
const KEYS = { encryptKey: "enc-key-for-tests", verificationToken: "verification-token" };

/** Answers of the fake model, by a word in the question; words numbered so repeats can be counted. */
function answerFor(question: string): string {
  const size = question.includes("huge") ? 40_000 : question.includes("long") ? 4000 : 300;
  const words: string[] = [];
  for (let i = 0, n = 0; n < size; i++) {
    const word = `w${i}${i % 12 === 11 ? "." : ""}`;
    words.push(word);
    n += word.length + 1;
  }
  return `${words.join(" ")} END`.slice(-size).trim();
}

let temp: { home: string; cleanup(): void };
let fake: FakeFeishu;
let llm: FakeModelServer;
let gateway: GatewayCliProcess | undefined;

beforeEach(async () => {
  temp = makeTempHome("openclaw-feishu-");
  fake = await startFakeFeishu({ verificationToken: KEYS.verificationToken });
  llm = await startFakeOpenAI({
    responder: (request) => {
      const messages = (request.body?.messages ?? []) as { role: string; content: unknown }[];
      const last = messages.filter((m) => m.role === "user").at(-1);
      const text = answerFor(typeof last?.content === "string" ? last.content : "");
      const step = text.length > 10_000 ? 800 : 60;
      const steps = [];
      for (let i = 0; i < text.length; i += step) {
        if (i > 0) steps.push({ delayMs: 15 });
        steps.push({ text: text.slice(i, i + step) });
      }
      return steps;
    },
  });
});

afterEach(async () => {
  if (gateway && gateway.child.exitCode === null) {
    gateway.child.kill("SIGKILL");
    await gateway.exited;
  }
  gateway = undefined;
  await fake.close();
  await llm.close();
  temp.cleanup();
});

function configure(feishu: Record<string, unknown>): void {
  const stateDir = path.join(temp.home, ".openclaw");
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(
    path.join(stateDir, "openclaw.json"),
    JSON.stringify({
      agents: { defaults: { model: "local/llama", skipBootstrap: true, workspace: path.join(temp.home, "ws") } },
      models: { providers: { local: { baseUrl: llm.baseUrl, apiKey: "sk-local", models: [{ id: "llama" }] } } },
      plugins: { load: { paths: [PLUGIN_DIR] } },
      channels: { feishu: { appId: fake.appId, appSecret: fake.appSecret, domain: fake.baseUrl, allowFrom: [USER], ...feishu } },
    }),
  );
}

async function start(): Promise<GatewayCliProcess> {
  gateway = await startGatewayCli({ home: temp.home });
  const g = gateway;
  await until(
    () => /account feishu:default connected/.test(g.stderr()),
    30_000,
    () => `the Feishu account did not connect:\n${g.stderr()}`,
  );
  return g;
}

/** Polls `check` (the gateway's log is not an event the fake sees) until it holds. */
async function until(check: () => boolean, timeoutMs: number, why: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(why());
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The bot's messages in the DM and what each shows. */
function shown(chatId = CHAT): Array<{ id: string; type: string; text: string; deleted: boolean }> {
  return fake
    .messages(chatId)
    .filter((m) => m.senderId === "bot")
    .map((m) => {
      const cardId = (m.content as { data?: { card_id?: string } })?.data?.card_id;
      const card = fake.cards().find((c) => c.cardId === cardId);
      const post = (m.content as { zh_cn?: { content?: Array<Array<{ text?: string }>> } })?.zh_cn;
      const text = card
        ? Object.values(card.elements).join("")
        : (post?.content ?? [])
            .flat()
            .map((e) => e.text ?? "")
            .join("");
      return { id: m.messageId, type: m.msgType, text, deleted: m.deleted };
    });
}

const finishedCards = (n: number) => {
  const cards = fake.cards();
  return cards.length >= n && cards.every((c) => !c.streaming) ? cards : undefined;
};

describe("Feishu in the gateway", () => {
  it("a 4000-character streamed reply ends as exactly one visible answer in one card, typing shown once and removed", async () => {
    configure({});
    await start();
    const { messageId } = await fake.userSends({ openId: USER, text: "a long one please" });
    const [card] = await fake.waitFor(() => finishedCards(1), 30_000);
    const answer = answerFor("a long one please");
    expect(shown()).toEqual([{ id: expect.any(String), type: "interactive", text: answer, deleted: false }]);
    const seqs = card!.history.map((h) => h.sequence);
    expect(seqs.every((s, i) => i === 0 || s > seqs[i - 1]!)).toBe(true);
    expect(card!.history.length).toBeGreaterThan(2); // it grew while the model wrote
    expect(card!.summary).toBe(`${answer.slice(0, 50)}...`);
    const reactions = await fake.waitFor(() => {
      const r = fake.reactions(messageId);
      return r.length > 0 && r.every((x) => x.removed) ? r : undefined;
    });
    expect(reactions.map((r) => r.emojiType)).toEqual(["Typing"]);
  }, 90_000);

  it("partial streaming with block replies on shows each word exactly once", async () => {
    configure({ streaming: { block: { enabled: true } } });
    await start();
    await fake.userSends({ openId: USER, text: "a long one please" });
    const answer = answerFor("a long one please");
    const text = await fake.waitFor(() => {
      const all = shown()
        .map((m) => m.text)
        .join(" ");
      return all.includes("END") ? all : undefined;
    }, 30_000);
    for (const word of answer.split(/\s+/)) {
      const count = text.split(/\s+/).filter((w) => w === word).length;
      expect(count, word).toBe(1);
    }
  }, 90_000);

  it("a 40 KB answer continues into a second card without repeats and without deletes", async () => {
    configure({});
    await start();
    await fake.userSends({ openId: USER, text: "a huge one please" });
    await fake.waitFor(() => finishedCards(2), 40_000);
    const messages = shown();
    expect(messages.length).toBeGreaterThanOrEqual(2);
    expect(messages.every((m) => m.type === "interactive" && !m.deleted)).toBe(true);
    expect(messages.map((m) => m.text).join("")).toBe(answerFor("a huge one please"));
    for (const m of messages) expect(Buffer.byteLength(JSON.stringify(m.text))).toBeLessThan(30 * 1024);
  }, 90_000);

  it("a redelivered event is answered once, also after a restart; the long connection comes back after a drop", async () => {
    configure({ streaming: { mode: "off" } });
    const first = await start();
    const { eventId } = await fake.userSends({ openId: USER, text: "hello" });
    await fake.waitFor(() => shown().length === 1 || undefined, 30_000);
    await fake.redeliver(eventId);
    first.child.kill("SIGTERM");
    await first.exited;
    await start();
    await fake.redeliver(eventId);
    await fake.waitFor(() => fake.acks().filter((a) => a.eventId === eventId).length >= 3 || undefined, 15_000);

    fake.dropConnections();
    await fake.waitFor(() => fake.connections() > 0 || undefined, 15_000);
    await fake.userSends({ openId: USER, text: "after the drop" });
    await fake.waitFor(() => shown().length === 2 || undefined, 30_000);
    expect(shown().map((m) => m.text)).toEqual([answerFor("hello"), answerFor("after the drop")]);
    expect(
      fake
        .acks()
        .filter((a) => a.eventId === eventId)
        .every((a) => a.code === 200),
    ).toBe(true);
  }, 120_000);

  it("webhook mode: signed, encrypted events on the gateway's port are answered; bad signatures are refused", async () => {
    configure({ connectionMode: "webhook", ...KEYS, streaming: { mode: "off" } });
    const g = await start();
    const url = `http://127.0.0.1:${g.port}/feishu/events`;
    const { response, challenge } = await fake.pushUrlVerification(url, KEYS);
    expect(await response.json()).toEqual({ challenge });

    const event = fake.eventFor({ openId: USER, text: "over the webhook" });
    const bad = await fake.pushWebhook(url, event, KEYS, { badSignature: true });
    expect(bad.status).toBe(401);
    const ok = await fake.pushWebhook(url, event, KEYS);
    expect(ok.status).toBe(200);
    expect((await fake.pushWebhook(url, event, KEYS)).status).toBe(200); // redelivered: taken once
    await fake.waitFor(() => shown().length === 1 || undefined, 30_000);
    expect(shown().map((m) => m.text)).toEqual([answerFor("over the webhook")]);
    expect(fake.connections()).toBe(0);
  }, 90_000);
});
