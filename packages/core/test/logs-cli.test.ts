// `openclaw logs` through the built CLI, reading a log written as the gateway writes it.
import { spawn } from "node:child_process";
import { appendFileSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { CLI_ENTRY, cliEnv, makeTempHome, runCli } from "./helpers/cli.js";

let home: string;
let cleanup: () => void;
let logFile: string;
beforeEach(() => {
  ({ home, cleanup } = makeTempHome("openclaw-logs-cli-"));
  logFile = path.join(home, ".openclaw", "logs", "gateway.log");
  mkdirSync(path.dirname(logFile), { recursive: true });
});
afterEach(() => cleanup());

const now = Date.now();
const line = (level: number, agoMs: number, msg: string) => `${JSON.stringify({ level, time: now - agoMs, pid: 1, msg })}\n`;

it("filters by --level and --since across rotated files, and prints JSON as stored with --json", async () => {
  writeFileSync(`${logFile}.1`, line(30, 3 * 3_600_000, "started long ago") + line(50, 2 * 3_600_000, "old failure"));
  writeFileSync(logFile, `${line(40, 5 * 60_000, "recent warning")}not json\n${line(30, 60_000, "recent info")}`);

  const all = await runCli(["logs"], { home });
  expect(all.code, all.stderr).toBe(0);
  expect(
    all.stdout
      .trim()
      .split("\n")
      .map((l) => l.replace(/^\S+ \S+ /, "")),
  ).toEqual(["INFO  started long ago", "ERROR old failure", "WARN  recent warning", "INFO  recent info"]);

  const warn = await runCli(["logs", "--level", "warn", "--json"], { home });
  expect(
    warn.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).msg),
  ).toEqual(["old failure", "recent warning"]);

  const since = await runCli(["logs", "--since", "1h"], { home });
  expect(since.stdout).toContain("recent warning");
  expect(since.stdout).not.toContain("old failure");

  const last = await runCli(["logs", "-n", "1"], { home });
  expect(last.stdout.trim().split("\n")).toHaveLength(1);
  expect(last.stdout).toContain("recent info");

  const bad = await runCli(["logs", "--since", "last tuesday"], { home });
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('--since "last tuesday" is neither a duration');
});

it("says where the log would be when there is none", async () => {
  const run = await runCli(["logs"], { home });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(`No gateway log yet at ${logFile}`);
});

it("-f follows new lines across a rotation, with the level filter, until SIGTERM", async () => {
  writeFileSync(logFile, line(30, 1000, "before"));
  const child = spawn(process.execPath, [CLI_ENTRY, "logs", "-f", "--level", "info", "--json"], { env: cliEnv(home), cwd: home });
  let out = "";
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
  });
  // Resolves when `text` has been printed (checked on each chunk), fails if the command exits first.
  const waitFor = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!out.includes(text)) return;
        child.stdout.off("data", check);
        resolve();
      };
      child.stdout.on("data", check);
      child.once("exit", (code) => reject(new Error(`logs -f exited (${code}) before "${text}":\n${out}`)));
      check();
    });
  await waitFor('"before"');
  appendFileSync(logFile, line(20, 0, "debug is filtered") + line(30, 0, "last of the old file"));
  renameSync(logFile, `${logFile}.1`);
  writeFileSync(logFile, line(50, 0, "first of the new file"));
  await waitFor("first of the new file");
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  expect(await exited).toBe(0);
  expect(
    out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).msg),
  ).toEqual(["before", "last of the old file", "first of the new file"]);
});
