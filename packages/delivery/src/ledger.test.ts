import { describe, expect, it } from "vitest";
import { chunkText } from "@openclaw/plugin-sdk";
import { deliverFinal, InMemoryDeliveryLedger } from "./index.js";

describe("deliverFinal", () => {
  const text = Array.from({ length: 6 }, (_, i) => `Paragraph ${i}: ${"words ".repeat(30)}`).join("\n\n");
  const chunks = chunkText(text, { maxChars: 300 });

  it("resumes at the first unsent part after a crash and never sends a part twice", async () => {
    expect(chunks.length).toBeGreaterThanOrEqual(4);
    const ledger = new InMemoryDeliveryLedger();
    const delivered: string[] = [];
    let sent = 0;
    const crashingSend = async (chunk: string) => {
      if (sent === 2) throw new Error("process killed");
      delivered.push(chunk);
      return { messageId: `m${++sent}` };
    };
    await expect(deliverFinal({ ledger, key: "run-1", chunks, send: crashingSend })).rejects.toThrow("process killed");
    expect(ledger.parts("run-1")).toEqual([["m1"], ["m2"]]);

    // The retry (after a restart) rebuilds the same chunks and resumes at part 2.
    const indexes: number[] = [];
    const retry = await deliverFinal({
      ledger,
      key: "run-1",
      chunks: chunkText(text, { maxChars: 300 }),
      send: async (chunk, index) => {
        indexes.push(index);
        delivered.push(chunk);
        return { messageId: `m${++sent}` };
      },
    });
    expect(indexes).toEqual(chunks.map((_, i) => i).slice(2));
    expect(retry.skipped).toBe(2);
    expect(retry.messageIds).toEqual(chunks.map((_, i) => `m${i + 1}`));
    expect(delivered).toEqual(chunks);

    // A third attempt sends nothing at all.
    const again = await deliverFinal({ ledger, key: "run-1", chunks, send: async () => expect.fail("sent twice") });
    expect(again).toEqual({ messageIds: retry.messageIds, parts: retry.parts, skipped: chunks.length, alreadyDelivered: true });
  });

  it("records every message of a part the plugin split, and resumes after it", async () => {
    const ledger = new InMemoryDeliveryLedger();
    let next = 0;
    const split = async () => ({ messageId: `m${(next += 2)}`, messageIds: [`m${next - 1}`, `m${next}`] });
    await expect(
      deliverFinal({
        ledger,
        key: "r",
        chunks: ["a", "b"],
        send: async (chunk) => (chunk === "b" ? Promise.reject(new Error("gone")) : split()),
      }),
    ).rejects.toThrow("gone");
    expect(ledger.parts("r")).toEqual([["m1", "m2"]]);
    const done = await deliverFinal({ ledger, key: "r", chunks: ["a", "b"], send: split });
    expect(done).toMatchObject({
      messageIds: ["m1", "m2", "m3", "m4"],
      parts: [
        ["m1", "m2"],
        ["m3", "m4"],
      ],
      skipped: 1,
    });
  });

  it("keeps deliveries apart by key and passes extra info to the ledger", async () => {
    const ledger = new InMemoryDeliveryLedger();
    const infos: unknown[] = [];
    const spy = {
      begin: (key: string, info: Parameters<InMemoryDeliveryLedger["begin"]>[1]) => (infos.push(info), ledger.begin(key, info)),
      recordPart: ledger.recordPart.bind(ledger),
      complete: ledger.complete.bind(ledger),
    };
    const send = async (_: string, index: number) => ({ messageId: `x${index}` });
    await deliverFinal({
      ledger: spy,
      key: "a",
      chunks: ["one"],
      send,
      info: { channel: "telegram", target: { chat: { kind: "direct", id: "42" } } },
    });
    const b = await deliverFinal({ ledger: spy, key: "b", chunks: ["two", "three"], send });
    expect(b.messageIds).toEqual(["x0", "x1"]);
    expect(infos).toEqual([
      { channel: "telegram", target: { chat: { kind: "direct", id: "42" } }, chunks: ["one"] },
      { chunks: ["two", "three"] },
    ]);
  });
});
