import { appendFileSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SecretScrubber } from "../redaction/index.js";
import {
  createGatewayFileLogger,
  formatLogRecord,
  gatewayLogPath,
  LogFollower,
  parseLogLine,
  parseSince,
  readLogRecords,
} from "./index.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "openclaw-logs-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const clock = (start: number) => {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
};

describe("gateway file logger", () => {
  it("writes pino JSON lines under <stateDir>/logs and echoes readable lines", () => {
    const echoed: string[] = [];
    const console = { write: (s: string) => echoed.push(s), isTTY: false } as unknown as NodeJS.WritableStream;
    const log = createGatewayFileLogger({ stateDir: dir, console, now: () => 1_700_000_000_000 });
    log.info("listening on ws://127.0.0.1:18789");
    log.warn("queue: lane busy");
    log.debug("not written at the default level");
    log.close();
    const lines = readFileSync(path.join(dir, "logs", "gateway.log"), "utf8")
      .trim()
      .split("\n");
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      { level: 30, time: 1_700_000_000_000, pid: process.pid, msg: "listening on ws://127.0.0.1:18789" },
      { level: 40, time: 1_700_000_000_000, pid: process.pid, msg: "queue: lane busy" },
    ]);
    expect(echoed).toEqual(["[gateway] listening on ws://127.0.0.1:18789\n", "[gateway] warn: queue: lane busy\n"]);
  });

  it("colours the level on a terminal", () => {
    const echoed: string[] = [];
    const console = { write: (s: string) => echoed.push(s), isTTY: true } as unknown as NodeJS.WritableStream;
    const log = createGatewayFileLogger({ stateDir: dir, console });
    log.error("boom");
    log.close();
    expect(echoed[0]).toMatch(/\x1b\[31mERROR\x1b\[0m boom\n$/);
  });

  it("never writes a configured secret to the file or the terminal", () => {
    const scrubber = new SecretScrubber();
    scrubber.addConfig({
      channels: { telegram: { botToken: "123456:AAbbCCddEEff" } },
      models: { providers: { p: { apiKey: "sk-live-0123456789" } } },
    });
    const echoed: string[] = [];
    const console = { write: (s: string) => echoed.push(s) } as unknown as NodeJS.WritableStream;
    const log = createGatewayFileLogger({ stateDir: dir, console, scrubber });
    log.error("GET https://api.telegram.org/bot123456:AAbbCCddEEff/getMe failed; key sk-live-0123456789 refused");
    log.close();
    const file = readFileSync(gatewayLogPath(dir), "utf8");
    expect(file).not.toContain("AAbbCCddEEff");
    expect(file).not.toContain("sk-live-0123456789");
    expect(JSON.parse(file).msg).toBe("GET https://api.telegram.org/bot***/getMe failed; key *** refused");
    expect(echoed.join("")).not.toContain("sk-live");
  });

  it("rotates by size, keeps N old files, and never splits a line", () => {
    const log = createGatewayFileLogger({ stateDir: dir, maxBytes: 400, keep: 2 });
    for (let i = 0; i < 40; i++) log.info(`event ${String(i).padStart(2, "0")} ${"x".repeat(40)}`);
    log.close();
    const files = readdirSync(path.join(dir, "logs")).sort();
    expect(files).toEqual(["gateway.log", "gateway.log.1", "gateway.log.2"]);
    for (const f of files) {
      const text = readFileSync(path.join(dir, "logs", f), "utf8");
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(400);
      for (const line of text.trim().split("\n")) expect(parseLogLine(line)).toBeDefined();
    }
    // Oldest first across files, ending with the last event; older ones were dropped.
    const msgs = readLogRecords(gatewayLogPath(dir)).map((r) => r.record.msg.slice(0, 8));
    expect(msgs.at(-1)).toBe("event 39");
    expect(msgs).toEqual([...msgs].sort());
    expect(msgs).not.toContain("event 00");
  });
});

describe("reading logs", () => {
  it("filters by level and since, across rotated files", () => {
    const c = clock(Date.parse("2024-05-01T10:00:00Z"));
    const log = createGatewayFileLogger({ stateDir: dir, maxBytes: 150, keep: 5, now: c.now, level: "debug" });
    log.debug("old debug");
    c.advance(60_000);
    log.warn("old warning");
    c.advance(3_600_000);
    log.info("recent info");
    log.error("recent error");
    log.close();
    const file = gatewayLogPath(dir);
    expect(readdirSync(path.join(dir, "logs")).length).toBeGreaterThan(1);
    const msgs = (filter: Parameters<typeof readLogRecords>[1]) => readLogRecords(file, filter).map((r) => r.record.msg);
    expect(msgs({})).toEqual(["old debug", "old warning", "recent info", "recent error"]);
    expect(msgs({ level: "warn" })).toEqual(["old warning", "recent error"]);
    expect(msgs({ since: parseSince("30m", c.now()) })).toEqual(["recent info", "recent error"]);
    expect(msgs({ since: parseSince("2024-05-01T10:00:30Z"), level: "warn" })).toEqual(["old warning", "recent error"]);
  });

  it("parseSince takes durations and dates and explains anything else", () => {
    expect(parseSince("10m", 1_000_000)).toBe(400_000);
    expect(parseSince("2h", 10_000_000)).toBe(10_000_000 - 7_200_000);
    expect(() => parseSince("yesterday")).toThrow(/--since "yesterday" is neither a duration \(30s, 10m, 2h, 7d\) nor a date/);
  });

  it("follow hands over new lines from the end, across a rotation and a partial line", () => {
    const file = path.join(dir, "gateway.log");
    writeFileSync(file, "before\nhal");
    const seen: string[] = [];
    const follower = new LogFollower(file, (line) => seen.push(line));
    // The head is what was there when it opened, up to the last whole line; the rest comes with poll.
    expect(follower.readHead()).toBe("before\n");
    appendFileSync(file, "f\n");
    follower.poll();
    expect(seen).toEqual(["half"]);
    seen.length = 0;
    appendFileSync(file, "one\ntw");
    follower.poll();
    expect(seen).toEqual(["one"]);
    appendFileSync(file, "o\nlast of old\n");
    renameSync(file, `${file}.1`);
    writeFileSync(file, "first of new\n");
    follower.poll();
    expect(seen).toEqual(["one", "two", "last of old", "first of new"]);
    writeFileSync(file, "cut\n");
    follower.poll();
    expect(seen.at(-1)).toBe("cut");
    follower.stop();
  });

  it("formats a record as one local-time line", () => {
    const record = { level: 40, time: new Date(2024, 4, 1, 12, 0, 3, 120).getTime(), msg: "slow" };
    expect(formatLogRecord(record)).toBe("2024-05-01 12:00:03.120 WARN  slow");
  });
});
