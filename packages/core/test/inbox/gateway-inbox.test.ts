// The inbox through an in-process gateway on the loopback channel: a message is recorded before
// the platform's delivery is acknowledged, a redelivery is not handled twice, and a message the
// shutdown deadline cut off is answered at the next start, once.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  createLoopbackPlatform,
  createLoopbackPlugin,
  startFakeOpenAI,
  type FakeModelServer,
  type LoopbackPlatform,
  type LoopbackUpdate,
} from "@openclaw/testkit";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startGatewayProcess as startGateway } from "../../src/app/index.js";
import { silentLogger, type Gateway } from "../../src/gateway/index.js";
import { MAX_INBOX_ATTEMPTS } from "../../src/inbox/index.js";
import { openAgentStoreReadOnly } from "../../src/sessions/index.js";

let home: string;
let stateDir: string;
let model: FakeModelServer;
let platform: LoopbackPlatform;
let gateway: Gateway | undefined;

beforeEach(async () => {
  home = mkdtempSync(path.join(tmpdir(), "openclaw-inbox-gw-"));
  stateDir = path.join(home, ".openclaw");
  mkdirSync(stateDir, { recursive: true });
  model = await startFakeOpenAI();
  platform = createLoopbackPlatform();
  writeFileSync(
    path.join(stateDir, "openclaw.json"),
    JSON.stringify({
      agents: { defaults: { model: "local/llama", skipBootstrap: true } },
      models: { providers: { local: { baseUrl: model.baseUrl, apiKey: "sk-local", models: [{ id: "llama" }] } } },
      session: { dmScope: "per-channel-peer" },
      channels: { loopback: { dmPolicy: "open", allowFrom: ["*"] } },
    }),
  );
});
afterEach(async () => {
  await gateway?.stop({ timeoutMs: 1000 });
  gateway = undefined;
  await model.close();
  rmSync(home, { recursive: true, force: true });
});

async function boot(): Promise<Gateway> {
  gateway = await startGateway({
    paths: { stateDir, configPath: path.join(stateDir, "openclaw.json") },
    port: 0,
    env: { HOME: home },
    plugins: [createLoopbackPlugin(platform)],
    log: silentLogger,
  });
  await platform.waitFor(() => platform.connectedBots().includes("default"), { what: "the bot to connect" });
  return gateway;
}

function inboxRows(): Array<{ message_id: string; state: string; reason: string | null }> {
  const db = new Database(path.join(stateDir, "state", "openclaw.sqlite"), { readonly: true });
  try {
    return db.prepare("SELECT message_id, state, reason FROM inbox ORDER BY id").all() as never;
  } finally {
    db.close();
  }
}

function userEntries(sessionKey: string): string[] {
  const store = openAgentStoreReadOnly({ stateDir, agentId: "main" })!;
  try {
    const sessionId = store.getEntry(sessionKey)!.sessionId;
    return store
      .readEvents(sessionId)
      .map((e) => (e.event as { message?: { role: string; content: string } }).message)
      .filter((m) => m?.role === "user")
      .map((m) => m!.content);
  } finally {
    store.close();
  }
}

const update = (updateId: number, messageId: string, text: string): LoopbackUpdate => ({
  updateId,
  type: "message",
  message: { messageId, chat: { id: "ann", kind: "direct" }, from: { id: "ann" }, text, mentionsBot: true, date: Date.now() },
});

describe("the inbox in the gateway", () => {
  it("records a message before the platform's delivery resolves, and handles a redelivery once", async () => {
    await boot();
    model.enqueue([{ delayMs: 300 }, { text: "Hello Ann." }]);
    await platform.injectRaw(update(1, "m-1", "hello"));
    // The delivery resolved: the message is in the inbox although the model has not answered.
    expect(inboxRows()).toEqual([{ message_id: "m-1", state: "pending", reason: null }]);
    await platform.injectRaw(update(2, "m-1", "hello"));
    await platform.waitFor(() => platform.chatView("ann").texts.includes("Hello Ann."), { what: "the answer" });
    await gateway!.stop();
    expect(model.requests).toHaveLength(1);
    expect(platform.chatView("ann").texts).toEqual(["Hello Ann."]);
    expect(inboxRows()).toEqual([{ message_id: "m-1", state: "answered", reason: "replied (ok)" }]);
  });

  it("a message the shutdown deadline cut off is answered at the next start, once, with its text recorded once", async () => {
    await boot();
    model.enqueue([{ delayMs: 10_000 }, { text: "too late" }], [{ text: "Answered after the restart." }]);
    await platform.userSays({ sender: "ann", text: "are you there?" });
    await model.waitForRequests(1);
    await gateway!.stop({ timeoutMs: 100 });
    gateway = undefined;
    expect(inboxRows().map((r) => r.state)).toEqual(["pending"]);
    expect(platform.chatView("ann").texts).toEqual([]);

    await boot();
    await platform.waitFor(() => platform.chatView("ann").texts.includes("Answered after the restart."), { what: "the answer" });
    await gateway!.stop();
    gateway = undefined;
    expect(platform.chatView("ann").texts).toEqual(["Answered after the restart."]);
    expect(model.requests).toHaveLength(2);
    expect(inboxRows().map((r) => r.state)).toEqual(["answered"]);
    expect(userEntries("agent:main:loopback:direct:ann")).toEqual(["are you there?"]);

    // A third start has nothing left to do.
    await boot();
    await gateway!.stop();
    expect(model.requests).toHaveLength(2);
  });

  it("a final the chat shows but the ledger missed (killed between the two notes) is not sent again at the next start", async () => {
    const config = JSON.parse(readFileSync(path.join(stateDir, "openclaw.json"), "utf8"));
    config.channels.loopback.streaming = { mode: "off" }; // finals go whole, through the delivery ledger
    writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify(config));
    await boot();
    model.enqueue([{ text: "Hello Ann." }]);
    await platform.userSays({ sender: "ann", text: "hi" });
    await platform.waitFor(() => platform.chatView("ann").texts.includes("Hello Ann."), { what: "the answer" });
    await gateway!.stop();
    gateway = undefined;
    // The state a kill leaves right after the platform answered the send: the reply journal has
    // the message, the ledger's note of the part and the rest of the handling never happened.
    const db = new Database(path.join(stateDir, "state", "openclaw.sqlite"));
    expect(db.prepare("SELECT COUNT(*) AS n FROM inbox_reply_messages").get()).toEqual({ n: 1 });
    db.exec("DELETE FROM delivery_ledger_parts; UPDATE delivery_ledger SET completed_at = NULL;");
    db.exec("UPDATE inbox SET state = 'pending', reason = NULL, settled_at = NULL");
    db.close();

    await boot();
    // The outcome is bookkeeping the inbox commits a moment later, after the last platform call.
    await vi.waitFor(() => expect(inboxRows()[0]?.state).toBe("answered"), { timeout: 5000, interval: 20 });
    await gateway!.stop();
    gateway = undefined;
    expect(platform.chatView("ann").texts).toEqual(["Hello Ann."]);
    expect(model.requests).toHaveLength(1);
    expect(inboxRows()).toEqual([{ message_id: "1", state: "answered", reason: "final finished from the delivery ledger" }]);
  });

  it("a message cut off on every handling is given up after the last attempt, and its sender is told once", async () => {
    await boot();
    model.enqueue([{ delayMs: 10_000 }, { text: "too late" }]);
    await platform.userSays({ sender: "ann", text: "a message that never gets through" });
    await model.waitForRequests(1);
    await gateway!.stop({ timeoutMs: 100 });
    gateway = undefined;
    // As if every start since had been cut off too (each start that finds it unanswered counts one).
    const db = new Database(path.join(stateDir, "state", "openclaw.sqlite"));
    db.prepare("UPDATE inbox SET attempts = ?").run(MAX_INBOX_ATTEMPTS);
    db.close();

    await boot();
    const notice = `Sorry, I could not answer this message: handling it was interrupted ${MAX_INBOX_ATTEMPTS} times, so I stopped trying. Please send it again if you still need an answer.`;
    // The loopback chat splits long texts into parts; the sender reads them in order.
    const shown = () => platform.chatView("ann").texts.join("");
    await platform.waitFor(() => shown() === notice, { what: "the notice" });
    await gateway!.stop();
    gateway = undefined;
    expect(model.requests).toHaveLength(1);
    expect(inboxRows()).toEqual([
      { message_id: expect.any(String), state: "dropped", reason: `gave up after ${MAX_INBOX_ATTEMPTS} attempts` },
    ]);

    // The next start neither tries again nor repeats the notice.
    await boot();
    await gateway!.stop();
    expect(model.requests).toHaveLength(1);
    expect(shown()).toBe(notice);
  });
});
