import { describe, expect, it } from "vitest";
import { CronInputError, parseCronJobInput, parseCronJobPatch } from "./cron-input.js";
import { nextRunAfter, parseAtText, parseDurationText, scheduleProblem } from "./cron-schedule.js";

const T0 = Date.parse("2026-03-28T10:15:00Z");

describe("nextRunAfter", () => {
  it("every: the next slot counted from the anchor, skipping every slot missed meanwhile", () => {
    const every = { kind: "every" as const, everyMs: 60_000, anchorMs: T0 };
    expect(nextRunAfter(every, T0)).toBe(T0 + 60_000);
    expect(nextRunAfter(every, T0 + 59_999)).toBe(T0 + 60_000);
    // Ten minutes and a half of downtime: one next slot, not ten.
    expect(nextRunAfter(every, T0 + 630_000)).toBe(T0 + 660_000);
    expect(nextRunAfter(every, T0 - 5)).toBe(T0);
  });

  it("at: its time while it lies ahead, then none", () => {
    expect(nextRunAfter({ kind: "at", atMs: T0 }, T0 - 1)).toBe(T0);
    expect(nextRunAfter({ kind: "at", atMs: T0 }, T0)).toBeUndefined();
  });

  it("cron: croner's next match in the job's timezone, across a DST change", () => {
    const nine = { kind: "cron" as const, expr: "0 9 * * *", tz: "Europe/Berlin" };
    // 28 March 2026: Berlin is UTC+1; 29 March it switches to UTC+2.
    expect(new Date(nextRunAfter(nine, T0)!).toISOString()).toBe("2026-03-29T07:00:00.000Z");
    expect(new Date(nextRunAfter(nine, Date.parse("2026-03-28T07:00:00Z"))!).toISOString()).toBe("2026-03-28T08:00:00.000Z");
    const utc = { kind: "cron" as const, expr: "*/15 * * * *", tz: "UTC" };
    expect(new Date(nextRunAfter(utc, T0)!).toISOString()).toBe("2026-03-28T10:30:00.000Z");
    // Strictly after: a job claimed exactly at (or just after) its due time moves to the next match.
    expect(new Date(nextRunAfter(utc, Date.parse("2026-03-28T10:30:00.000Z"))!).toISOString()).toBe("2026-03-28T10:45:00.000Z");
    expect(new Date(nextRunAfter(utc, Date.parse("2026-03-28T10:29:59.999Z"))!).toISOString()).toBe("2026-03-28T10:30:00.000Z");
    expect(nextRunAfter({ kind: "cron", expr: "* * * * * *" }, T0)).toBe(T0 + 1000);
  });
});

describe("parsing", () => {
  it("reads intervals and times", () => {
    expect(parseDurationText("1h30m")).toBe(5_400_000);
    expect(parseDurationText("45s")).toBe(45_000);
    expect(parseDurationText("soon")).toBeUndefined();
    expect(parseAtText("+20m", T0)).toBe(T0 + 1_200_000);
    expect(parseAtText("in 2h", T0)).toBe(T0 + 7_200_000);
    expect(parseAtText("2026-12-24T18:00:00+01:00", T0)).toBe(Date.parse("2026-12-24T17:00:00Z"));
    expect(parseAtText("tomorrow", T0)).toBeUndefined();
  });

  it("names what is wrong with a schedule", () => {
    expect(scheduleProblem({ kind: "cron", expr: "61 * * * *" })).toMatch(/cron expression "61 \* \* \* \*" is invalid/);
    expect(scheduleProblem({ kind: "cron", expr: "0 9 * * *", tz: "Mars/Olympus" })).toMatch(/not a known IANA timezone/);
    expect(scheduleProblem({ kind: "every", everyMs: 10, anchorMs: 0 })).toMatch(/at least 1 s/);
    expect(scheduleProblem({ kind: "cron", expr: "0 9 * * 1-5", tz: "Europe/Berlin" })).toBeUndefined();
  });

  it("turns a job's input into the stored shape, defaults included", () => {
    expect(parseCronJobInput({ every: "30m", message: " check mail " }, "main", T0)).toEqual({
      agentId: "main",
      schedule: { kind: "every", everyMs: 1_800_000, anchorMs: T0 },
      session: "isolated",
      message: "check mail",
      target: "last",
    });
    expect(
      parseCronJobInput({ cron: "0 9 * * *", tz: "UTC", message: "m", target: "telegram:default:42", session: "main" }, "ops", T0),
    ).toMatchObject({
      schedule: { kind: "cron", expr: "0 9 * * *", tz: "UTC" },
      session: "main",
      target: "telegram:default:42",
    });
  });

  it("refuses two schedules, none, a bad target or an empty message, naming the field", () => {
    const bad = (input: Parameters<typeof parseCronJobInput>[0]) => () => parseCronJobInput(input, "main", T0);
    expect(bad({ at: "+1m", every: "1m", message: "m" })).toThrow(/give one schedule, not at and every/);
    expect(bad({ message: "m" })).toThrow(/give a schedule/);
    expect(bad({ every: "1m", message: "m", target: "telegram" })).toThrow(CronInputError);
    expect(bad({ every: "1m", message: "m", target: "telegram" })).toThrow(/"<channel>:<accountId>:<chatId>"/);
    expect(bad({ every: "1m", message: "  " })).toThrow(/message must not be empty/);
    expect(bad({ every: "1m", tz: "UTC", message: "m" })).toThrow(/tz only applies to a cron expression/);
    expect(parseCronJobPatch({ enabled: false, name: "" }, T0)).toEqual({ enabled: false, name: null });
  });
});
