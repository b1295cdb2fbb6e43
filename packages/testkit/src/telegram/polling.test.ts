import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeTelegram, type FakeTelegram } from "../index.js";
import { ann, api } from "./__fixtures__/http.js";

const fakes: FakeTelegram[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

async function open(options?: Parameters<typeof startFakeTelegram>[0]): Promise<FakeTelegram> {
  const fake = await startFakeTelegram(options);
  fakes.push(fake);
  return fake;
}

describe("fake Telegram: auth and routing", () => {
  it("answers getMe for the configured token, 401 for another, 404 for an unknown method", async () => {
    const fake = await open({ token: "777:SECRET", botUser: { id: 777, username: "openclaw_bot", first_name: "Claw" } });
    const me = await api(fake, "getMe");
    expect(me).toEqual({
      status: 200,
      body: { ok: true, result: expect.objectContaining({ id: 777, is_bot: true, username: "openclaw_bot", first_name: "Claw" }) },
    });
    expect(await api(fake, "getMe", {}, "777:WRONG")).toEqual({
      status: 401,
      body: { ok: false, error_code: 401, description: "Unauthorized" },
    });
    expect(await api(fake, "sendTelepathy", { chat_id: 1 })).toEqual({
      status: 404,
      body: { ok: false, error_code: 404, description: "Not Found" },
    });
    expect(fake.calls.map((c) => [c.method, c.ok])).toEqual([
      ["getMe", true],
      ["getMe", false],
      ["sendTelepathy", false],
    ]);
  });
});

describe("fake Telegram: getUpdates", () => {
  it("holds a long poll until a user message arrives, then answers at once", async () => {
    const fake = await open();
    const started = Date.now();
    const poll = api(fake, "getUpdates", { timeout: 20 });
    await fake.waitFor(() => fake.isPolling);
    const sent = fake.sendUserMessage({ ...ann, text: "hello @fake_test_bot, /start please" });
    const { body } = await poll;
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(body.ok).toBe(true);
    expect(body.result).toEqual([sent]);
    expect(sent.message).toMatchObject({
      chat: { id: 42, type: "private", first_name: "Ann" },
      from: { id: 42, is_bot: false, first_name: "Ann", username: "ann_user" },
      text: "hello @fake_test_bot, /start please",
      entities: [
        { type: "mention", offset: 6, length: 14 },
        { type: "bot_command", offset: 22, length: 6 },
      ],
    });
  });

  it("answers an empty list when the timeout passes without updates", async () => {
    const fake = await open();
    const { body } = await api(fake, "getUpdates", { timeout: 1 });
    expect(body).toEqual({ ok: true, result: [] });
  });

  it("keeps updates until an offset above them confirms them, and honours limit", async () => {
    const fake = await open();
    const a = fake.sendUserMessage({ ...ann, text: "one" });
    const b = fake.sendUserMessage({ ...ann, text: "two" });
    const c = fake.sendUserMessage({ ...ann, text: "three" });
    expect(b.update_id).toBe(a.update_id + 1);
    expect((await api(fake, "getUpdates", { limit: 2 })).body.result.map((u: any) => u.message.text)).toEqual(["one", "two"]);
    // Not confirmed yet: asked again without an offset, the same updates come back.
    expect((await api(fake, "getUpdates", {})).body.result).toHaveLength(3);
    const next = await api(fake, "getUpdates", { offset: b.update_id + 1 });
    expect(next.body.result.map((u: any) => u.update_id)).toEqual([c.update_id]);
    expect(fake.pendingUpdates().map((u) => u.update_id)).toEqual([c.update_id]);
    await api(fake, "getUpdates", { offset: c.update_id + 1 });
    expect(fake.pendingUpdates()).toEqual([]);
  });

  it("filters by allowed_updates and remembers the last list", async () => {
    const fake = await open();
    fake.enqueueUpdate({
      message_reaction: { chat: { id: 42, type: "private" }, message_id: 1, new_reaction: [{ type: "emoji", emoji: "👍" }] },
    });
    fake.sendUserMessage({ ...ann, text: "hi" });
    // By default reactions are opt-in.
    expect((await api(fake, "getUpdates")).body.result.map((u: any) => Object.keys(u)[1])).toEqual(["message"]);
    const both = await api(fake, "getUpdates", { allowed_updates: ["message", "message_reaction"] });
    expect(both.body.result).toHaveLength(2);
    expect((await api(fake, "getUpdates")).body.result).toHaveLength(2);
  });

  it("ends a held poll with 409 when a newer getUpdates arrives", async () => {
    const fake = await open();
    const first = api(fake, "getUpdates", { timeout: 20 });
    await fake.waitFor(() => fake.isPolling);
    const second = api(fake, "getUpdates", { timeout: 0 });
    expect(await first).toEqual({
      status: 409,
      body: {
        ok: false,
        error_code: 409,
        description: "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running",
      },
    });
    expect((await second).body).toEqual({ ok: true, result: [] });
  });

  it("answers 409 while a webhook is set, and polls again after deleteWebhook", async () => {
    const fake = await open();
    expect((await api(fake, "setWebhook", { url: "https://bot.example/hook", secret_token: "s3cret" })).body).toEqual({
      ok: true,
      result: true,
    });
    expect((await api(fake, "getWebhookInfo")).body.result).toMatchObject({ url: "https://bot.example/hook", pending_update_count: 0 });
    const conflict = await api(fake, "getUpdates");
    expect(conflict.status).toBe(409);
    expect(conflict.body.description).toContain("Conflict: can't use getUpdates method while webhook is active");
    expect((await api(fake, "deleteWebhook", { drop_pending_updates: true })).body.result).toBe(true);
    expect((await api(fake, "getUpdates")).body).toEqual({ ok: true, result: [] });
    expect((await api(fake, "setWebhook", { url: "https://x.example", secret_token: "bad token!" })).body.description).toBe(
      "Bad Request: secret token contains unallowed characters",
    );
  });
});

describe("fake Telegram: webhook delivery", () => {
  it("posts the update with the secret header, confirms it on 2xx and runs a webhook reply", async () => {
    const fake = await open();
    const seen: Array<{ secret: string | undefined; body: any }> = [];
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        seen.push({ secret: req.headers["x-telegram-bot-api-secret-token"] as string | undefined, body });
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ method: "sendMessage", chat_id: body.message.chat.id, text: "got it" }));
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/telegram-webhook`;
      await api(fake, "setWebhook", { url, secret_token: "hook-secret_1" });
      const update = fake.sendUserMessage({ ...ann, text: "via webhook" });
      expect(fake.pendingUpdates()).toHaveLength(1);
      expect(await fake.postUpdateToWebhook(update)).toBe(200);
      expect(seen).toEqual([{ secret: "hook-secret_1", body: update }]);
      expect(fake.pendingUpdates()).toEqual([]);
      expect(fake.chat(42).map((m) => m.text)).toEqual(["got it"]);
      expect(fake.calls.at(-1)).toMatchObject({ method: "sendMessage", via: "webhook_reply", ok: true });
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });

  it("throws when no webhook is set", async () => {
    const fake = await open();
    const update = fake.sendUserMessage({ ...ann, text: "x" });
    await expect(fake.postUpdateToWebhook(update)).rejects.toThrow(/no webhook is set/);
  });
});
