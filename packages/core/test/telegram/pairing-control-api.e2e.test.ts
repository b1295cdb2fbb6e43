// Issue 16: approving a pairing request through the control API (what the Control UI's Pairing
// page does) lets the stranger's next Telegram message be answered by the agent.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startFakeOpenAI, startFakeTelegram, type FakeModelServer, type FakeTelegram } from "@openclaw/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GatewayClient, type Gateway } from "../../src/gateway/index.js";
import { botTexts, startTelegramGateway } from "./harness.js";

let home: string;
let llm: FakeModelServer;
let tg: FakeTelegram;
let gateway: Gateway | undefined;
let client: GatewayClient | undefined;

const OWNER = { id: 4242, first_name: "Owner" };
const STRANGER = { id: 999, first_name: "Stranger" };
const dm = (user: { id: number }) => ({ id: user.id, type: "private" as const });

beforeEach(async () => {
  home = mkdtempSync(path.join(tmpdir(), "openclaw-tg-pairing-api-"));
  llm = await startFakeOpenAI({ chunkChars: 40 });
  tg = await startFakeTelegram();
});
afterEach(async () => {
  await client?.close();
  client = undefined;
  await gateway?.stop({ timeoutMs: 2000 });
  gateway = undefined;
  await tg.close();
  await llm.close();
  rmSync(home, { recursive: true, force: true });
});

describe("pairing through the control API", () => {
  it("pairing.list shows the stranger's request; pairing.approve lets their next message through to the model", async () => {
    gateway = await startTelegramGateway({ home, llm, tg, allowFrom: [OWNER.id] });
    client = await GatewayClient.connect(gateway.url, { token: gateway.token! });

    tg.sendUserMessage({ chat: dm(STRANGER), from: STRANGER, text: "hi bot" });
    const codeMsg = await tg.waitFor(() => botTexts(tg, STRANGER.id).find((t) => /pairing/i.test(t)), 10_000);
    const code = /\b([A-HJ-NP-Z2-9]{8})\b/.exec(codeMsg)![1]!;
    expect(llm.requests.length).toBe(0);

    const listed = await client.request<any>("pairing.list");
    expect(listed.pending).toEqual([
      expect.objectContaining({ channel: "telegram", accountId: "default", code, senderId: String(STRANGER.id), senderName: "Stranger" }),
    ]);
    await client.request("pairing.approve", { channel: "telegram", code });
    expect((await client.request<any>("pairing.list")).allow.telegram).toEqual([
      expect.objectContaining({ senderId: String(STRANGER.id) }),
    ]);

    llm.enqueue([{ text: "Welcome aboard, stranger." }]);
    tg.sendUserMessage({ chat: dm(STRANGER), from: STRANGER, text: "hi again" });
    await tg.waitFor(() => botTexts(tg, STRANGER.id).includes("Welcome aboard, stranger."), 10_000);
    expect(llm.requests.length).toBe(1);

    // Removing the sender from the allowlist closes the door again: the next message gets a new code.
    await client.request("allowlist.remove", { channel: "telegram", senderId: String(STRANGER.id) });
    const before = botTexts(tg, STRANGER.id).length;
    tg.sendUserMessage({ chat: dm(STRANGER), from: STRANGER, text: "still there?" });
    const again = await tg.waitFor(
      () =>
        botTexts(tg, STRANGER.id)
          .slice(before)
          .find((t) => /pairing/i.test(t)),
      10_000,
    );
    expect(again).not.toContain(code);
    expect(llm.requests.length).toBe(1);
  }, 30_000);
});
