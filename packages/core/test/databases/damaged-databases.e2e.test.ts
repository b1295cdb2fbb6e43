// A damaged database through the built CLI: `openclaw gateway` refuses to start with one clear
// message naming the file and the fix; `openclaw doctor` reports it with the backups there are,
// and `openclaw doctor --fix` restores the newest good backup, after which the gateway starts.
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { openAgentStore } from "../../src/sessions/index.js";
import { CLI_ENTRY, makeTempHome, runCli } from "../helpers/cli.js";

let home: string;
let stateDir: string;
let cleanup: () => void;

beforeEach(() => {
  ({ home, cleanup } = makeTempHome("openclaw-db-"));
  stateDir = path.join(home, ".openclaw");
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(
    path.join(stateDir, "openclaw.json"),
    JSON.stringify({
      agents: { defaults: { model: "local/llama", skipBootstrap: true } },
      models: { providers: { local: { baseUrl: "http://127.0.0.1:9/v1", models: [{ id: "llama" }] } } },
    }),
  );
});
afterEach(() => cleanup());

const sessionDbFile = () => path.join(stateDir, "agents", "main", "agent", "openclaw-agent.sqlite");
const stateDbFile = () => path.join(stateDir, "state", "openclaw.sqlite");

/** A session database with one session and enough transcript to span many pages. */
function writeSessionDatabase(): void {
  const store = openAgentStore({ stateDir, agentId: "main" });
  try {
    const { sessionId } = store.getOrCreateSession("agent:main:main");
    const text = "a line of transcript that takes some room on the page. ".repeat(10);
    store.appendEvents(
      sessionId,
      Array.from({ length: 300 }, (_, i) => ({ type: "message", message: { role: "user", content: `${i}: ${text}` } })),
    );
  } finally {
    store.close();
  }
}

/** Keeps the first half of a file, as a full disk or an interrupted copy would. */
function truncateToHalf(file: string): void {
  truncateSync(file, Math.floor(statSync(file).size / 2));
}

interface GatewayRun {
  /** The exit code, or "listening" when it started (it is then stopped with SIGTERM). */
  outcome: number | "listening";
  stderr: string;
}

/**
 * Runs `openclaw gateway --port 0` until it exits, or until it listens and (when `until` is given)
 * has logged a line matching `until`; a started gateway is then stopped with SIGTERM.
 */
function runGateway(until?: RegExp): Promise<GatewayRun> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("OPENCLAW_")) env[k] = v;
  env.HOME = home;
  const proc = spawn(process.execPath, [CLI_ENTRY, "gateway", "--port", "0"], { env, cwd: home, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  let listening = false;
  return new Promise((resolve, reject) => {
    proc.on("error", reject);
    proc.stderr!.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
      if (!listening && /listening on ws:/.test(stderr) && (!until || until.test(stderr))) {
        listening = true;
        proc.kill("SIGTERM");
      }
    });
    proc.on("close", (code) => resolve({ outcome: listening ? "listening" : (code ?? -1), stderr }));
  });
}

const STACK_LINE = /\n\s+at /;

it("a truncated session database: the gateway exits 1 naming the file and the fix, without a stack trace", async () => {
  writeSessionDatabase();
  truncateToHalf(sessionDbFile());

  const run = await runGateway();
  expect(run.outcome, run.stderr).toBe(1);
  expect(run.stderr).toContain(`The session database of agent main ${sessionDbFile()} is damaged`);
  expect(run.stderr).toContain("openclaw doctor --fix");
  expect(run.stderr).toContain(`mv ${sessionDbFile()} ${sessionDbFile()}.corrupt`);
  expect(run.stderr).not.toMatch(STACK_LINE);
  expect(run.stderr).not.toContain("listening");
});

it("a state database full of garbage: the gateway exits 1 naming the file and the fix, without a stack trace", async () => {
  mkdirSync(path.dirname(stateDbFile()), { recursive: true });
  writeFileSync(stateDbFile(), "this is not a database, only some text that took its place. ".repeat(200));

  const run = await runGateway();
  expect(run.outcome, run.stderr).toBe(1);
  expect(run.stderr).toContain(`The state database ${stateDbFile()} is damaged (file is not a database)`);
  expect(run.stderr).toContain(`No backup of it is in ${path.join(stateDir, "backups")}`);
  expect(run.stderr).not.toMatch(STACK_LINE);
});

it("doctor reports a damaged database and its backups; doctor --fix restores the newest good backup and the gateway starts", async () => {
  writeSessionDatabase();
  // A healthy start takes the first backups.
  const first = await runGateway(/backups: saved 2 database\(s\)/);
  expect(first.outcome, first.stderr).toBe("listening");
  const backups = readdirSync(path.join(stateDir, "backups")).sort();
  expect(backups).toEqual([expect.stringMatching(/^agent-main\.\d{4}-.*Z\.sqlite$/), expect.stringMatching(/^state\.\d{4}-.*Z\.sqlite$/)]);
  const backup = path.join(stateDir, "backups", backups[0]!);

  truncateToHalf(sessionDbFile());
  const damagedBytes = readFileSync(sessionDbFile());

  const report = await runCli(["doctor"], { home });
  expect(report.code, report.stdout).toBe(1);
  expect(report.stdout).toContain(`The session database of agent main ${sessionDbFile()} is damaged`);
  expect(report.stdout).toContain(`move it aside and restore the newest good backup ${backup}`);
  expect(report.stdout).toContain(`agent-main: 1 backup(s), the newest ${backup}`);
  expect(report.stdout).not.toMatch(STACK_LINE);
  // Report-only changes nothing.
  expect(readFileSync(sessionDbFile())).toEqual(damagedBytes);

  const fix = await runCli(["doctor", "--fix"], { home });
  expect(fix.code, fix.stdout).toBe(0);
  expect(fix.stdout).toMatch(
    new RegExp(`moved the damaged ${sessionDbFile()} aside to ${sessionDbFile()}\\.corrupt-\\S+ and restored the backup ${backup}`),
  );
  const aside = readdirSync(path.dirname(sessionDbFile())).find(
    (f) => f.startsWith("openclaw-agent.sqlite.corrupt-") && !/-(wal|shm)$/.test(f),
  );
  expect(readFileSync(path.join(path.dirname(sessionDbFile()), aside!))).toEqual(damagedBytes);

  const list = await runCli(["sessions", "list", "--json"], { home });
  expect(list.code, list.stderr).toBe(0);
  expect(list.stdout).toContain("agent:main:main");

  const again = await runCli(["doctor"], { home });
  expect(again.stdout).not.toContain("is damaged");

  const second = await runGateway();
  expect(second.outcome, second.stderr).toBe("listening");
});
