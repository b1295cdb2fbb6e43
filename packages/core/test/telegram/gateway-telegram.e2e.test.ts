// Issue 6 "done when": the gateway answers a DM from an approved user through the (fake) Bot API
// with a preview that finalizes in place, and a stranger gets a pairing code; plus the
// reference's worst delivery bugs as regression tests, end to end through the real pipeline.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import telegramPlugin from "@openclaw/telegram";
import { startFakeOpenAI, startFakeTelegram, type FakeModelServer, type FakeTelegram } from "@openclaw/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPairingStore } from "../../src/access/index.js";
import { startGatewayProcess as startGateway } from "../../src/app/index.js";
import { silentLogger, type Gateway, type GatewayLogger } from "../../src/gateway/index.js";
import { openStateDb } from "../../src/state/index.js";

let home: string;
let llm: FakeModelServer;
let tg: FakeTelegram;
let gateway: Gateway | undefined;

const OWNER = { id: 4242, first_name: "Owner", username: "owner" };
const STRANGER = { id: 999, first_name: "Stranger" };
const dm = (user: { id: number; first_name: string }) => ({ id: user.id, type: "private" as const });

/** Starts the gateway; resolves once the bot polls (or once `ready` resolves). */
async function boot(
  telegram: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
  options: { log?: GatewayLogger; ready?: Promise<void> } = {},
) {
  const config = {
    agents: { defaults: { model: "local/llama", workspace: path.join(home, "ws") } },
    models: { providers: { local: { baseUrl: llm.baseUrl, models: [{ id: "llama" }] } } },
    channels: { telegram: { botToken: tg.token, apiRoot: tg.apiRoot, allowFrom: [String(OWNER.id)], ...telegram } },
    ...extra,
  };
  writeFileSync(path.join(home, "openclaw.json"), JSON.stringify(config));
  gateway = await startGateway({
    paths: { stateDir: home, configPath: path.join(home, "openclaw.json") },
    port: 0,
    plugins: [telegramPlugin as never],
    log: options.log ?? silentLogger,
    env: { HOME: home },
  });
  await (options.ready ?? tg.waitFor(() => tg.isPolling, 10_000));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** What the user sees in the chat: the bot's messages, current text, oldest first. */
const visible = (chatId: number) =>
  tg
    .chat(chatId)
    .filter((m) => m.from?.id === tg.botUser.id)
    .map((m) => m.text ?? "");

beforeEach(async () => {
  home = mkdtempSync(path.join(tmpdir(), "openclaw-tg-e2e-"));
  llm = await startFakeOpenAI({ chunkChars: 40 });
  tg = await startFakeTelegram();
});
afterEach(async () => {
  await gateway?.stop({ timeoutMs: 2000 });
  gateway = undefined;
  await tg.close();
  await llm.close();
  rmSync(home, { recursive: true, force: true });
});

describe("Telegram through the gateway", () => {
  it("a stranger gets a pairing code and never reaches the model; after approval the DM is answered", async () => {
    await boot({ allowFrom: [] });
    tg.sendUserMessage({ chat: dm(STRANGER), from: STRANGER, text: "hi bot" });
    const codeMsg = await tg.waitFor(() => visible(STRANGER.id).find((t) => /pairing/i.test(t)), 10_000);
    const code = /\b([A-HJ-NP-Z2-9]{8})\b/.exec(codeMsg)![1]!;
    expect(llm.requests.length).toBe(0);

    const db = openStateDb(home);
    createPairingStore(db).approve("telegram", code);
    db.close();

    llm.enqueue([{ text: "Hello, now I know you." }]);
    tg.sendUserMessage({ chat: dm(STRANGER), from: STRANGER, text: "hi again" });
    await tg.waitFor(() => visible(STRANGER.id).includes("Hello, now I know you."), 10_000);
    expect(llm.requests.length).toBe(1);
  });

  it("streams a partial preview that finalizes in place (one message, edited)", async () => {
    await boot();
    const reply = "Here is a longer answer that streams in pieces so the preview has something to show. ".repeat(4).trim();
    llm.enqueue([{ text: reply }, { delayMs: 50 }]);
    tg.sendUserMessage({ chat: dm(OWNER), from: OWNER, text: "tell me something" });
    await tg.waitFor(() => visible(OWNER.id)[0] === reply, 15_000);
    const mine = tg.chat(OWNER.id).filter((m) => m.from?.id === tg.botUser.id);
    expect(mine.length).toBe(1);
    expect(tg.editsOf(mine[0]!.message_id).length).toBeGreaterThanOrEqual(1);
  });

  it("a reply over 4096 characters never shows text twice (reference #87624)", async () => {
    await boot();
    const paragraph = (i: number) => `Paragraph ${i}: ${"lorem ipsum dolor sit amet ".repeat(12).trim()}.`;
    const reply = Array.from({ length: 20 }, (_, i) => paragraph(i)).join("\n\n");
    llm.enqueue([{ text: reply, chunkChars: 200 }]);
    tg.sendUserMessage({ chat: dm(OWNER), from: OWNER, text: "long please" });
    await tg.waitFor(() => visible(OWNER.id).join("\n").includes("Paragraph 19"), 20_000);
    // Stopping waits for the replies in flight, so nothing can arrive after the checks below.
    await gateway!.stop({ timeoutMs: 10_000 });
    gateway = undefined;
    const seen = visible(OWNER.id);
    if (process.env.DEBUG_TG)
      console.log(
        JSON.stringify(
          tg.calls
            .filter((c) => c.method !== "getUpdates")
            .map((c) => [
              c.method,
              c.ok,
              String(c.params.text ?? "").length,
              c.params.message_id,
              c.response && !c.response.ok ? c.response.description : "",
            ]),
        ),
      );
    const joined = seen.join("\n\n").replace(/\s+/g, " ").trim();
    expect(joined).toBe(reply.replace(/\s+/g, " ").trim());
    for (let i = 0; i < 20; i++) expect(joined.split(`Paragraph ${i}:`).length - 1).toBe(1);
    for (const text of seen) expect(text.length).toBeLessThanOrEqual(4096);
  });

  it("a multi-block turn with block replies off sends the answer once (reference #82329)", async () => {
    await boot({ streaming: { mode: "off" } });
    llm.enqueue([{ text: "First I will look." }, { toolCall: { name: "session_status", arguments: {} } }], [{ text: "The answer is 42." }]);
    tg.sendUserMessage({ chat: dm(OWNER), from: OWNER, text: "what is it" });
    await tg.waitFor(() => visible(OWNER.id).includes("The answer is 42."), 15_000);
    // Stopping waits for the replies in flight, so nothing can arrive after the checks below.
    await gateway!.stop({ timeoutMs: 10_000 });
    gateway = undefined;
    expect(visible(OWNER.id).filter((t) => t === "The answer is 42.").length).toBe(1);
  });

  it("a 502 from Telegram during the final is retried and the answer arrives once", async () => {
    await boot({ streaming: { mode: "off" } });
    llm.enqueue([{ text: "The answer survives a bad gateway." }]);
    tg.injectError({ method: "sendMessage", count: 1, error_code: 502, description: "Bad Gateway" });
    tg.sendUserMessage({ chat: dm(OWNER), from: OWNER, text: "hello?" });
    await tg.waitFor(() => visible(OWNER.id).includes("The answer survives a bad gateway."), 10_000);
    await gateway!.stop({ timeoutMs: 2000 });
    gateway = undefined;
    expect(visible(OWNER.id)).toEqual(["The answer survives a bad gateway."]);
    expect(tg.calls.filter((c) => c.method === "sendMessage").map((c) => c.ok)).toEqual([false, true]);
  });

  it("a 429 storm during a preview leaves exactly one final and no edits after it (reference #141528)", async () => {
    await boot();
    const reply = "A reply that takes a while to stream while Telegram keeps saying slow down. ".repeat(5).trim();
    llm.enqueue([{ text: reply.slice(0, 120) }, { delayMs: 400 }, { text: reply.slice(120) }]);
    tg.sendUserMessage({ chat: dm(OWNER), from: OWNER, text: "go" });
    await tg.waitFor(() => tg.calls.some((c) => c.method === "sendMessage" && c.params.chat_id === OWNER.id), 10_000);
    tg.inject429({ method: "editMessageText", count: 3, retryAfter: 1 });
    await tg.waitFor(() => visible(OWNER.id).includes(reply), 20_000);
    // Stopping waits for the replies in flight, so nothing can arrive after the checks below.
    await gateway!.stop({ timeoutMs: 10_000 });
    gateway = undefined;
    const mine = tg.chat(OWNER.id).filter((m) => m.from?.id === tg.botUser.id);
    expect(mine.map((m) => m.text)).toEqual([reply]);
    const versions = tg.editsOf(mine[0]!.message_id);
    expect(versions.at(-1)!.text).toBe(reply);
    const finalAt = versions.findIndex((v) => v.text === reply);
    expect(finalAt).toBe(versions.length - 1);
  });

  it("block replies send blocks as they complete and no duplicate final", async () => {
    await boot({ streaming: { block: { enabled: true } } }, {});
    const para = (i: number) => `Block ${i}. ${"words ".repeat(170).trim()}`;
    const reply = [para(1), para(2), para(3)].join("\n\n");
    // The model pauses between paragraphs longer than the coalescer's idle window (1 s), so each
    // completed block leaves on its own instead of being merged with the next.
    llm.enqueue([
      { text: `${para(1)}\n\n`, chunkChars: 300 },
      { delayMs: 1300 },
      { text: `${para(2)}\n\n`, chunkChars: 300 },
      { delayMs: 1300 },
      { text: para(3), chunkChars: 300 },
    ]);
    tg.sendUserMessage({ chat: dm(OWNER), from: OWNER, text: "blocks" });
    // The first block is visible before the model has finished.
    await tg.waitFor(() => visible(OWNER.id).some((t) => t.includes("Block 1.")), 10_000);
    expect(visible(OWNER.id).join("\n").includes("Block 3.")).toBe(false);
    await tg.waitFor(() => visible(OWNER.id).join("\n").includes("Block 3."), 20_000);
    // Stopping waits for the replies in flight, so nothing can arrive after the checks below.
    await gateway!.stop({ timeoutMs: 10_000 });
    gateway = undefined;
    const seen = visible(OWNER.id);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.join("\n\n").replace(/\s+/g, " ").trim()).toBe(reply.replace(/\s+/g, " ").trim());
  });

  it("a group message without a mention is ignored; with one it is answered", async () => {
    const group = { id: -100123, type: "supergroup" as const, title: "Team" };
    await boot({ groups: { [String(group.id)]: {} }, groupAllowFrom: [String(OWNER.id)] });
    tg.sendUserMessage({ chat: group, from: OWNER, text: "talking among ourselves" });
    llm.enqueue([{ text: "You called?" }]);
    tg.sendUserMessage({ chat: group, from: OWNER, text: `@${tg.botUser.username} hello` });
    await tg.waitFor(() => visible(group.id).includes("You called?"), 10_000);
    // Updates are handled in order: only the mention reached the model.
    expect(llm.requests.length).toBe(1);
    expect(JSON.stringify(llm.requests[0])).not.toContain("talking among ourselves");
  });
});

describe("Telegram webhook start", () => {
  it("logs the webhook URL without its userinfo or secret query parameters (issue 10)", async () => {
    const webhookUrl = "https://hookuser:hook-pass-2468@bot.example.com/tg?token=hook-query-1357";
    const logs: string[] = [];
    let listening!: () => void;
    const ready = new Promise<void>((resolve) => (listening = resolve));
    const line = (m: string) => {
      logs.push(m);
      if (m.includes("webhook listening")) listening();
    };
    const webhook = { webhookUrl, webhookSecret: "webhook_secret_abc123", webhookPort: await freePort(), webhookPath: "/tg" };
    await boot(webhook, {}, { log: { info: line, warn: line, error: line }, ready });
    expect(tg.webhookUrl).toBe(webhookUrl); // Telegram itself got the URL as configured
    const text = logs.join("\n");
    expect(text).toContain("Telegram posts to https://***@bot.example.com/tg?token=***");
    for (const secret of ["hookuser", "hook-pass-2468", "hook-query-1357", "webhook_secret_abc123", tg.token]) {
      expect(text).not.toContain(secret);
    }
  });
});
