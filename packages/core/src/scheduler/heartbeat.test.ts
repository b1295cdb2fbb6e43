// The heartbeat scheduler on an injected clock and timers, with a scripted turn runner and a real
// state database: cadence, persistence across a restart, activeHours, manual runs.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { TurnResult } from "../agent/index.js";
import { createConfigRegistry, type OpenClawConfig, validateConfig } from "../config/index.js";
import { openStateDb, type StateDb } from "../state/index.js";
import { HeartbeatScheduler, type HeartbeatRunEvent, type SchedulerTimers } from "./heartbeat.js";
import { HeartbeatStore } from "./heartbeat-store.js";
import type { ScheduledTurnDeps, ScheduledTurnTarget } from "./scheduled-turn.js";

const MIN = 60_000;
const T0 = Date.parse("2026-03-02T10:00:00Z");

function config(heartbeat: Record<string, unknown>): OpenClawConfig {
  const result = validateConfig({ agents: { defaults: { heartbeat } } }, createConfigRegistry());
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.config as OpenClawConfig;
}

/** A clock and timers the test moves by hand. */
function manualClock(start: number) {
  let now = start;
  let pending: { due: number; fn: () => void }[] = [];
  const timers: SchedulerTimers = {
    setTimeout: (fn, ms) => {
      const timer = { due: now + ms, fn };
      pending.push(timer);
      return timer;
    },
    clearTimeout: (handle) => {
      pending = pending.filter((t) => t !== handle);
    },
  };
  return {
    now: () => now,
    timers,
    /** When the next timer fires. */
    nextWake: () => Math.min(...pending.map((t) => t.due)),
    advanceTo(at: number) {
      now = at;
      for (;;) {
        const next = pending.filter((t) => t.due <= now).sort((a, b) => a.due - b.due)[0];
        if (!next) return;
        pending = pending.filter((t) => t !== next);
        next.fn();
      }
    },
  };
}

/** Turns that answer `reply` at once; what was delivered and which prompts ran. */
function scriptedTurns(reply: () => string) {
  const prompts: string[] = [];
  const delivered: { target: ScheduledTurnTarget; text: string }[] = [];
  const deps: ScheduledTurnDeps = {
    queue: {
      submit: async (message) => {
        prompts.push(message.text);
        const result: TurnResult = {
          runId: `run-${prompts.length}`,
          status: "ok",
          agentId: "main",
          sessionKey: message.sessionKey,
          sessionId: "s",
          text: reply(),
          silent: false,
          usage: { inputTokens: 0, outputTokens: 0 },
        };
        return { kind: "ran", turnId: `t${prompts.length}`, result };
      },
    },
    deliver: async (target, text) => {
      delivered.push({ target, text });
    },
    lastContact: () => ({ channel: "telegram", accountId: "default", chatId: "42" }),
  };
  return { deps, prompts, delivered };
}

let dir: string;
let db: StateDb;
let scheduler: HeartbeatScheduler | undefined;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "openclaw-heartbeat-"));
  db = openStateDb(dir);
});
afterEach(() => {
  scheduler?.stop();
  scheduler = undefined;
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function start(cfg: OpenClawConfig, clock: ReturnType<typeof manualClock>, turns: ReturnType<typeof scriptedTurns>) {
  const events: HeartbeatRunEvent[] = [];
  let notify: (() => void) | undefined;
  scheduler = new HeartbeatScheduler({
    config: cfg,
    store: new HeartbeatStore(db),
    turns: turns.deps,
    mainSessionKey: (id) => `agent:${id}:main`,
    now: clock.now,
    timers: clock.timers,
    onRun: (event) => {
      events.push(event);
      notify?.();
    },
  });
  scheduler.start();
  /** Resolves once `count` runs in all have finished. */
  const runs = (count: number) =>
    new Promise<HeartbeatRunEvent[]>((resolve) => {
      const check = () => (events.length >= count ? resolve(events) : undefined);
      notify = check;
      check();
    });
  return { scheduler, events, runs };
}

describe("HeartbeatScheduler", () => {
  it("runs every interval after the previous run, and not before", async () => {
    const clock = manualClock(T0);
    const turns = scriptedTurns(() => "HEARTBEAT_OK");
    const { runs, events } = start(config({ every: "30m", target: "last" }), clock, turns);
    // First seen now: the first run is due 30 minutes later.
    expect(clock.nextWake()).toBe(T0 + MIN);
    clock.advanceTo(T0 + 29 * MIN);
    expect(events).toHaveLength(0);
    clock.advanceTo(T0 + 30 * MIN);
    await runs(1);
    expect(events[0]).toMatchObject({ agentId: "main", status: "ack", manual: false });
    expect(turns.delivered).toEqual([]);
    expect(scheduler!.status()[0]).toMatchObject({ lastRunAt: T0 + 30 * MIN, nextRunAt: T0 + 60 * MIN, lastStatus: "ack" });
  });

  it("after a restart, the next run is computed from the persisted last run", async () => {
    const cfg = config({ every: "30m", target: "last" });
    const turns = scriptedTurns(() => "Water the plants.");
    const before = manualClock(T0);
    const first = start(cfg, before, turns);
    before.advanceTo(T0 + 30 * MIN);
    await first.runs(1);
    expect(turns.delivered).toEqual([{ target: { channel: "telegram", accountId: "default", chatId: "42" }, text: "Water the plants." }]);
    scheduler!.stop();

    // The gateway is down for 10 minutes; a new scheduler on the same database keeps the cadence.
    const after = manualClock(T0 + 40 * MIN);
    const second = start(cfg, after, turns);
    expect(scheduler!.status()[0]).toMatchObject({ lastRunAt: T0 + 30 * MIN, nextRunAt: T0 + 60 * MIN, lastStatus: "delivered" });
    after.advanceTo(T0 + 59 * MIN);
    expect(second.events).toHaveLength(0);
    after.advanceTo(T0 + 60 * MIN);
    await second.runs(1);
    expect(second.events[0]).toMatchObject({ status: "delivered", startedAt: T0 + 60 * MIN });
  });

  it("runs once at start when runs were missed while the gateway was down", async () => {
    const cfg = config({ every: "30m", target: "none" });
    const turns = scriptedTurns(() => "HEARTBEAT_OK");
    new HeartbeatStore(db).recordRun("main", { startedAt: T0 - 5 * 60 * MIN, finishedAt: T0 - 5 * 60 * MIN, status: "ack" });
    const clock = manualClock(T0);
    const { runs, events } = start(cfg, clock, turns);
    await runs(1);
    expect(events).toHaveLength(1);
    expect(scheduler!.status()[0]).toMatchObject({ nextRunAt: T0 + 30 * MIN });
  });

  it("waits for the active hours in the window's timezone", async () => {
    // 10:00 UTC is 19:00 in Tokyo: outside 08:00-18:00 there, inside 08:00-22:00.
    const turns = scriptedTurns(() => "HEARTBEAT_OK");
    new HeartbeatStore(db).recordRun("main", { startedAt: T0 - 60 * MIN, finishedAt: T0 - 60 * MIN, status: "ack" });
    const clock = manualClock(T0);
    const { events } = start(config({ every: "30m", activeHours: { start: "08:00", end: "18:00", timezone: "Asia/Tokyo" } }), clock, turns);
    expect(events).toHaveLength(0);
    // Checked again within a minute; still outside.
    expect(clock.nextWake()).toBe(T0 + MIN);
    clock.advanceTo(T0 + 5 * MIN);
    expect(turns.prompts).toHaveLength(0);
    scheduler!.stop();

    const inside = start(config({ every: "30m", activeHours: { start: "08:00", end: "22:00", timezone: "Asia/Tokyo" } }), clock, turns);
    expect((await inside.runs(1))[0]).toMatchObject({ status: "ack", startedAt: T0 + 5 * MIN });
  });

  it("runNow ignores every and activeHours, and the schedule counts from it", async () => {
    const clock = manualClock(T0);
    const turns = scriptedTurns(() => "Something to say.");
    const cfg = config({
      every: "1h",
      target: "none",
      prompt: "Check in.",
      activeHours: { start: "01:00", end: "02:00", timezone: "UTC" },
    });
    start(cfg, clock, turns);
    clock.advanceTo(T0 + 10 * MIN);
    const event = await scheduler!.runNow("main");
    expect(event).toMatchObject({ status: "no-target", manual: true });
    expect(turns.prompts).toEqual(["Check in."]);
    expect(scheduler!.status()[0]).toMatchObject({ lastRunAt: T0 + 10 * MIN, nextRunAt: T0 + 70 * MIN, target: "none" });
  });

  it('does nothing for "0m" and for agents without a heartbeat', () => {
    const clock = manualClock(T0);
    const turns = scriptedTurns(() => "x");
    start(config({ every: "0m" }), clock, turns);
    expect(scheduler!.status()).toEqual([]);
    clock.advanceTo(T0 + 24 * 60 * MIN);
    expect(turns.prompts).toEqual([]);
  });
});
