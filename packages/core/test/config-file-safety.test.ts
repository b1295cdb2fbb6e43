import { mkdirSync, openSync, closeSync, ftruncateSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempHome, runCli } from "./helpers/cli.js";

let home: string;
let cleanup: () => void;
let configPath: string;

beforeEach(() => {
  ({ home, cleanup } = makeTempHome());
  configPath = path.join(home, ".openclaw", "openclaw.json");
  mkdirSync(path.dirname(configPath), { recursive: true });
});
afterEach(() => cleanup());

describe("config writes from several processes", () => {
  it("12 parallel `config set` all exit 0 and every entry survives", async () => {
    writeFileSync(configPath, "{}\n");
    const ids = Array.from({ length: 12 }, (_, i) => `a${i}`);
    const results = await Promise.all(ids.map((id) => runCli(["config", "set", `agents.entries.${id}.name`, `Name ${id}`], { home })));
    for (const res of results) expect(res.code, res.stderr).toBe(0);
    const entries = JSON.parse(readFileSync(configPath, "utf8")).agents.entries as Record<string, { name: string }>;
    expect(Object.keys(entries).sort()).toEqual([...ids].sort());
    for (const id of ids) expect(entries[id]?.name).toBe(`Name ${id}`);
  });

  it("keeps the five previous versions as .bak, .bak.1 … .bak.4", async () => {
    writeFileSync(configPath, "// v0\n{}\n");
    for (let i = 1; i <= 6; i++) {
      const res = await runCli(["config", "set", "agents.defaults.timeoutSeconds", String(i * 10)], { home });
      expect(res.code, res.stderr).toBe(0);
    }
    const timeout = (file: string) => JSON.parse(readFileSync(file, "utf8")).agents.defaults.timeoutSeconds as number;
    expect(timeout(configPath)).toBe(60);
    expect(timeout(`${configPath}.bak`)).toBe(50);
    expect(timeout(`${configPath}.bak.1`)).toBe(40);
    expect(timeout(`${configPath}.bak.2`)).toBe(30);
    expect(timeout(`${configPath}.bak.3`)).toBe(20);
    expect(timeout(`${configPath}.bak.4`)).toBe(10);
    // The hand-written original (v0) was the sixth generation back: rotated out.
    expect(() => readFileSync(`${configPath}.bak.5`)).toThrow(/ENOENT/);
  });
});

describe("config reader limits", () => {
  it("a 5000-deep file is refused with the file, the limit and the fix", async () => {
    writeFileSync(configPath, `{ agents: ${"[".repeat(5000)}${"]".repeat(5000)} }`);
    for (const args of [
      ["config", "validate"],
      ["config", "get", "gateway.port"],
    ]) {
      const res = await runCli(args, { home });
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(configPath);
      expect(res.stderr).toMatch(/nested more than 64 levels deep/);
      expect(res.stderr).not.toMatch(/Maximum call stack|RangeError/);
    }
  });

  it("an over-size file is refused without reading it", async () => {
    // A sparse 60 MB file: reading it would take seconds and hundreds of MB; checking its size does not.
    const fd = openSync(configPath, "w");
    ftruncateSync(fd, 60 * 1024 * 1024);
    closeSync(fd);
    const started = Date.now();
    const res = await runCli(["config", "validate"], { home });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(configPath);
    expect(res.stderr).toMatch(/is 60 MB; a config file may be at most 10 MB/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
