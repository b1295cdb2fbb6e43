import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { credentialsDir, linkedDir, loginContext, setup, startAccount, until } from "./helpers.js";

describe("linking", () => {
  it("shows each QR code through showQr and resolves with the linked number once open", async () => {
    const { fake, plugin } = setup({}, { linkedNumber: "+15557654321" });
    const dir = credentialsDir();
    const login = loginContext(plugin, dir);
    const done = plugin.login(login.ctx);
    await fake.phone.waitFor(() => fake.phone.currentQr !== undefined);
    fake.phone.rotateQr();
    await fake.phone.waitFor(() => login.qrs.length === 2);
    expect(login.qrs).toEqual(fake.phone.qrs);
    fake.phone.scanQr();
    await expect(done).resolves.toEqual({ identity: "+15557654321" });
    const creds = JSON.parse(readFileSync(path.join(dir, "creds.json"), "utf8"));
    expect(creds.me.id).toMatch(/^15557654321:\d+@s\.whatsapp\.net$/);
    expect(statSync(path.join(dir, "creds.json")).mode & 0o777).toBe(0o600);
    // The socket used for linking is closed again: the gateway owns the connection.
    expect(fake.phone.connected).toBe(false);
  });

  it("links with a pairing code for the given number instead of a QR code", async () => {
    const { fake, plugin } = setup({}, { linkedNumber: "+447700900123" });
    const login = loginContext(plugin, credentialsDir(), { kind: "pairing-code", phoneNumber: "+447700900123" });
    const done = plugin.login(login.ctx);
    await until(() => login.codes.length === 1);
    expect(login.qrs).toEqual([]);
    fake.phone.enterPairingCode(login.codes[0]!);
    await expect(done).resolves.toEqual({ identity: "+447700900123" });
  });

  it("a restart reuses the saved auth state: connected, no QR", async () => {
    const { fake, plugin } = setup();
    const dir = await linkedDir(fake, plugin);
    const qrsBefore = fake.phone.qrs.length;
    for (let run = 0; run < 2; run++) {
      const account = await startAccount(plugin, dir);
      expect(account.state()).toBe("connected");
      expect(account.ctx.statuses.some((s) => s.identity === fake.phone.number)).toBe(true);
      await account.stop();
    }
    expect(fake.phone.qrs.length).toBe(qrsBefore);
  });

  it("an account without auth state needs linking and shows no QR; it connects once a login appears", async () => {
    const { fake, plugin } = setup();
    const dir = credentialsDir();
    const account = await startAccount(plugin, dir);
    expect(account.state()).toBe("needs-login");
    expect(account.ctx.statuses.at(-1)?.detail).toContain("openclaw channels login whatsapp");
    expect(fake.phone.socketsMade).toBe(0);
    await linkedDir(fake, plugin, dir);
    await fake.phone.waitFor(() => fake.phone.connected);
    await account.stop();
  });

  it("logout unlinks the device and removes the auth state", async () => {
    const { fake, plugin } = setup();
    const dir = await linkedDir(fake, plugin);
    expect(fake.phone.linked).toBe(true);
    await plugin.logout(loginContext(plugin, dir).ctx);
    expect(fake.phone.linked).toBe(false);
    expect(() => statSync(path.join(dir, "creds.json"))).toThrow();
    const account = await startAccount(plugin, dir);
    expect(account.state()).toBe("needs-login");
    await account.stop();
  });
});
