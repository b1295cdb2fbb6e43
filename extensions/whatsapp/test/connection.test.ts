// Reconnects by DisconnectReason and the watchdog, on a manual clock (no sleeps).
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { backoffDelay, DEFAULT_RECONNECT } from "../src/index.js";
import { linkedDir, ManualClock, setup, startAccount, until } from "./helpers.js";

const policy = { initialMs: 1000, maxMs: 8000, factor: 2, jitter: 0.25, maxAttempts: 5 };

async function connected() {
  const clock = new ManualClock();
  const { fake, plugin } = setup({ clock, reconnect: policy, watchdogMs: 120_000 });
  const dir = await linkedDir(fake, plugin);
  const account = await startAccount(plugin, dir);
  expect(account.state()).toBe("connected");
  return { clock, fake, plugin, dir, account };
}

describe("reconnect by DisconnectReason", () => {
  it("restartRequired (515) reconnects at once", async () => {
    const { clock, fake, account } = await connected();
    const made = fake.phone.socketsMade;
    const timers = clock.timers.size;
    fake.phone.disconnect(515);
    await until(() => fake.phone.socketsMade === made + 1 && fake.phone.connected);
    expect(clock.timers.size).toBeLessThanOrEqual(timers);
    await account.stop();
  });

  it("other reasons back off with jitter, and the wait grows until a socket opens", async () => {
    const { clock, fake, account } = await connected();
    const made = fake.phone.socketsMade;
    clock.randomValue = 1; // the top of the jitter band: 1000 ms * 1.25
    fake.phone.disconnect(408);
    await until(() => account.state() === "reconnecting");
    expect(fake.phone.connected).toBe(false);
    clock.advance(1249);
    await new Promise((r) => setImmediate(r));
    expect(fake.phone.socketsMade).toBe(made);
    clock.advance(1);
    await until(() => fake.phone.connected);
    expect(fake.phone.socketsMade).toBe(made + 1);
    expect(account.state()).toBe("connected");
    await account.stop();
  });

  it("backoffDelay stays within the jitter band and caps at maxMs", () => {
    expect(backoffDelay(policy, 0, 0)).toBe(750);
    expect(backoffDelay(policy, 0, 0.5)).toBe(1000);
    expect(backoffDelay(policy, 2, 0.5)).toBe(4000);
    expect(backoffDelay(policy, 10, 0.999)).toBeLessThanOrEqual(10_000);
    expect(backoffDelay(policy, 10, 0.5)).toBe(8000);
    expect(DEFAULT_RECONNECT.jitter).toBeGreaterThan(0);
  });

  it("loggedOut (401) stops the account with needs-login, removes the dead auth state and never reconnects", async () => {
    const { clock, fake, dir, account } = await connected();
    fake.phone.loggedOutFromPhone();
    await until(() => account.state() === "needs-login");
    expect(account.ctx.statuses.at(-1)?.detail).toMatch(/logged out.*openclaw channels login whatsapp/);
    expect(existsSync(path.join(dir, "creds.json"))).toBe(false);
    const made = fake.phone.socketsMade;
    clock.advance(10 * 60_000);
    await new Promise((r) => setImmediate(r));
    expect(fake.phone.socketsMade).toBe(made);
    await account.stop();
  });
});

describe("watchdog", () => {
  it("keeps a socket that carries frames and replaces one that went silent", async () => {
    const { clock, fake, account } = await connected();
    const made = fake.phone.socketsMade;
    clock.advance(100_000);
    fake.phone.frame();
    clock.advance(100_000);
    expect(fake.phone.socketsMade).toBe(made);
    expect(fake.phone.connected).toBe(true);
    fake.phone.goSilent();
    clock.advance(120_000);
    await until(() => fake.phone.socketsMade === made + 1 && fake.phone.connected);
    expect(account.ctx.logs.some((l) => l.includes("no frames for 120 s"))).toBe(true);
    await account.stop();
  });
});
