// A reference OpenClaw user switches: their ~/.openclaw, written by the published reference
// 2026.9.6 itself (fixtures/reference-2026.9.6, see its regenerate.mjs and README.md), works after
// one `openclaw doctor --fix`.
import { createHash } from "node:crypto";
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { InboundMessage } from "@openclaw/plugin-sdk";
import { type FakeModelServer, startFakeOpenAI } from "@openclaw/testkit";
import Database from "better-sqlite3";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createPairingStore, decideAccess } from "../src/access/index.js";
import { openStateDb } from "../src/state/index.js";
import { makeTempHome, runCli } from "./helpers/cli.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/reference-2026.9.6/home", import.meta.url));
/** The HOME the reference ran in (regenerate.mjs); its config names paths under it. */
const REFERENCE_HOME = "/tmp/openclaw-reference-fixture-home";

let home: string;
let cleanup: () => void;
let fake: FakeModelServer;
const stateDir = () => path.join(home, ".openclaw");
const agentDb = () => path.join(stateDir(), "agents", "main", "agent", "openclaw-agent.sqlite");
const stateDb = () => path.join(stateDir(), "state", "openclaw.sqlite");
const sha = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

beforeEach(async () => {
  ({ home, cleanup } = makeTempHome());
  fake = await startFakeOpenAI();
  // The user's home, as the reference left it; its provider (the fake model it talked to) now
  // answers at this test's fake.
  cpSync(FIXTURE, home, { recursive: true });
  const configFile = path.join(stateDir(), "openclaw.json");
  const config = JSON.parse(readFileSync(configFile, "utf8").replaceAll(REFERENCE_HOME, home));
  config.models.providers.fake.baseUrl = fake.baseUrl;
  writeFileSync(configFile, JSON.stringify(config, null, 2));
});
afterEach(async () => {
  await fake.close();
  cleanup();
});

function dm(senderId: string): InboundMessage {
  return {
    channel: "telegram",
    accountId: "default",
    messageId: "1",
    chat: { kind: "direct", id: senderId },
    sender: { id: senderId },
    text: "hello again",
    mentionsBot: false,
    receivedAt: Date.now(),
  };
}

it("before doctor, every command says to run `openclaw doctor --fix`, never to upgrade", async () => {
  const validate = await runCli(["config", "validate"], { home });
  expect(validate.code).not.toBe(0);
  expect(validate.stderr).not.toContain("gateway.mode");
  expect(validate.stderr).toMatch(/meta: .*reference OpenClaw.*doctor --fix/);
  expect(validate.stderr).toMatch(
    /gateway\.tailscale: unknown key\. Fix: run `openclaw doctor --fix` to move it to openclaw\.reference-only\.json/,
  );

  // With an empty config, the databases are what is refused: by their writer, with the fix.
  writeFileSync(path.join(stateDir(), "openclaw.json"), "{}");
  const before = { agent: sha(agentDb()), state: sha(stateDb()) };
  for (const args of [
    ["sessions", "list"],
    ["pairing", "list"],
  ]) {
    const run = await runCli(args, { home });
    expect(run.code, args.join(" ")).not.toBe(0);
    expect(run.stderr).toContain("was written by the reference OpenClaw 2026.9.6");
    expect(run.stderr).toContain("Run `openclaw doctor --fix`");
    expect(run.stderr).not.toMatch(/upgrade/i);
  }
  const report = await runCli(["doctor"], { home });
  expect(report.stdout).toMatch(/openclaw-agent\.sqlite was written by the reference OpenClaw 2026\.9\.6 \(schema 23\)/);
  expect(report.stdout).toMatch(/state\/openclaw\.sqlite was written by the reference OpenClaw 2026\.9\.6 \(schema 18\)/);
  expect(report.stdout).not.toContain("No problems found.");
  // Nothing but doctor --fix touches them.
  expect({ agent: sha(agentDb()), state: sha(stateDb()) }).toEqual(before);
});

it("after one `doctor --fix`: the config validates, the conversation continues, the paired user is allowed, and a second run changes nothing", async () => {
  const originals = { agent: sha(agentDb()), state: sha(stateDb()) };
  const source = new Database(agentDb(), { readonly: true });
  const compressed = (source.prepare("SELECT count(*) AS n FROM transcript_events WHERE event_zstd IS NOT NULL").get() as { n: number }).n;
  source.close();

  const fix = await runCli(["doctor", "--fix"], { home });
  expect(fix.code, fix.stdout + fix.stderr).toBe(0);
  expect(fix.stdout).toContain("meta dropped");
  expect(fix.stdout).toContain("wizard dropped");
  expect(fix.stdout).toMatch(/gateway\.tailscale moved to .*openclaw\.reference-only\.json/);
  expect(fix.stdout).toMatch(/imported 1 session\(s\) with \d+ transcript event\(s\)/);
  expect(fix.stdout).toMatch(/imported 1 approved sender\(s\)/);
  expect(fix.stdout).toMatch(/not imported: \d+ cron job\(s\) \(.*Morning summary.*\): this openclaw has no cron yet/);
  expect(fix.stdout).toMatch(/not imported: trajectory_runtime_events \(\d+ rows?\)/);

  // The originals are kept whole, next to the files that replace them.
  expect(sha(`${agentDb()}.reference-2026.9.6`)).toBe(originals.agent);
  expect(sha(`${stateDb()}.reference-2026.9.6`)).toBe(originals.state);
  const side = JSON.parse(readFileSync(path.join(stateDir(), "openclaw.reference-only.json"), "utf8"));
  expect(side.keys["gateway.tailscale"]).toEqual({ mode: "off" });

  const validate = await runCli(["config", "validate"], { home });
  expect(validate.code, validate.stderr).toBe(0);

  const list = await runCli(["sessions", "list", "--json"], { home });
  expect(list.code, list.stderr).toBe(0);
  expect(list.stdout).toContain("agent:main:main");

  // The next turn of that conversation sends the earlier turns (including a zstd-stored one) to the model.
  fake.enqueue([{ text: "The word was marmalade." }]);
  const turn = await runCli(["agent", "--local", "--message", "What was the word I asked you to remember?"], { home });
  expect(turn.code, turn.stderr).toBe(0);
  expect(turn.stdout).toContain("The word was marmalade.");
  const sent = JSON.stringify(fake.requests[0]!.body.messages);
  expect(sent).toContain("Please remember this word: marmalade");
  expect(sent).toContain("Noted: the word to remember is marmalade.");
  expect(compressed).toBeGreaterThan(0); // the reference stored the long reply as event_zstd
  expect(sent).toContain("Reminder 40: when you ask me later");

  // The user the reference paired is still let in; the other one still needs a code.
  const db = openStateDb(stateDir());
  try {
    const account = { channel: "telegram", accountId: "default", config: { dmPolicy: "pairing" } };
    expect(decideAccess(dm("4242"), account, createPairingStore(db)).action).toBe("allow");
    expect(decideAccess(dm("5353"), account, createPairingStore(db)).action).toBe("pair");
  } finally {
    db.close();
  }

  const again = await runCli(["doctor", "--fix"], { home });
  expect(again.code, again.stderr).toBe(0);
  expect(again.stdout).toContain("Everything is up to date; nothing to change.");
  expect(existsSync(`${agentDb()}.reference-2026.9.6-2`)).toBe(false);
});

it("imports a pending pairing request that has not expired, with its code", async () => {
  // The request was made a minute ago (the fixture's is older than the one-hour lifetime of a code).
  const db = new Database(stateDb());
  const { code } = db.prepare("SELECT code FROM channel_pairing_requests").get() as { code: string };
  db.prepare("UPDATE channel_pairing_requests SET created_at = ?").run(new Date(Date.now() - 60_000).toISOString());
  db.close();

  const fix = await runCli(["doctor", "--fix"], { home });
  expect(fix.code, fix.stderr).toBe(0);
  expect(fix.stdout).toMatch(/imported 1 approved sender\(s\) and 1 pending pairing request\(s\)/);
  const listed = await runCli(["pairing", "list", "--json"], { home });
  const { pending } = JSON.parse(listed.stdout) as { pending: { code: string; senderId: string }[] };
  expect(pending).toEqual([expect.objectContaining({ code, senderId: "5353" })]);
  const approved = await runCli(["pairing", "approve", "telegram", code], { home });
  expect(approved.code, approved.stderr).toBe(0);
});

it("lists an expired pending request as not imported", async () => {
  const db = new Database(stateDb());
  db.prepare("UPDATE channel_pairing_requests SET created_at = ?").run(new Date(Date.now() - 2 * 3_600_000).toISOString());
  db.close();
  const fix = await runCli(["doctor", "--fix"], { home });
  expect(fix.stdout).toMatch(/not imported: pairing request \w+ of 5353 on telegram \(account default\): expired/);
});
