import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { useMultiFileAuthState } from "baileys";
import { describe, expect, it } from "vitest";
import { CREDS_BACKUP_FILE, CREDS_FILE, SerialQueue, useFileAuthState } from "../src/index.js";
import { credentialsDir, linkedDir, setup, startAccount } from "./helpers.js";

describe("auth state on disk", () => {
  it("writes every file 0600, in a folder Baileys' useMultiFileAuthState reads", async () => {
    const dir = credentialsDir();
    const auth = await useFileAuthState(dir);
    auth.state.creds.me = { id: "15550001111:2@s.whatsapp.net", name: "Test" };
    await auth.saveCreds();
    await auth.state.keys.set({ "pre-key": { "7": { public: Buffer.from([1, 2]), private: Buffer.from([3, 4]) } } });
    await auth.saveCreds();
    await auth.flush();
    for (const name of readdirSync(dir)) expect({ name, mode: statSync(path.join(dir, name)).mode & 0o777 }).toEqual({ name, mode: 0o600 });
    const stock = await useMultiFileAuthState(dir);
    expect(stock.state.creds.me?.id).toBe("15550001111:2@s.whatsapp.net");
    expect(Buffer.from(stock.state.creds.noiseKey.public)).toEqual(Buffer.from(auth.state.creds.noiseKey.public));
    const keys = await stock.state.keys.get("pre-key", ["7"]);
    expect(Buffer.from(keys["7"]!.private)).toEqual(Buffer.from([3, 4]));
  });

  it("saves one after another, each save backing up the previous creds.json first", async () => {
    const dir = credentialsDir();
    const auth = await useFileAuthState(dir);
    const saves: Promise<void>[] = [];
    for (let i = 0; i < 20; i++) {
      auth.state.creds.nextPreKeyId = i;
      saves.push(auth.saveCreds());
    }
    await Promise.all(saves);
    expect(JSON.parse(readFileSync(path.join(dir, CREDS_FILE), "utf8")).nextPreKeyId).toBe(19);
    // The backup is a complete, valid copy of an earlier save.
    expect(JSON.parse(readFileSync(path.join(dir, CREDS_BACKUP_FILE), "utf8")).nextPreKeyId).toBe(19);
    expect(readdirSync(dir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });

  it("the serial queue runs tasks in order, one at a time, past a failure", async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    let running = 0;
    const task = (name: string, fail = false) =>
      queue.run(async () => {
        running++;
        expect(running).toBe(1);
        await new Promise((r) => setImmediate(r));
        log.push(name);
        running--;
        if (fail) throw new Error(name);
      });
    const results = await Promise.allSettled([task("a"), task("b", true), task("c")]);
    expect(log).toEqual(["a", "b", "c"]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  });

  it("a corrupt creds.json is restored from the backup: the account connects without a new QR", async () => {
    const { fake, plugin } = setup();
    const dir = await linkedDir(fake, plugin);
    // One more save so that a backup exists, as after any creds.update of a running account.
    const first = await startAccount(plugin, dir);
    await first.stop();
    const auth = await useFileAuthState(dir);
    await auth.saveCreds();
    const good = readFileSync(path.join(dir, CREDS_FILE), "utf8");
    writeFileSync(path.join(dir, CREDS_FILE), good.slice(0, good.length / 2)); // cut short by a crash
    const qrs = fake.phone.qrs.length;
    const account = await startAccount(plugin, dir);
    expect(account.state()).toBe("connected");
    expect(account.ctx.logs.some((l) => l.includes("restored it from creds.json.bak"))).toBe(true);
    expect(fake.phone.qrs.length).toBe(qrs);
    expect(JSON.parse(readFileSync(path.join(dir, CREDS_FILE), "utf8")).me.id).toBe(JSON.parse(good).me.id);
    await account.stop();
  });
});
