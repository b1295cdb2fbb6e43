// `openclaw cron` without a gateway: jobs are written to the state database, bad schedules are
// refused with the fix, and `run` says it needs the gateway.
import { afterEach, beforeEach, expect, it } from "vitest";
import type { CronJob } from "../src/state/index.js";
import { makeTempHome, runCli } from "./helpers/cli.js";

let home: string;
let cleanup: () => void;
beforeEach(() => ({ home, cleanup } = makeTempHome()));
afterEach(() => cleanup());

const cron = (...args: string[]) => runCli(["cron", ...args], { home });

it("adds, lists, pauses, changes and removes jobs offline", async () => {
  const empty = await cron("list");
  expect(empty.code, empty.stderr).toBe(0);
  expect(empty.stdout).toContain("No cron jobs.");

  const added = await cron(
    "add",
    "--cron",
    "0 9 * * 1-5",
    "--tz",
    "Europe/Berlin",
    "--message",
    "standup notes",
    "--name",
    "standup",
    "--json",
  );
  expect(added.code, added.stderr).toBe(0);
  expect(added.stderr).toContain("runs once `openclaw gateway` starts");
  const { job } = JSON.parse(added.stdout) as { job: CronJob };
  expect(job).toMatchObject({ agentId: "main", name: "standup", session: "isolated", target: "last", enabled: true });
  expect(job.schedule).toEqual({ kind: "cron", expr: "0 9 * * 1-5", tz: "Europe/Berlin" });
  // 09:00 in Berlin is 07:00 or 08:00 UTC.
  expect(new Date(job.nextRunAt!).getUTCHours()).toBeOneOf([7, 8]);

  const listed = await cron("list");
  expect(listed.stdout).toContain(`${job.id} "standup" cron "0 9 * * 1-5" (Europe/Berlin) -> last (isolated session); next `);

  const paused = await cron("disable", job.id);
  expect(paused.code, paused.stderr).toBe(0);
  expect(paused.stdout).toContain("disabled");
  const changed = await cron("update", job.id, "--every", "2h", "--session", "main", "--json");
  expect(JSON.parse(changed.stdout).job).toMatchObject({
    schedule: { kind: "every", everyMs: 7_200_000 },
    session: "main",
    enabled: false,
  });

  expect((await cron("rm", job.id)).stdout).toContain(`Removed cron job ${job.id}.`);
  const gone = await cron("rm", job.id);
  expect(gone.code).toBe(1);
  expect(gone.stderr).toContain(`There is no cron job "${job.id}"`);
});

it("refuses a bad schedule or target with what to write, and run without a gateway", async () => {
  const bad = await cron("add", "--cron", "0 25 * * *", "--message", "x");
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain('openclaw cron: the cron expression "0 25 * * *" is invalid');
  expect(bad.stderr).not.toMatch(/\n\s+at /);
  const target = await cron("add", "--every", "1h", "--message", "x", "--target", "telegram");
  expect(target.stderr).toContain('"<channel>:<accountId>:<chatId>"');
  const run = await cron("run", "abcd1234");
  expect(run.code).toBe(1);
  expect(run.stderr).toContain("needs the running gateway");
});
