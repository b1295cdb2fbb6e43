import { execFileSync } from "node:child_process";
import { mkdtemp, open, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigFileError, MAX_CONFIG_DEPTH, readConfigSource } from "./index.js";
import { UserError } from "../paths.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "oc-read-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("readConfigSource", () => {
  it("parses JSON5 with comments, unquoted keys and trailing commas", async () => {
    const file = path.join(dir, "openclaw.json");
    const text = `// my config\n{\n  agents: { defaults: { model: "openai/gpt-4o", }, },\n  /* block */ port: 18789,\n}\n`;
    await writeFile(file, text);
    const source = await readConfigSource(file);
    expect(source).toEqual({
      exists: true,
      raw: { agents: { defaults: { model: "openai/gpt-4o" } }, port: 18789 },
      text,
    });
  });

  it("treats a missing file as an empty config", async () => {
    expect(await readConfigSource(path.join(dir, "nope.json"))).toEqual({ exists: false, raw: {} });
  });

  it("reports a syntax error with file, line, column and a fix", async () => {
    const file = path.join(dir, "openclaw.json");
    await writeFile(file, `{\n  agents: {\n    model: "a" "b",\n  },\n}\n`);
    const err = await readConfigSource(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigFileError);
    expect(err).toBeInstanceOf(UserError);
    const message = (err as Error).message;
    expect(message).toContain(file);
    expect(message).toContain("line 3, column 16");
    expect(message).toMatch(/missing comma/);
    expect(message).toContain('model: "a" "b",');
  });

  it("explains an empty file", async () => {
    const file = path.join(dir, "openclaw.json");
    await writeFile(file, "  \n");
    await expect(readConfigSource(file)).rejects.toThrow(/empty config is written as \{\}/);
  });

  it("explains a directory where the file should be", async () => {
    const file = path.join(dir, "openclaw.json");
    await mkdir(file);
    await expect(readConfigSource(file)).rejects.toThrow(/is a directory/);
  });

  it("refuses a 5000-deep file with the file, the limit and the fix, without overflowing the stack", async () => {
    const file = path.join(dir, "openclaw.json");
    await writeFile(file, `{ agents: ${"[".repeat(5000)}${"]".repeat(5000)} }`);
    const err = await readConfigSource(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigFileError);
    const message = (err as Error).message;
    expect(message).toContain(file);
    expect(message).toContain("nested more than 64 levels deep");
    expect(message).toContain("line 1, column 74"); // the 65th bracket: `{` + 63 `[` before it, after `{ agents: `
    expect(message).toMatch(/flatten it, or restore it from a backup/);
  });

  it("accepts exactly 64 levels and counts no bracket inside strings or comments", async () => {
    const file = path.join(dir, "openclaw.json");
    // `{ a: <levels - 1 lists> }` nests `levels` deep.
    const deep = (levels: number) => `${"[".repeat(levels - 1)}${"]".repeat(levels - 1)}`;
    const noise = String.raw`b: ["[[[[{{{{", '{{{{', "\"[["], // [[[[{{{{` + "\n/* {{{{[[[[ */";
    await writeFile(file, `{ a: ${deep(MAX_CONFIG_DEPTH)}, ${noise} }`);
    expect(MAX_CONFIG_DEPTH).toBe(64);
    const source = await readConfigSource(file);
    expect((source.raw as { b: string[] }).b).toEqual(["[[[[{{{{", "{{{{", '"[[']);
    await writeFile(file, `{ a: ${deep(MAX_CONFIG_DEPTH + 1)} }`);
    await expect(readConfigSource(file)).rejects.toThrow(/nested more than 64 levels deep/);
  });

  it("refuses an over-size file from its size, without reading it", async () => {
    const file = path.join(dir, "openclaw.json");
    // Sparse: 60 MB on paper, nothing on disk; reading it would take seconds.
    const handle = await open(file, "w");
    await handle.truncate(60 * 1024 * 1024);
    await handle.close();
    const started = performance.now();
    const err = await readConfigSource(file).catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(err).toBeInstanceOf(ConfigFileError);
    expect((err as Error).message).toBe(
      `${file}: is 60 MB; a config file may be at most 10 MB. A real config is a few KB: check that OPENCLAW_CONFIG_PATH ` +
        "names the config file, or restore it from a backup (.bak) if it was damaged.",
    );
  });

  it("refuses a FIFO without opening it (opening one would block)", async () => {
    const file = path.join(dir, "openclaw.json");
    execFileSync("mkfifo", [file]);
    await expect(readConfigSource(file)).rejects.toThrow(/is not a regular file/);
  });
});
