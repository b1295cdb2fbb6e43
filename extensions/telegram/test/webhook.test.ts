import { request } from "node:http";
import { startFakeTelegram, type FakeTelegram } from "@openclaw/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { ann, deferred, freePort, runAccount, type RunningAccount, type RunOptions } from "./helpers.js";

const fakes: FakeTelegram[] = [];
const accounts: RunningAccount[] = [];
afterEach(async () => {
  await Promise.all(accounts.splice(0).map((a) => a.stop()));
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

const SECRET = "s3cret_token-1";

async function webhookAccount(options: { onReceive?: RunOptions["onReceive"]; maxBody?: number } = {}) {
  const fake = await startFakeTelegram({ botUser: { id: 555, username: "hook_bot", first_name: "Hook" } });
  fakes.push(fake);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/tg`;
  const account = runAccount(fake, {
    config: { webhookUrl: url, webhookSecret: SECRET, webhookPort: port, webhookPath: "/tg" },
    ...(options.onReceive ? { onReceive: options.onReceive } : {}),
    ...(options.maxBody ? { plugin: { webhookMaxBodyBytes: options.maxBody } } : {}),
  });
  accounts.push(account);
  await fake.waitFor(() => fake.webhookUrl === url);
  await account.notifier.until(() => account.statuses.filter((s) => s.state === "connected").length >= 2, 5000, "webhook connected");
  return { fake, account, url, port };
}

/** POSTs raw bytes to the webhook listener; resolves the HTTP status. */
function post(url: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers: { "content-type": "application/json", ...headers } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Like `post` but streams the body in chunks (no content-length header). */
function postChunked(url: string, chunks: Buffer[], headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers: { "content-type": "application/json", ...headers } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe("webhook mode", () => {
  it("registers the webhook with the secret, answers 200 and delivers the update", async () => {
    const { fake, account } = await webhookAccount();
    const setWebhook = fake.calls.find((c) => c.method === "setWebhook")!;
    expect(setWebhook.params).toMatchObject({ secret_token: SECRET, allowed_updates: ["message", "channel_post"] });
    expect(fake.calls.some((c) => c.method === "getUpdates")).toBe(false);
    const update = fake.sendUserMessage({ ...ann, text: "via webhook" });
    expect(await fake.postUpdateToWebhook(update)).toBe(200);
    const [message] = await account.waitReceived(1);
    expect(message).toMatchObject({ text: "via webhook", chat: { kind: "direct", id: "42" } });
    // A repeated delivery of the same update is acknowledged but not handled twice.
    expect(await fake.postUpdateToWebhook(update)).toBe(200);
    fake.sendUserMessage({ ...ann, text: "next" });
    const next = fake.pendingUpdates().at(-1)!;
    expect(await fake.postUpdateToWebhook(next)).toBe(200);
    await account.waitReceived(2);
    expect(account.received.map((m) => m.text)).toEqual(["via webhook", "next"]);
  });

  it("refuses a wrong or missing secret with 401", async () => {
    const { fake, account, url } = await webhookAccount();
    const update = fake.sendUserMessage({ ...ann, text: "forged" });
    expect(await post(url, JSON.stringify(update), { "x-telegram-bot-api-secret-token": "guess" })).toBe(401);
    expect(await post(url, JSON.stringify(update))).toBe(401);
    expect(account.received).toHaveLength(0);
    expect(account.log.lines.filter((l) => l.level === "warn" && /wrong or missing secret/.test(l.message))).toHaveLength(2);
  });

  it("refuses a body over the limit with 413 and junk with 400", async () => {
    const { url } = await webhookAccount({ maxBody: 64 * 1024 });
    const huge = Buffer.alloc(200 * 1024, 0x20);
    expect(await post(url, huge, { "x-telegram-bot-api-secret-token": SECRET })).toBe(413);
    const pieces = Array.from({ length: 10 }, () => Buffer.alloc(16 * 1024, 0x20));
    expect(await postChunked(url, pieces, { "x-telegram-bot-api-secret-token": SECRET })).toBe(413);
    expect(await post(url, "not json", { "x-telegram-bot-api-secret-token": SECRET })).toBe(400);
    expect(await post(url, '{"hello":1}', { "x-telegram-bot-api-secret-token": SECRET })).toBe(400);
  });

  it("answers 200 only once core has recorded the update (durable before acknowledged)", async () => {
    const gate = deferred();
    const { fake, account } = await webhookAccount({ onReceive: () => gate.promise });
    const update = fake.sendUserMessage({ ...ann, text: "slow one" });
    let answered: number | undefined;
    const posting = fake.postUpdateToWebhook(update, { timeoutMs: 5000 }).then((status) => (answered = status));
    await account.waitReceived(1);
    // Core has the message but has not confirmed it is on disk: Telegram has no answer yet.
    expect(answered).toBeUndefined();
    gate.resolve();
    expect(await posting).toBe(200);
  });

  it("answers 503 when core does not take the update, so Telegram delivers it again", async () => {
    let refuse = true;
    const { fake, account } = await webhookAccount({
      onReceive: async () => {
        if (refuse) throw new Error("the gateway is stopping");
      },
    });
    const update = fake.sendUserMessage({ ...ann, text: "not now" });
    expect(await fake.postUpdateToWebhook(update, { timeoutMs: 5000 })).toBe(503);
    refuse = false;
    expect(await fake.postUpdateToWebhook(update, { timeoutMs: 5000 })).toBe(200);
    await account.waitReceived(2);
  });

  it("logs the webhook URL without the credentials it carries", async () => {
    const fake = await startFakeTelegram({ botUser: { id: 556, username: "hook_bot", first_name: "Hook" } });
    fakes.push(fake);
    const port = await freePort();
    const url = `https://hookuser:hook-pass-2468@bot.example.com/tg?token=hook-query-1357&lang=en`;
    const account = runAccount(fake, { config: { webhookUrl: url, webhookSecret: SECRET, webhookPort: port, webhookPath: "/tg" } });
    accounts.push(account);
    await fake.waitFor(() => fake.webhookUrl === url);
    await account.notifier.until(() => account.statuses.filter((s) => s.state === "connected").length >= 2, 5000, "webhook connected");
    const text = account.log.lines.map((l) => l.message).join("\n");
    expect(text).toContain("Telegram posts to https://***@bot.example.com/tg?token=***&lang=en");
    for (const secret of ["hookuser", "hook-pass-2468", "hook-query-1357"]) expect(text).not.toContain(secret);
  });

  it("removes the webhook on stop", async () => {
    const { fake, account } = await webhookAccount();
    await account.stop();
    expect(fake.webhookUrl).toBe("");
    expect(fake.calls.at(-1)!.method).toBe("deleteWebhook");
  });
});
