import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openCryptoStore } from "../../src/crypto/index.js";
import { recordingLogger, tempDir } from "./helpers.js";

const log = recordingLogger([]);

function dirWith(files: Record<string, string | Uint8Array>): string {
  const dir = tempDir("mx-crypto-store-");
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

describe("openCryptoStore", () => {
  it("creates the folder 0700 and knows no device yet", async () => {
    const dir = tempDir("mx-crypto-store-");
    const store = await openCryptoStore({ dir, log, userId: "@bot:example.org" });
    expect(store.deviceId).toBeUndefined();
    expect(store.createClientOptions()).not.toHaveProperty("deviceId");
    expect(store.createClientOptions().cryptoCallbacks?.getSecretStorageKey).toBeTypeOf("function");
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it("hands out the stored device id, which wins over the configured one", async () => {
    const dir = dirWith({ "device.json": JSON.stringify({ userId: "@bot:example.org", deviceId: "KEEPME" }) });
    const store = await openCryptoStore({ dir, log, userId: "@bot:example.org" });
    expect(store.deviceId).toBe("KEEPME");
    expect({ deviceId: "CONFIGURED", ...store.createClientOptions() }.deviceId).toBe("KEEPME");
  });

  it("refuses another user's store, naming the folder", async () => {
    const dir = dirWith({ "device.json": JSON.stringify({ userId: "@other:example.org", deviceId: "X" }) });
    await expect(openCryptoStore({ dir, log, userId: "@bot:example.org" })).rejects.toThrow(
      `The Matrix crypto store in ${dir} belongs to @other:example.org, not @bot:example.org`,
    );
  });

  it("refuses an unreadable store file with the way out", async () => {
    const dir = dirWith({ "indexeddb.v8": "not a snapshot" });
    await expect(openCryptoStore({ dir, log, userId: "@bot:example.org" })).rejects.toThrow(
      new RegExp(`${join(dir, "indexeddb.v8")} cannot be read .*After a lost crypto store`),
    );
  });

  it("refuses a recovery key file that is not a recovery key", async () => {
    const dir = dirWith({ "recovery-key": "hunter2\n" });
    await expect(openCryptoStore({ dir, log, userId: "@bot:example.org" })).rejects.toThrow(
      `The Matrix recovery key in ${join(dir, "recovery-key")} is not a valid recovery key`,
    );
  });
});
