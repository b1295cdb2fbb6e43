// A database damaged while the gateway runs (in-process gateway, loopback channel): a message the
// inbox cannot record is refused to the platform (which delivers it again), a turn whose session
// database is damaged leaves its message pending, and both are logged naming the file and the fix.
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, truncateSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  createLoopbackPlatform,
  createLoopbackPlugin,
  startFakeOpenAI,
  type FakeModelServer,
  type LoopbackPlatform,
} from "@openclaw/testkit";
import Database from "better-sqlite3";
import { afterEach, beforeEach, expect, it } from "vitest";
import { startGatewayProcess as startGateway } from "../../src/app/index.js";
import type { Gateway, GatewayLogger } from "../../src/gateway/index.js";
import { openAgentStore } from "../../src/sessions/index.js";
import { makeTempHome, runCli } from "../helpers/cli.js";

let home: string;
let stateDir: string;
let cleanup: () => void;
let model: FakeModelServer;
let platform: LoopbackPlatform;
let gateway: Gateway | undefined;
let lines: string[];
let onLine: (() => void) | undefined;

/** Resolves with the first log line matching `pattern` (checked on every new line). */
function logLine(pattern: RegExp): Promise<string> {
  return new Promise((resolve) => {
    const check = () => {
      const line = lines.find((l) => pattern.test(l));
      if (line === undefined) return;
      onLine = undefined;
      resolve(line);
    };
    onLine = check;
    check();
  });
}

beforeEach(async () => {
  ({ home, cleanup } = makeTempHome("openclaw-db-running-"));
  stateDir = path.join(home, ".openclaw");
  mkdirSync(stateDir, { recursive: true });
  model = await startFakeOpenAI();
  platform = createLoopbackPlatform();
  lines = [];
  writeFileSync(
    path.join(stateDir, "openclaw.json"),
    JSON.stringify({
      agents: { defaults: { model: "local/llama", skipBootstrap: true } },
      models: { providers: { local: { baseUrl: model.baseUrl, apiKey: "sk-local", models: [{ id: "llama" }] } } },
      channels: { loopback: { dmPolicy: "open", allowFrom: ["*"] } },
    }),
  );
});
afterEach(async () => {
  await gateway?.stop({ timeoutMs: 1000 });
  gateway = undefined;
  await model.close();
  cleanup();
});

const stateDbFile = () => path.join(stateDir, "state", "openclaw.sqlite");
const sessionDbFile = () => path.join(stateDir, "agents", "main", "agent", "openclaw-agent.sqlite");

/** Starts the gateway and waits for its first backup round, so nothing else reads the files afterwards. */
async function boot(): Promise<Gateway> {
  let backedUp!: () => void;
  const firstRound = new Promise<void>((resolve) => (backedUp = resolve));
  const add = (line: string) => {
    lines.push(line);
    if (line.startsWith("backups: saved")) backedUp();
    onLine?.();
  };
  const log: GatewayLogger = { info: add, warn: (m) => add(`warn: ${m}`), error: (m) => add(`error: ${m}`) };
  gateway = await startGateway({
    paths: { stateDir, configPath: path.join(stateDir, "openclaw.json") },
    port: 0,
    env: { HOME: home },
    plugins: [createLoopbackPlugin(platform)],
    log,
  });
  await platform.waitFor(() => platform.connectedBots().includes("default"), { what: "the bot to connect" });
  await firstRound;
  return gateway;
}

function pendingInboxMessages(): string[] {
  const db = new Database(stateDbFile(), { readonly: true });
  try {
    return (db.prepare("SELECT message_id FROM inbox WHERE state = 'pending'").all() as { message_id: string }[]).map((r) => r.message_id);
  } finally {
    db.close();
  }
}

it("the state database damaged while running: the platform's delivery is refused and the log names the file", async () => {
  await boot();
  // Another connection flushes the WAL into the file, the file's pages after the first become
  // garbage, and a header-only write makes the gateway's connection drop its page cache.
  const other = new Database(stateDbFile());
  other.pragma("wal_checkpoint(TRUNCATE)");
  const fd = openSync(stateDbFile(), "r+");
  const garbage = Buffer.alloc(statSync(stateDbFile()).size - 4096, "garbage ");
  writeSync(fd, garbage, 0, garbage.length, 4096);
  closeSync(fd);
  other.pragma(`user_version = ${other.pragma("user_version", { simple: true }) as number}`);
  other.close();

  await expect(platform.userSays({ sender: "ann", text: "hello" })).rejects.toThrow(/was not taken/);
  const error = lines.find((l) => l.startsWith("error: message"));
  expect(error).toContain(`was not taken: the state database ${stateDbFile()} is damaged`);
  expect(error).toContain("openclaw doctor --fix");
  expect(model.requests).toHaveLength(0);
});

it("a session database damaged while running: the message stays in the inbox, the log names the file, and it is answered after the restore", async () => {
  const store = openAgentStore({ stateDir, agentId: "main" });
  const { sessionId } = store.getOrCreateSession("agent:main:main");
  store.appendEvents(
    sessionId,
    Array.from({ length: 200 }, (_, i) => ({ type: "message", message: { role: "user", content: `${i} ${"x".repeat(400)}` } })),
  );
  store.close();
  await boot();

  // The gateway opens the session database at the first message; by then half of it is gone.
  truncateSync(sessionDbFile(), Math.floor(statSync(sessionDbFile()).size / 2));
  await platform.userSays({ sender: "ann", text: "are you there?" });
  const error = await logLine(/handling message/);
  expect(error).toMatch(/^error: /);
  expect(error).toContain(`the session database of agent main ${sessionDbFile()} is damaged`);
  expect(error).toContain("openclaw doctor --fix");
  await gateway!.stop();
  gateway = undefined;
  expect(pendingInboxMessages()).toHaveLength(1);
  expect(platform.chatView("ann").texts).toEqual([]);

  const fix = await runCli(["doctor", "--fix"], { home });
  expect(fix.stdout).toContain(`moved the damaged ${sessionDbFile()} aside`);

  model.enqueue([{ text: "Yes, back again." }]);
  await boot();
  await platform.waitFor(() => platform.chatView("ann").texts.includes("Yes, back again."), { what: "the answer" });
  await gateway!.stop();
  gateway = undefined;
  expect(platform.chatView("ann").texts).toEqual(["Yes, back again."]);
  expect(pendingInboxMessages()).toEqual([]);
});
