import path from "node:path";
import type { InboundMessage } from "@openclaw/plugin-sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPairingStore, decideAccess } from "../src/access/index.js";
import { openStateDb } from "../src/state/index.js";
import { makeTempHome, runCli } from "./helpers/cli.js";

let home: string;
let cleanup: () => void;
beforeEach(() => ({ home, cleanup } = makeTempHome()));
afterEach(() => cleanup());

const stateDir = () => path.join(home, ".openclaw");

function dm(senderId: string, name?: string): InboundMessage {
  return {
    channel: "telegram",
    accountId: "default",
    messageId: "1",
    chat: { kind: "direct", id: senderId },
    sender: { id: senderId, ...(name ? { name } : {}) },
    text: "hello",
    mentionsBot: false,
    receivedAt: Date.now(),
  };
}

describe("openclaw pairing", () => {
  it("lists nothing (without creating the database) before anyone asked", async () => {
    const res = await runCli(["pairing", "list"], { home });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain("No pending pairing codes.");
    expect(res.stdout).toContain("No approved senders.");
    const json = await runCli(["pairing", "list", "--json"], { home });
    expect(JSON.parse(json.stdout)).toEqual({ pending: [], approved: [] });
  });

  it("approves a code a running gateway issued; the gateway's next decision lets the sender in", async () => {
    // The "gateway": one long-lived connection that issues codes and decides.
    const db = openStateDb(stateDir());
    try {
      const store = createPairingStore(db);
      const account = { channel: "telegram", accountId: "default", config: {} };
      const first = decideAccess(dm("4242", "Alice"), account, store);
      if (first.action !== "pair") throw new Error(`expected a code, got ${first.action}`);

      const listed = await runCli(["pairing", "list", "--json", "--channel", "telegram"], { home });
      expect(listed.code, listed.stderr).toBe(0);
      const { pending } = JSON.parse(listed.stdout) as { pending: Record<string, unknown>[] };
      expect(pending).toHaveLength(1);
      expect(pending[0]).toMatchObject({
        channel: "telegram",
        accountId: "default",
        code: first.code,
        senderId: "4242",
        senderName: "Alice",
      });
      expect(pending[0]!.remainingSeconds).toBeGreaterThan(3500);
      const table = await runCli(["pairing", "list"], { home });
      expect(table.stdout).toMatch(new RegExp(`telegram\\s+default\\s+${first.code}\\s+4242\\s+Alice\\s+60m`));

      const approved = await runCli(["pairing", "approve", "telegram", first.code.toLowerCase()], { home });
      expect(approved.code, approved.stderr).toBe(0);
      expect(approved.stdout).toContain("Approved Alice (4242) on telegram (account default)");

      expect(decideAccess(dm("4242"), account, store)).toMatchObject({ action: "allow", reason: "paired" });

      const again = await runCli(["pairing", "approve", "telegram", first.code], { home });
      expect(again.code).not.toBe(0);
      expect(again.stderr).toContain(`No pending pairing code ${first.code}`);
      expect(again.stderr).not.toMatch(/\n\s+at /);

      const revoked = await runCli(["pairing", "revoke", "telegram", "telegram:4242"], { home });
      expect(revoked.code, revoked.stderr).toBe(0);
      expect(revoked.stdout).toContain("Revoked Alice (4242) on telegram");
      expect(decideAccess(dm("4242"), account, store).action).toBe("pair");

      const none = await runCli(["pairing", "revoke", "telegram", "4242"], { home });
      expect(none.code).not.toBe(0);
      expect(none.stderr).toContain('No approved sender "4242" on telegram');
    } finally {
      db.close();
    }
  });

  it("refuses a code from another account when --account is given", async () => {
    const db = openStateDb(stateDir());
    let code: string;
    try {
      const issued = createPairingStore(db).issue({ channel: "telegram", accountId: "work", senderId: "7" });
      if (!issued.ok) throw new Error("no code");
      code = issued.code;
    } finally {
      db.close();
    }
    const wrong = await runCli(["pairing", "approve", "telegram", code, "--account", "default"], { home });
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain(`--account work`);
    const right = await runCli(["pairing", "approve", "telegram", code, "--account", "work"], { home });
    expect(right.code, right.stderr).toBe(0);
    expect(right.stdout).toContain("Approved 7 on telegram (account work)");
  });

  it("documents every command and option in --help", async () => {
    const help = await runCli(["pairing", "--help"], { home });
    expect(help.stdout).toMatch(/list.*\n[\s\S]*approve[\s\S]*revoke/);
    const approve = await runCli(["pairing", "approve", "--help"], { home });
    expect(approve.stdout).toContain("--account <id>");
    expect(approve.stdout).toContain("the 8-character code");
  });
});
