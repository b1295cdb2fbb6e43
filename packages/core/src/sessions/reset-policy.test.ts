import { describe, expect, it } from "vitest";
import { evaluateFreshness, matchResetTrigger, mostRecentDailyBoundary, resolveResetPolicy, resolveSessionConfig } from "./index.js";

// Local-time instants, so the tests hold in any TZ.
const at = (d: number, h: number, m = 0) => new Date(2026, 2, d, h, m).getTime();

describe("resolveSessionConfig", () => {
  it("applies the defaults", () => {
    expect(resolveSessionConfig({})).toEqual({
      dmScope: "main",
      groupScope: "per-group",
      mainKey: "main",
      identityLinks: {},
      reset: { mode: "none" },
      resetByType: {},
      resetByChannel: {},
      resetTriggers: ["/new", "/reset"],
    });
  });

  it("reads the legacy resetByType.dm as direct", () => {
    expect(resolveSessionConfig({ session: { resetByType: { dm: { mode: "idle", idleMinutes: 5 } } } }).resetByType.direct).toEqual({
      mode: "idle",
      idleMinutes: 5,
    });
  });
});

describe("resolveResetPolicy", () => {
  const config = resolveSessionConfig({
    session: {
      reset: { mode: "daily", atHour: 5 },
      resetByType: { group: { mode: "idle", idleMinutes: 30 }, thread: { idleMinutes: 10 } },
      resetByChannel: { Telegram: { mode: "none" } },
    },
  });

  it("defaults to none, at 04:00", () => {
    expect(resolveResetPolicy(resolveSessionConfig({}), { key: "agent:main:main" })).toEqual({
      mode: "none",
      atHour: 4,
      source: "default",
    });
  });

  it("uses the channel entry outright, then the type entry, then session.reset", () => {
    expect(resolveResetPolicy(config, { key: "agent:main:telegram:group:1" })).toMatchObject({ mode: "none", source: "channel" });
    expect(resolveResetPolicy(config, { key: "agent:main:matrix:group:1" })).toMatchObject({
      mode: "idle",
      idleMinutes: 30,
      source: "type",
    });
    expect(resolveResetPolicy(config, { key: "agent:main:matrix:group:1:thread:2" })).toMatchObject({
      mode: "idle",
      idleMinutes: 10,
      source: "type",
    });
    expect(resolveResetPolicy(config, { key: "agent:main:main" })).toMatchObject({ mode: "daily", atHour: 5, source: "default" });
    expect(resolveResetPolicy(config, { key: "agent:main:main", channel: "telegram" })).toMatchObject({ source: "channel" });
  });

  it("infers a missing mode and fills defaults", () => {
    const c = (reset: object) => resolveResetPolicy(resolveSessionConfig({ session: { reset } }), {});
    expect(c({ atHour: 2 })).toMatchObject({ mode: "daily", atHour: 2 });
    expect(c({ idleMinutes: 15 })).toMatchObject({ mode: "idle", idleMinutes: 15 });
    expect(c({ mode: "idle" })).toMatchObject({ mode: "idle", idleMinutes: 60 });
    expect(c({ mode: "daily", atHour: 99 })).toMatchObject({ mode: "daily", atHour: 4 });
  });
});

describe("evaluateFreshness", () => {
  const daily = { mode: "daily", atHour: 4, source: "default" } as const;

  it("daily: stale once the atHour boundary after the session start has passed", () => {
    const entry = { sessionStartedAt: at(10, 3, 30) };
    expect(evaluateFreshness(entry, daily, at(10, 3, 59))).toEqual({ fresh: true });
    expect(evaluateFreshness(entry, daily, at(10, 4, 0))).toEqual({ fresh: false, reason: "daily", expiredAt: at(10, 4) });
    const afterFour = { sessionStartedAt: at(10, 4, 0) };
    expect(evaluateFreshness(afterFour, daily, at(11, 3, 59)).fresh).toBe(true);
    expect(evaluateFreshness(afterFour, daily, at(11, 4, 0)).fresh).toBe(false);
  });

  it("daily ignores interactions: a busy session still resets at the boundary", () => {
    const entry = { sessionStartedAt: at(9, 12), lastInteractionAt: at(10, 3, 59) };
    expect(evaluateFreshness(entry, daily, at(10, 4, 1))).toMatchObject({ fresh: false, reason: "daily" });
  });

  it("idle: uses lastInteractionAt, falling back to the session start", () => {
    const idle = { mode: "idle", atHour: 4, idleMinutes: 30, source: "default" } as const;
    expect(evaluateFreshness({ sessionStartedAt: at(10, 1), lastInteractionAt: at(10, 9) }, idle, at(10, 9, 29)).fresh).toBe(true);
    expect(evaluateFreshness({ sessionStartedAt: at(10, 1), lastInteractionAt: at(10, 9) }, idle, at(10, 9, 30))).toEqual({
      fresh: false,
      reason: "idle",
      expiredAt: at(10, 9, 30),
    });
    expect(evaluateFreshness({ sessionStartedAt: at(10, 1) }, idle, at(10, 1, 31)).fresh).toBe(false);
  });

  it("with both daily and idle, whichever expired first is the reason", () => {
    const both = { mode: "daily", atHour: 4, idleMinutes: 60, source: "default" } as const;
    // idle expired at 02:00, the boundary at 04:00: idle first.
    expect(evaluateFreshness({ sessionStartedAt: at(10, 0), lastInteractionAt: at(10, 1) }, both, at(10, 5))).toMatchObject({
      reason: "idle",
      expiredAt: at(10, 2),
    });
    // boundary at 04:00 passed before the idle limit (04:30).
    expect(evaluateFreshness({ sessionStartedAt: at(10, 0), lastInteractionAt: at(10, 3, 30) }, both, at(10, 5))).toMatchObject({
      reason: "daily",
      expiredAt: at(10, 4),
    });
    expect(evaluateFreshness({ sessionStartedAt: at(10, 4), lastInteractionAt: at(10, 4, 30) }, both, at(10, 5)).fresh).toBe(true);
  });

  it("none never expires", () => {
    expect(evaluateFreshness({ sessionStartedAt: 0 }, { mode: "none", atHour: 4, source: "default" }, Date.now()).fresh).toBe(true);
  });

  it("finds the most recent boundary", () => {
    expect(mostRecentDailyBoundary(at(10, 3), 4)).toBe(at(9, 4));
    expect(mostRecentDailyBoundary(at(10, 4), 4)).toBe(at(10, 4));
  });
});

describe("matchResetTrigger", () => {
  it("matches the first word, case-insensitively, with a bot suffix, and returns the rest", () => {
    expect(matchResetTrigger("/new")).toEqual({ trigger: "/new", remainder: "" });
    expect(matchResetTrigger("  /RESET  now please ")).toEqual({ trigger: "/reset", remainder: "now please" });
    expect(matchResetTrigger("/new@MyBot hi")).toEqual({ trigger: "/new", remainder: "hi" });
    expect(matchResetTrigger("/newer")).toBeUndefined();
    expect(matchResetTrigger("please /new")).toBeUndefined();
    expect(matchResetTrigger("/fresh", ["/fresh"])).toEqual({ trigger: "/fresh", remainder: "" });
  });
});
