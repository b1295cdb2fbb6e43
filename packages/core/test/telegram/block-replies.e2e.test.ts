// Block replies through the gateway with a model that streams quickly (small deltas, no pauses):
// blocks leave while the model is still writing, each ends at a paragraph end, none is bigger
// than the block size (1200 by default), and no text is sent twice.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startFakeOpenAI, startFakeTelegram, type FakeModelServer, type FakeTelegram } from "@openclaw/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Gateway } from "../../src/gateway/index.js";
import { botTexts, startTelegramGateway } from "./harness.js";

const OWNER = { id: 4242, first_name: "Owner", username: "owner" };
const BLOCK_MAX = 1200;

let home: string;
let llm: FakeModelServer;
let tg: FakeTelegram;
let gateway: Gateway | undefined;

beforeEach(async () => {
  home = mkdtempSync(path.join(tmpdir(), "openclaw-tg-blocks-"));
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

/** Paragraph `i`: whole sentences, 274 characters. */
const paragraph = (i: number) =>
  `Paragraph ${i} begins with a plain sentence. ${"It keeps going with ordinary words so that the block has some weight. ".repeat(3)}It ends here, at last.`;
const PARAGRAPHS = 9;
const normalize = (text: string) => text.replace(/\s+/g, " ").trim();

describe("Telegram block replies with a fast model", () => {
  it("blocks of at most 1200 characters leave before the model has finished, each text once", async () => {
    gateway = await startTelegramGateway({ home, llm, tg, allowFrom: [OWNER.id], telegram: { streaming: { block: { enabled: true } } } });
    const reply = Array.from({ length: PARAGRAPHS }, (_, i) => paragraph(i + 1)).join("\n\n");
    expect(reply.length).toBeGreaterThan(2400);
    let openGate: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      openGate = resolve;
    });
    // 20-character deltas without pauses; the model holds its last words until the test has seen
    // two blocks in the chat.
    const held = reply.length - 40;
    llm.enqueue([{ text: reply.slice(0, held), chunkChars: 20 }, { until: gate }, { text: reply.slice(held), chunkChars: 20 }]);
    tg.sendUserMessage({ chat: { id: OWNER.id, type: "private" }, from: OWNER, text: "a long answer please" });

    await tg.waitFor(() => botTexts(tg, OWNER.id).length >= 2, 15_000);
    expect(llm.requests[0]!.outcome).toBeUndefined(); // the model has not finished the reply
    openGate();
    await tg.waitFor(() => llm.requests[0]!.outcome === "completed", 15_000);
    await gateway.stop({ timeoutMs: 10_000 }); // lets the last block go out

    const blocks = botTexts(tg, OWNER.id);
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    for (const block of blocks) {
      expect(block.length).toBeLessThanOrEqual(BLOCK_MAX);
      // Every block is whole paragraphs: it never breaks mid-sentence.
      expect(block.trim()).toMatch(/^Paragraph \d+ begins[\s\S]*at last\.$/);
    }
    expect(normalize(blocks.join("\n\n"))).toBe(normalize(reply));
    for (let i = 1; i <= PARAGRAPHS; i++) expect(blocks.join("\n").split(`Paragraph ${i} begins`).length - 1).toBe(1);
  });
});
