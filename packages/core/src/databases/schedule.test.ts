import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openAgentStore } from "../sessions/index.js";
import { openStateDb } from "../state/index.js";
import { BackupSchedule, type BackupTimers } from "./schedule.js";

let stateDir: string;
beforeEach(() => {
  stateDir = mkdtempSync(path.join(tmpdir(), "openclaw-backups-"));
  openStateDb(stateDir).close();
  const store = openAgentStore({ stateDir, agentId: "main" });
  const { sessionId } = store.getOrCreateSession("agent:main:main");
  store.appendEvents(
    sessionId,
    Array.from({ length: 200 }, (_, i) => ({ type: "message", message: { role: "user", content: `${i} ${"x".repeat(400)}` } })),
  );
  store.close();
});
afterEach(() => rmSync(stateDir, { recursive: true, force: true }));

/** Timers the test fires by hand, and a clock it moves. */
function manualTime(start: number) {
  let now = start;
  const pending: { callback: () => Promise<void>; ms: number }[] = [];
  const timers: BackupTimers = {
    setTimeout(callback, ms) {
      const timer = { callback, ms };
      pending.push(timer);
      return timer;
    },
    clearTimeout(handle) {
      const i = pending.indexOf(handle as (typeof pending)[number]);
      if (i >= 0) pending.splice(i, 1);
    },
  };
  return {
    timers,
    now: () => now,
    pending,
    /** Moves the clock to the next timer, fires it and waits for what it started; returns its delay. */
    async fireNext(): Promise<number> {
      const timer = pending.shift();
      if (!timer) throw new Error("no timer is pending");
      now += timer.ms;
      await timer.callback();
      return timer.ms;
    },
  };
}

/** A logger that keeps its lines. */
function recordingLog() {
  const lines: string[] = [];
  return {
    lines,
    log: {
      info: (m: string) => void lines.push(`info ${m}`),
      warn: (m: string) => void lines.push(`warn ${m}`),
      error: (m: string) => void lines.push(`error ${m}`),
    },
  };
}

const backupFiles = () => readdirSync(path.join(stateDir, "backups")).sort();
const HOUR = 3600_000;
const T0 = Date.parse("2026-03-01T09:00:00.000Z");

describe("BackupSchedule", () => {
  it("backs up every database at start and every interval, keeping the newest 3 of each", async () => {
    const time = manualTime(T0);
    const { log, lines } = recordingLog();
    // What a gateway killed in the middle of a backup leaves behind.
    mkdirSync(path.join(stateDir, "backups"));
    writeFileSync(path.join(stateDir, "backups", ".state.2026-02-01T00-00-00-000Z.sqlite.4242.tmp"), "half a copy");
    const schedule = new BackupSchedule({ stateDir, log, now: time.now, timers: time.timers });
    await schedule.start();
    expect(backupFiles()).toEqual(["agent-main.2026-03-01T09-00-00-000Z.sqlite", "state.2026-03-01T09-00-00-000Z.sqlite"]);

    for (let round = 2; round <= 4; round++) {
      expect(time.pending).toHaveLength(1);
      expect(await time.fireNext()).toBe(6 * HOUR);
    }
    expect(lines.filter((l) => l.startsWith("info backups: saved 2 database(s)"))).toHaveLength(4);
    expect(backupFiles()).toEqual([
      "agent-main.2026-03-01T15-00-00-000Z.sqlite",
      "agent-main.2026-03-01T21-00-00-000Z.sqlite",
      "agent-main.2026-03-02T03-00-00-000Z.sqlite",
      "state.2026-03-01T15-00-00-000Z.sqlite",
      "state.2026-03-01T21-00-00-000Z.sqlite",
      "state.2026-03-02T03-00-00-000Z.sqlite",
    ]);
    // A backup is a complete database of its own: the session rows are there, without a -wal file.
    const copy = new Database(path.join(stateDir, "backups", "agent-main.2026-03-02T03-00-00-000Z.sqlite"), { readonly: true });
    expect(copy.prepare("SELECT COUNT(*) AS n FROM sessions").get()).toEqual({ n: 1 });
    expect(copy.pragma("journal_mode", { simple: true })).toBe("delete");
    copy.close();

    await schedule.stop();
    expect(time.pending).toHaveLength(0);
  });

  it("a database found damaged is not backed up: its earlier backups stay and the log names the file", async () => {
    const time = manualTime(T0);
    const { log, lines } = recordingLog();
    const schedule = new BackupSchedule({ stateDir, log, now: time.now, timers: time.timers, keep: 1, intervalMs: HOUR });
    await schedule.start();

    const file = path.join(stateDir, "agents", "main", "agent", "openclaw-agent.sqlite");
    truncateSync(file, Math.floor(statSync(file).size / 2));
    await time.fireNext();
    await schedule.stop();

    expect(backupFiles()).toEqual(["agent-main.2026-03-01T09-00-00-000Z.sqlite", "state.2026-03-01T10-00-00-000Z.sqlite"]);
    expect(lines.filter((l) => l.startsWith("info backups: saved"))).toEqual([
      expect.stringContaining("saved 2 database(s)"),
      expect.stringContaining("saved 1 database(s)"),
    ]);
    const error = lines.find((l) => l.startsWith("error "));
    expect(error).toContain(`backups: the session database of agent main ${file} looks damaged`);
    expect(error).toContain("openclaw doctor");
  });
});
