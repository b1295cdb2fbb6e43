// Issue 17 "done when": chat commands answer in a Telegram chat through the fake Bot API with the
// real gateway, before the agent: /status, /context detail, /model (the next turn's model),
// /stop (a slow turn aborted), and a stranger's /status gets the pairing flow instead.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startFakeOpenAI, startFakeTelegram, type FakeModelServer, type FakeTelegram } from "@openclaw/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Gateway } from "../../src/gateway/index.js";
import { botTexts, startTelegramGateway } from "./harness.js";

let home: string;
let llm: FakeModelServer;
let tg: FakeTelegram;
let gateway: Gateway | undefined;

const OWNER = { id: 4242, first_name: "Owner", username: "owner" };
const STRANGER = { id: 999, first_name: "Stranger" };
const dm = (user: { id: number }) => ({ id: user.id, type: "private" as const });
const MODELS = [{ id: "llama", contextWindow: 32_000 }, { id: "qwen" }];

const boot = async (telegram: Record<string, unknown> = {}) => {
  gateway = await startTelegramGateway({ home, llm, tg, allowFrom: [OWNER.id], models: MODELS, telegram });
};
/** Sends a message as the owner and resolves with the bot's next new message in that chat. */
async function ask(text: string, chat: { id: number; type: "private" | "supergroup"; title?: string } = dm(OWNER)): Promise<string> {
  const before = botTexts(tg, chat.id).length;
  tg.sendUserMessage({ chat, from: OWNER, text });
  return tg.waitFor(() => botTexts(tg, chat.id)[before], 15_000);
}

beforeEach(async () => {
  home = mkdtempSync(path.join(tmpdir(), "openclaw-tg-commands-"));
  llm = await startFakeOpenAI();
  tg = await startFakeTelegram();
});
afterEach(async () => {
  await gateway?.stop({ timeoutMs: 2000 });
  gateway = undefined;
  await tg.close();
  await llm.close();
  rmSync(home, { recursive: true, force: true });
});

describe("chat commands in Telegram", () => {
  it("/status and /context detail answer in the chat without reaching the model", async () => {
    await boot();
    llm.enqueue([{ text: "Hi there." }]);
    expect(await ask("hello")).toBe("Hi there.");

    const status = await ask("/status");
    expect(status).toContain(`Session: agent:main:main`);
    expect(status).toContain("Model: local/llama (configured default)");
    expect(status).toMatch(/Context: \d+ of 32000 tokens \(\d+%\) at the last model call/);
    expect(status).toMatch(/Queue: idle, 0 waiting\. Queue mode: steer/);

    const context = await ask("/context detail");
    expect(context).toContain("Context of agent:main:main");
    expect(context).toMatch(/AGENTS\.md\s+ok\s+\d+\s+\d+/);
    expect(context).toMatch(/TOOL\s+DESCRIPTION\s+SCHEMA\s+TOTAL CHARS/);
    for (const tool of ["read", "exec", "message"]) expect(context).toMatch(new RegExp(`\\n${tool}\\s+\\d+\\s+\\d+\\s+\\d+`));
    expect(context).toMatch(/TOTAL\s+\d+/);
    expect(llm.requests.length).toBe(1);
  });

  it("/model switches the model the next turn asks for", async () => {
    await boot();
    expect(await ask("/model local/qwen")).toBe("This chat now uses local/qwen from the next turn on.");
    expect(await ask("/model openai-nope/x")).toMatch(/not a configured provider/);
    llm.enqueue([{ text: "qwen here" }]);
    expect(await ask("who are you?")).toBe("qwen here");
    expect(llm.requests.map((r) => r.body.model)).toEqual(["qwen"]);
    expect(await ask("/model")).toMatch(/^Model: local\/qwen \(set for this chat\)/);
  });

  it("/stop aborts a slow turn", async () => {
    await boot();
    llm.enqueue([{ text: "Thinking" }, { delayMs: 60_000 }, { text: " ... done" }]);
    tg.sendUserMessage({ chat: dm(OWNER), from: OWNER, text: "a hard question" });
    await llm.waitForRequests(1);
    tg.sendUserMessage({ chat: dm(OWNER), from: OWNER, text: "/stop" });
    await tg.waitFor(() => botTexts(tg, OWNER.id).includes("Stopped the running turn."), 15_000);
    // The aborted turn is over: the session is idle again and the slow answer never completes.
    expect(await ask("/status")).toMatch(/Queue: idle, 0 waiting/);
    expect(botTexts(tg, OWNER.id).join("\n")).not.toContain("done");
  });

  it("a stranger's /status gets a pairing code, not the status", async () => {
    await boot({ allowFrom: [] });
    tg.sendUserMessage({ chat: dm(STRANGER), from: STRANGER, text: "/status" });
    const reply = await tg.waitFor(() => botTexts(tg, STRANGER.id)[0], 10_000);
    expect(reply).toMatch(/pairing/i);
    expect(reply).toMatch(/\b[A-HJ-NP-Z2-9]{8}\b/);
    expect(reply).not.toMatch(/Model:|Session:/);
    expect(llm.requests.length).toBe(0);
  });

  it("in a group, /status@bot counts; a command for another bot is not answered as one", async () => {
    const group = { id: -100777, type: "supergroup" as const, title: "Team" };
    await boot({ groups: { [String(group.id)]: { requireMention: false } }, groupAllowFrom: [String(OWNER.id)] });
    llm.enqueue([{ text: "not mine" }]);
    expect(await ask("/status@someone_else_bot", group)).toBe("not mine");
    const status = await ask(`/status@${tg.botUser.username}`, group);
    expect(status).toContain("Session: agent:main:telegram:group:-100777");
  });
});
