import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { deliverFinal } from "@openclaw/delivery";
import { afterEach, describe, expect, it } from "vitest";
import { openStateDb, type StateDb } from "../state/index.js";
import { SqliteDeliveryLedger } from "./ledger.js";

let dir: string | undefined;
let db: StateDb | undefined;
afterEach(() => {
  db?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  db = undefined;
  dir = undefined;
});

/** A ledger on a fresh state database; `reopen` closes it and opens it again (a restart). */
function ledger() {
  dir = mkdtempSync(path.join(tmpdir(), "openclaw-ledger-"));
  db = openStateDb(dir);
  return {
    ledger: new SqliteDeliveryLedger(db),
    reopen: () => {
      db!.close();
      db = openStateDb(dir!);
      return new SqliteDeliveryLedger(db);
    },
  };
}

const target = { chat: { kind: "direct", id: "42" } };

describe("SqliteDeliveryLedger", () => {
  it("keeps every message of a split part and the inbound message across a restart, and resumes after them", async () => {
    const { ledger: first, reopen } = ledger();
    const sends: string[] = [];
    await expect(
      deliverFinal({
        ledger: first,
        key: "reply:1:final",
        chunks: ["part one", "part two"],
        info: { channel: "telegram", accountId: "default", target, inReplyTo: "in-7" },
        send: async (chunk) => {
          if (chunk === "part two") throw new Error("the gateway was killed");
          sends.push(chunk);
          return { messageId: "11", messageIds: ["10", "11"] };
        },
      }),
    ).rejects.toThrow("killed");

    const second = reopen();
    const [pending] = second.pending();
    expect(pending).toMatchObject({ key: "reply:1:final", target, inReplyTo: "in-7", delivered: [["10", "11"], null] });
    const done = await deliverFinal({
      ledger: second,
      key: pending!.key,
      chunks: pending!.chunks,
      send: async (chunk) => {
        sends.push(chunk);
        return { messageId: "12" };
      },
    });
    expect(done.messageIds).toEqual(["10", "11", "12"]);
    expect(sends).toEqual(["part one", "part two"]);
    expect(second.pending()).toEqual([]);
    expect(second.begin("reply:1:final", { chunks: [] })).toEqual({
      alreadyDelivered: true,
      parts: [["10", "11"], ["12"]],
      messageIds: ["10", "11", "12"],
    });
  });
});
