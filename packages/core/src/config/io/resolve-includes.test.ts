import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigFileError, readConfigSource, resolveConfigSource } from "./index.js";

let root: string;
let configDir: string;
let mainFile: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), "oc-include-"));
  configDir = path.join(root, "config");
  await mkdir(configDir);
  mainFile = path.join(configDir, "openclaw.json");
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function put(rel: string, text: string): Promise<string> {
  const file = path.join(configDir, rel);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}

/** Writes the main file, then reads and resolves it the way the loader does. */
async function load(mainText: string, env: NodeJS.ProcessEnv = {}): Promise<unknown> {
  await writeFile(mainFile, mainText);
  const { raw } = await readConfigSource(mainFile);
  return resolveConfigSource(raw, { file: mainFile, env });
}

async function loadError(mainText: string, env: NodeJS.ProcessEnv = {}): Promise<ConfigFileError> {
  const err = await load(mainText, env).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfigFileError);
  return err as ConfigFileError;
}

describe("$include", () => {
  it("replaces a key with one included file", async () => {
    await put("channels.json5", `{ telegram: { enabled: true, }, // comment\n}`);
    expect(await load(`{ channels: { $include: "./channels.json5" }, gateway: { port: 1 } }`)).toEqual({
      channels: { telegram: { enabled: true } },
      gateway: { port: 1 },
    });
  });

  it("works at the root and leaves the input object untouched", async () => {
    await put("base.json5", `{ gateway: { port: 1 } }`);
    await writeFile(mainFile, `{ $include: "base.json5" }`);
    const { raw } = await readConfigSource(mainFile);
    const snapshot = structuredClone(raw);
    expect(await resolveConfigSource(raw, { file: mainFile, env: {} })).toEqual({ gateway: { port: 1 } });
    expect(raw).toEqual(snapshot);
  });

  it("deep-merges an array of includes in order; arrays and scalars are replaced", async () => {
    await put("a.json5", `{ agents: { defaults: { model: "a/1", skills: ["x", "y"], heartbeat: { every: "30m" } } } }`);
    await put("b.json5", `{ agents: { defaults: { model: "b/2", skills: ["z"], timeoutSeconds: 5 } } }`);
    expect(await load(`{ $include: ["a.json5", "b.json5"] }`)).toEqual({
      agents: { defaults: { model: "b/2", skills: ["z"], heartbeat: { every: "30m" }, timeoutSeconds: 5 } },
    });
  });

  it("lets sibling keys override included content, merging objects", async () => {
    await put("base.json5", `{ mode: "partial", block: { enabled: false, coalesce: { idleMs: 1000 } }, chunkMode: "length" }`);
    expect(await load(`{ streaming: { $include: "base.json5", mode: "off", block: { enabled: true } } }`)).toEqual({
      streaming: { mode: "off", block: { enabled: true, coalesce: { idleMs: 1000 } }, chunkMode: "length" },
    });
  });

  it("resolves nested includes relative to the including file's folder", async () => {
    await put("parts/channels.json5", `{ telegram: { $include: "tg/telegram.json5" } }`);
    await put("parts/tg/telegram.json5", `{ botToken: "t", accounts: { $include: ["../../acc.json5"] } }`);
    await put("acc.json5", `{ main: { enabled: true } }`);
    expect(await load(`{ channels: { $include: "parts/channels.json5" } }`)).toEqual({
      channels: { telegram: { botToken: "t", accounts: { main: { enabled: true } } } },
    });
  });

  it("resolves includes inside arrays", async () => {
    await put("binding.json5", `{ agentId: "ops", match: { channel: "telegram" } }`);
    expect(await load(`{ bindings: [{ $include: "binding.json5" }, { agentId: "main" }] }`)).toEqual({
      bindings: [{ agentId: "ops", match: { channel: "telegram" } }, { agentId: "main" }],
    });
  });

  it("accepts 10 nested levels and rejects 11, naming the chain", async () => {
    const chain = async (levels: number): Promise<void> => {
      for (let i = 1; i <= levels; i++) {
        await put(`l${i}.json5`, i < levels ? `{ level${i}: true, next: { $include: "l${i + 1}.json5" } }` : `{ bottom: ${i} }`);
      }
    };
    await chain(10);
    const ok = JSON.stringify(await load(`{ $include: "l1.json5" }`));
    expect(ok).toContain(`"bottom":10`);

    await chain(11);
    const err = await loadError(`{ $include: "l1.json5" }`);
    expect(err.message).toMatch(/deeper than 10 levels/);
    expect(err.message).toContain(`${path.join(configDir, "l10.json5")}: next.next.next.next.next.next.next.next.next.next.$include`);
    expect(err.message).toContain(`l1.json5 -> `);
    expect(err.message).toContain(`l11.json5`);
  });

  it("rejects a cycle", async () => {
    await put("a.json5", `{ b: { $include: "b.json5" } }`);
    await put("b.json5", `{ a: { $include: "a.json5" } }`);
    const err = await loadError(`{ $include: "a.json5" }`);
    expect(err.message).toMatch(/include cycle/);
    expect(err.message).toContain(`${path.join(configDir, "b.json5")}: b.a.$include: "a.json5"`);
  });

  it("allows the same file to be included twice in separate branches", async () => {
    await put("shared.json5", `{ enabled: true }`);
    expect(await load(`{ a: { $include: "shared.json5" }, b: { $include: "shared.json5" } }`)).toEqual({
      a: { enabled: true },
      b: { enabled: true },
    });
  });

  it("rejects a relative path that escapes the config folder", async () => {
    await writeFile(path.join(root, "outside.json5"), `{ secret: 1 }`);
    const err = await loadError(`{ channels: { $include: "../outside.json5" } }`);
    expect(err.message).toContain(`${mainFile}: channels.$include: "../outside.json5"`);
    expect(err.message).toMatch(/outside the config folder/);
    expect(err.message).toMatch(/OPENCLAW_INCLUDE_ROOTS/);
  });

  it("rejects a symlink inside the folder that points outside it", async () => {
    const outsideDir = path.join(root, "elsewhere");
    await mkdir(outsideDir);
    await writeFile(path.join(outsideDir, "real.json5"), `{ secret: 1 }`);
    await symlink(path.join(outsideDir, "real.json5"), path.join(configDir, "link.json5"));
    const err = await loadError(`{ x: { $include: "link.json5" } }`);
    expect(err.message).toContain(`"link.json5" resolves to ${path.join(outsideDir, "real.json5")}, outside the config folder`);
  });

  it("allows files under OPENCLAW_INCLUDE_ROOTS", async () => {
    const shared = path.join(root, "shared");
    const other = path.join(root, "other");
    await mkdir(shared);
    await writeFile(path.join(shared, "real.json5"), `{ fromShared: true }`);
    await symlink(path.join(shared, "real.json5"), path.join(configDir, "link.json5"));
    const env = { OPENCLAW_INCLUDE_ROOTS: [other, shared].join(path.delimiter) };
    expect(await load(`{ a: { $include: "link.json5" }, b: { $include: "../shared/real.json5" } }`, env)).toEqual({
      a: { fromShared: true },
      b: { fromShared: true },
    });
  });

  it("rejects an included file over 2 MB", async () => {
    await put("big.json5", `{ blob: "${"x".repeat(2 * 1024 * 1024)}" }`);
    await put("small.json5", `{ blob: "${"x".repeat(1024 * 1024)}" }`);
    expect(await load(`{ a: { $include: "small.json5" } }`)).toBeTruthy();
    const err = await loadError(`{ a: { $include: "big.json5" } }`);
    expect(err.message).toMatch(/at most 2 MB/);
  });

  it("caps the nesting of an included file, counting the levels above its $include", async () => {
    // Included at a.b (2 levels below the top), a file may add 62 levels: 64 in all.
    await put("ok.json5", `${"[".repeat(62)}${"]".repeat(62)}`);
    await put("deep.json5", `${"[".repeat(63)}${"]".repeat(63)}`);
    expect(await load(`{ a: { b: { $include: "ok.json5" } } }`)).toBeTruthy();
    const err = await loadError(`{ a: { b: { $include: "deep.json5" } } }`);
    expect(err.message).toContain(`${path.join(configDir, "deep.json5")}: is nested more than 62 levels deep`);
    expect(err.message).toContain("it is included at a.b, so it may add at most 62 of the 64 levels a config may have");
    expect(err.message).toContain(`included from ${mainFile} at a.b.$include`);
    await put("very-deep.json5", `${"[".repeat(5000)}${"]".repeat(5000)}`);
    expect((await loadError(`{ $include: "very-deep.json5" }`)).message).toContain("nested more than 64 levels deep");
  });

  it("reports a missing file and a syntax error in an included file", async () => {
    await put("bad.json5", `{\n  a: 1\n  b: 2\n}`);
    const err = await loadError(`{ x: { $include: "missing.json5" }, y: { $include: "bad.json5" } }`);
    expect(err.problems).toHaveLength(2);
    expect(err.message).toContain(`${mainFile}: x.$include: "missing.json5" not found`);
    expect(err.message).toContain(`${path.join(configDir, "bad.json5")}: invalid JSON5 at line 3, column 3`);
    expect(err.message).toContain(`included from ${mainFile} at y.$include`);
  });

  it("rejects a malformed $include value and a non-object merged with siblings", async () => {
    await put("list.json5", `[1, 2]`);
    const err = await loadError(`{ a: { $include: 42 }, b: { $include: "list.json5", extra: 1 } }`);
    expect(err.problems.map((p) => p.path)).toEqual(["a.$include", "b.$include"]);
    expect(err.message).toMatch(/must be a file path or a list of file paths/);
    expect(err.message).toMatch(/must contain an object/);
  });

  it("lets a lone include supply a non-object value", async () => {
    await put("list.json5", `["a", "b"]`);
    expect(await load(`{ allowFrom: { $include: "list.json5" } }`)).toEqual({ allowFrom: ["a", "b"] });
  });
});
