import { mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile, lstat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import JSON5 from "json5";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { configBackupPaths, ConfigFileError, readConfigSource, writeConfigFile } from "./index.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "oc-write-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const mode = async (p: string): Promise<number> => (await stat(p)).mode & 0o777;

describe("writeConfigFile", () => {
  it("writes 2-space JSON with a trailing newline, mode 0600, creating the folder 0700", async () => {
    const file = path.join(dir, "state", "openclaw.json");
    const value = { agents: { defaults: { model: "openai/gpt-4o" } }, list: [1, "two"] };
    expect(await writeConfigFile(file, value)).toEqual({});
    const text = await readFile(file, "utf8");
    expect(text).toBe(`${JSON.stringify(value, null, 2)}\n`);
    expect(text).toContain('\n  "agents": {\n    "defaults"');
    expect(JSON5.parse(text)).toEqual(value);
    expect((await readConfigSource(file)).raw).toEqual(value);
    expect(await mode(file)).toBe(0o600);
    expect(await mode(path.dirname(file))).toBe(0o700);
  });

  it("keeps the five previous versions: .bak (newest), then .bak.1 … .bak.4, dropping the oldest", async () => {
    const file = path.join(dir, "openclaw.json");
    await writeConfigFile(file, { v: 1 });
    const first = await writeConfigFile(file, { v: 2 });
    expect(first.backupPath).toBe(`${file}.bak`);
    expect(JSON.parse(await readFile(`${file}.bak`, "utf8"))).toEqual({ v: 1 });
    for (let v = 3; v <= 7; v++) await writeConfigFile(file, { v });
    const version = async (p: string) => (JSON.parse(await readFile(p, "utf8")) as { v: number }).v;
    expect(await version(file)).toBe(7);
    expect(configBackupPaths(file)).toEqual([`${file}.bak`, `${file}.bak.1`, `${file}.bak.2`, `${file}.bak.3`, `${file}.bak.4`]);
    expect(await Promise.all(configBackupPaths(file).map(version))).toEqual([6, 5, 4, 3, 2]);
    for (const backup of configBackupPaths(file)) expect(await mode(backup)).toBe(0o600);
    // v1 was the sixth version back: gone. No lock folder or temp file is left behind.
    expect((await readdir(dir)).sort()).toEqual(["openclaw.json", ...configBackupPaths(file).map((p) => path.basename(p))].sort());
  });

  it("backs up a hand-written JSON5 file byte for byte, and can skip the backup", async () => {
    const file = path.join(dir, "openclaw.json");
    const original = "// hand-written\n{ a: 1, }\n";
    await writeFile(file, original, { mode: 0o644 });
    await writeConfigFile(file, { a: 2 });
    expect(await readFile(`${file}.bak`, "utf8")).toBe(original);
    expect(await mode(file)).toBe(0o600);
    await writeConfigFile(file, { a: 3 }, { backup: false });
    expect(await readFile(`${file}.bak`, "utf8")).toBe(original);
  });

  it("replaces the target of a symlinked config and keeps the link", async () => {
    const realDir = path.join(dir, "dotfiles");
    await mkdir(realDir);
    const real = path.join(realDir, "openclaw.json");
    await writeFile(real, "{}");
    const link = path.join(dir, "openclaw.json");
    await symlink(real, link);
    await writeConfigFile(link, { linked: true });
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(JSON.parse(await readFile(real, "utf8"))).toEqual({ linked: true });
    expect(await readFile(`${link}.bak`, "utf8")).toBe("{}");
  });

  it("fails with a ConfigFileError and leaves no temp file behind", async () => {
    const file = path.join(dir, "openclaw.json");
    await mkdir(file); // a directory where the file should be: the final rename fails
    await writeFile(path.join(file, "occupant"), "x");
    const err = await writeConfigFile(file, { a: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigFileError);
    expect((err as Error).message).toContain(file);
    expect(await readdir(dir)).toEqual(["openclaw.json"]);
  });

  it("rejects a value without a JSON form", async () => {
    await expect(writeConfigFile(path.join(dir, "x.json"), undefined)).rejects.toThrow(TypeError);
    expect(await readdir(dir)).toEqual([]);
  });
});
