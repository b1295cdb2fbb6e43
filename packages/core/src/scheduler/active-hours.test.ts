import { describe, expect, it } from "vitest";
import { isWithinActiveHours, minuteOfDay } from "./active-hours.js";

const at = (iso: string) => new Date(iso);

describe("isWithinActiveHours", () => {
  it("is always true without a window, and for start == end", () => {
    expect(isWithinActiveHours(at("2026-03-01T03:00:00Z"), undefined)).toBe(true);
    expect(isWithinActiveHours(at("2026-03-01T03:00:00Z"), { start: "08:00", end: "08:00", timezone: "UTC" })).toBe(true);
  });

  it("includes the start and excludes the end", () => {
    const hours = { start: "08:00", end: "22:00", timezone: "UTC" };
    expect(isWithinActiveHours(at("2026-03-01T07:59:00Z"), hours)).toBe(false);
    expect(isWithinActiveHours(at("2026-03-01T08:00:00Z"), hours)).toBe(true);
    expect(isWithinActiveHours(at("2026-03-01T21:59:00Z"), hours)).toBe(true);
    expect(isWithinActiveHours(at("2026-03-01T22:00:00Z"), hours)).toBe(false);
  });

  it("spans midnight when the end is before the start; 24:00 is midnight", () => {
    const night = { start: "22:00", end: "06:00", timezone: "UTC" };
    expect(isWithinActiveHours(at("2026-03-01T23:30:00Z"), night)).toBe(true);
    expect(isWithinActiveHours(at("2026-03-01T05:59:00Z"), night)).toBe(true);
    expect(isWithinActiveHours(at("2026-03-01T12:00:00Z"), night)).toBe(false);
    expect(isWithinActiveHours(at("2026-03-01T23:59:00Z"), { start: "18:00", end: "24:00", timezone: "UTC" })).toBe(true);
  });

  it("reads the wall clock of the window's timezone", () => {
    // 07:30 UTC is 08:30 in Berlin (CET, winter) and 16:30 in Tokyo.
    const instant = at("2026-01-15T07:30:00Z");
    expect(minuteOfDay(instant, "Europe/Berlin")).toBe(8 * 60 + 30);
    expect(isWithinActiveHours(instant, { start: "08:00", end: "09:00", timezone: "Europe/Berlin" })).toBe(true);
    expect(isWithinActiveHours(instant, { start: "08:00", end: "09:00", timezone: "UTC" })).toBe(false);
    expect(isWithinActiveHours(instant, { start: "08:00", end: "09:00", timezone: "Asia/Tokyo" })).toBe(false);
    // Summer time moves the window with the wall clock: 06:30 UTC is 08:30 in Berlin (CEST).
    expect(isWithinActiveHours(at("2026-07-15T06:30:00Z"), { start: "08:00", end: "09:00", timezone: "Europe/Berlin" })).toBe(true);
  });
});
