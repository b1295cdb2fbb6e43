import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStateDb, type CronJob, type StateDb } from "../state/index.js";
import { parseCronJobInput } from "./cron-input.js";
import { CronService, type CronRunOutcome, type CronTimers } from "./cron-service.js";

const T0 = Date.parse("2026-05-04T08:00:00Z");
const MIN = 60_000;

/** A clock and timers the test moves by hand. */
function manualTime(start: number) {
  let now = start;
  let pending: { fn: () => void; at: number; id: number } | undefined;
  let ids = 0;
  const timers: CronTimers = {
    setTimeout(fn, ms) {
      pending = { fn, at: now + ms, id: ++ids };
      return pending.id;
    },
    clearTimeout(id) {
      if (pending?.id === id) pending = undefined;
    },
  };
  return {
    timers,
    now: () => now,
    /** When the armed timer fires next. */
    nextWake: () => pending?.at,
    /** Moves the clock to `to`, firing the armed timer whenever it falls due. */
    advanceTo(to: number) {
      while (pending && pending.at <= to) {
        const due = pending;
        pending = undefined;
        now = Math.max(now, due.at);
        due.fn();
      }
      now = to;
    },
  };
}

let stateDir: string;
let db: StateDb;
beforeEach(() => {
  stateDir = mkdtempSync(path.join(tmpdir(), "openclaw-cron-"));
  db = openStateDb(stateDir);
});
afterEach(() => {
  db.close();
  rmSync(stateDir, { recursive: true, force: true });
});

function service(time: ReturnType<typeof manualTime>, ran: CronJob[], outcome: CronRunOutcome = { status: "ok", delivered: true }) {
  return new CronService({
    db,
    now: time.now,
    timers: time.timers,
    runJob: async (job) => {
      ran.push(job);
      return outcome;
    },
  });
}

describe("CronService", () => {
  it("runs an every job at each slot while it runs, and once after downtime however many slots were missed", async () => {
    const time = manualTime(T0);
    const ran: CronJob[] = [];
    const first = service(time, ran);
    first.start();
    const job = first.add(parseCronJobInput({ every: "1m", message: "tick" }, "main", T0));
    expect(time.nextWake()).toBe(T0 + MIN);
    time.advanceTo(T0 + 2 * MIN);
    await first.idle();
    expect(ran).toHaveLength(2);
    await first.stop();

    // Ten minutes down: a new process (new service on the same database) starts.
    const later = manualTime(T0 + 12 * MIN + 30_000);
    const second = service(later, ran);
    second.start();
    await second.idle();
    expect(ran).toHaveLength(3);
    expect(second.get(job.id)!.nextRunAt).toBe(T0 + 13 * MIN);
    expect(second.runs({ jobId: job.id }).map((r) => [r.status, r.scheduledFor])).toEqual([
      ["ok", T0 + 3 * MIN],
      ["ok", T0 + 2 * MIN],
      ["ok", T0 + MIN],
    ]);
    await second.stop();
  });

  it("runs a one-shot job that fell due while down once, then disables it; a restart does not run it again", async () => {
    const ran: CronJob[] = [];
    const offline = service(manualTime(T0), ran);
    const job = offline.add(parseCronJobInput({ at: "+5m", message: "remind me", target: "none" }, "main", T0));
    expect(job.nextRunAt).toBe(T0 + 5 * MIN);

    const up = service(manualTime(T0 + 60 * MIN), ran);
    up.start();
    await up.idle();
    await up.stop();
    const again = service(manualTime(T0 + 61 * MIN), ran);
    again.start();
    await again.idle();
    expect(ran.map((j) => j.message)).toEqual(["remind me"]);
    expect(again.get(job.id)).toMatchObject({ enabled: false, lastStatus: "ok" });
    expect(again.get(job.id)!.nextRunAt).toBeUndefined();
    await again.stop();
  });

  it("never repeats a run a crash cut off: it is marked interrupted at the next start", async () => {
    const time = manualTime(T0);
    const ran: CronJob[] = [];
    const crashing = new CronService({ db, now: time.now, timers: time.timers, runJob: () => new Promise(() => {}) });
    crashing.start();
    const job = crashing.add(parseCronJobInput({ at: "+1m", message: "once", target: "none" }, "main", T0));
    time.advanceTo(T0 + MIN);
    expect(crashing.runs({ jobId: job.id })[0]!.status).toBe("running");
    // kill -9: nothing is recorded; the next process starts on the same database.
    const next = service(manualTime(T0 + 2 * MIN), ran);
    next.start();
    await next.idle();
    expect(ran).toHaveLength(0);
    expect(next.runs({ jobId: job.id }).map((r) => r.status)).toEqual(["interrupted"]);
    expect(next.get(job.id)!.lastStatus).toBe("interrupted");
    await next.stop();
  });

  it("runs a job now without moving its schedule, records failures, and skips disabled jobs", async () => {
    const time = manualTime(T0);
    const ran: CronJob[] = [];
    const svc = new CronService({
      db,
      now: time.now,
      timers: time.timers,
      runJob: async (job) => {
        ran.push(job);
        throw new Error("provider down");
      },
    });
    svc.start();
    const job = svc.add(parseCronJobInput({ cron: "0 9 * * *", tz: "UTC", message: "brief" }, "main", T0));
    expect(job.nextRunAt).toBe(Date.parse("2026-05-04T09:00:00Z"));
    const run = await svc.runNow(job.id);
    expect(run).toMatchObject({ trigger: "manual", status: "error", error: "provider down", delivered: false });
    expect(svc.get(job.id)).toMatchObject({ nextRunAt: job.nextRunAt, lastStatus: "error", lastError: "provider down" });

    svc.update(job.id, { enabled: false });
    time.advanceTo(Date.parse("2026-05-05T12:00:00Z"));
    await svc.idle();
    expect(ran).toHaveLength(1);
    expect(svc.summary()).toEqual({ jobs: 1, enabled: 0 });
    // Enabled again: the next run is computed from now, the missed mornings are not replayed.
    expect(svc.update(job.id, { enabled: true })!.nextRunAt).toBe(Date.parse("2026-05-06T09:00:00Z"));
    expect(svc.summary()).toEqual({ jobs: 1, enabled: 1, nextRunAt: Date.parse("2026-05-06T09:00:00Z") });
    expect(svc.remove(job.id)).toBe(true);
    expect(svc.list()).toEqual([]);
    await svc.stop();
  });

  it("sees a job another process stored within the poll interval", async () => {
    const time = manualTime(T0);
    const ran: CronJob[] = [];
    const gateway = new CronService({
      db,
      now: time.now,
      timers: time.timers,
      pollMs: 30_000,
      runJob: async (j) => (ran.push(j), { status: "ok", delivered: false }),
    });
    gateway.start();
    expect(time.nextWake()).toBe(T0 + 30_000);
    // `openclaw cron add` without the control API: another connection writes the table.
    const other = openStateDb(stateDir);
    new CronService({ db: other, now: time.now, runJob: async () => ({ status: "ok", delivered: false }) }).add(
      parseCronJobInput({ at: "+10s", message: "from the cli", target: "none" }, "main", T0),
    );
    other.close();
    time.advanceTo(T0 + 30_000);
    await gateway.idle();
    expect(ran.map((j) => j.message)).toEqual(["from the cli"]);
    await gateway.stop();
  });
});
