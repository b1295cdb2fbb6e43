import { mkdtemp, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigFileError, readConfigSource } from "./index.js";
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
});
