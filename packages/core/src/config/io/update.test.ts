import { mkdir, mkdtemp, readFile, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CONFIG_LOCK_STALE_MS, ConfigFileError, configLockPath, updateConfigFile, writeConfigFile } from "./index.js";

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "oc-update-"));
  file = path.join(dir, "openclaw.json");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const readJson = async () => JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;

describe("updateConfigFile", () => {
  it("serializes concurrent read-modify-writes: every change lands", async () => {
    await writeFile(file, "{}");
    const ids = Array.from({ length: 20 }, (_, i) => `a${i}`);
    const results = await Promise.all(
      ids.map((id) => updateConfigFile(file, ({ raw }) => ({ ...(raw as Record<string, unknown>), [id]: true }))),
    );
    expect(results.every((r) => r.written)).toBe(true);
    expect(Object.keys(await readJson()).sort()).toEqual([...ids].sort());
    expect(await readdir(dir)).not.toContain("openclaw.json.lock");
  });

  it("gets the file as written, and writes nothing when the update returns undefined", async () => {
    await writeFile(file, "// mine\n{ a: 1 }\n");
    const result = await updateConfigFile(file, (source) => {
      expect(source).toEqual({ exists: true, raw: { a: 1 }, text: "// mine\n{ a: 1 }\n" });
      return undefined;
    });
    expect(result).toEqual({ written: false });
    expect(await readFile(file, "utf8")).toBe("// mine\n{ a: 1 }\n");
    expect((await readdir(dir)).sort()).toEqual(["openclaw.json"]);
  });

  it("creates a missing file, and releases the lock when the update throws", async () => {
    await expect(
      updateConfigFile(file, () => {
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    expect(await readdir(dir)).toEqual([]);
    const created = await updateConfigFile(file, ({ exists }) => (exists ? undefined : { fresh: true }));
    expect(created).toEqual({ written: true });
    expect(await readJson()).toEqual({ fresh: true });
  });

  it("gives up after lockWaitMs when another process holds the lock, naming the file and the lock", async () => {
    await writeFile(file, '{ "a": 1 }');
    // A live holder's lock: the folder exists and was touched just now.
    await mkdir(configLockPath(file));
    const started = performance.now();
    const err = await writeConfigFile(file, { a: 2 }, { lockWaitMs: 300 }).catch((e: unknown) => e);
    const waited = performance.now() - started;
    expect(err).toBeInstanceOf(ConfigFileError);
    expect((err as Error).message).toBe(
      `${file}: is locked by another openclaw process (lock ${file}.lock); gave up after 300 ms. Wait for the other command ` +
        "(or the gateway) to finish and run this again; if no openclaw process is running, delete the lock folder.",
    );
    expect(waited).toBeGreaterThanOrEqual(300);
    expect(waited).toBeLessThan(5_000);
    expect(await readJson()).toEqual({ a: 1 });
    await expect(updateConfigFile(file, () => ({ a: 3 }), { lockWaitMs: 0 })).rejects.toThrow(/is locked by another openclaw process/);
  });

  it("takes over a lock left by a process that died", async () => {
    await writeFile(file, '{ "a": 1 }');
    const lock = configLockPath(file);
    await mkdir(lock);
    const then = new Date(Date.now() - CONFIG_LOCK_STALE_MS - 5_000);
    await utimes(lock, then, then);
    const result = await updateConfigFile(file, ({ raw }) => ({ ...(raw as object), b: 2 }), { lockWaitMs: 300 });
    expect(result.backupPath).toBe(`${file}.bak`);
    expect(await readJson()).toEqual({ a: 1, b: 2 });
    expect(await readdir(dir)).not.toContain("openclaw.json.lock");
  });
});
