import { AccountConfigError } from "@openclaw/plugin-sdk";
import { startFakeTelegram, type FakeTelegram, type TgUpdate } from "@openclaw/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { OFFSET_CURSOR_KEY, PollingConflictError } from "../src/index.js";
import { ann, deferred, group, runAccount, type RunningAccount } from "./helpers.js";

const fakes: FakeTelegram[] = [];
const accounts: RunningAccount[] = [];

async function fakeTelegram(): Promise<FakeTelegram> {
  const fake = await startFakeTelegram({ botUser: { id: 123456, username: "claw_bot", first_name: "Claw" } });
  fakes.push(fake);
  return fake;
}

function run(fake: FakeTelegram, options?: Parameters<typeof runAccount>[1]): RunningAccount {
  const account = runAccount(fake, options);
  accounts.push(account);
  return account;
}

afterEach(async () => {
  await Promise.all(accounts.splice(0).map((a) => a.stop()));
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

describe("long polling: connect and receive", () => {
  it("deletes the webhook, reports @username, and receives a DM as an InboundMessage", async () => {
    const fake = await fakeTelegram();
    const account = run(fake);
    await account.notifier.until(() => account.statuses.some((s) => s.state === "connected"), 5000, "connected");
    expect(account.statuses).toContainEqual({ state: "connected", identity: "@claw_bot" });
    fake.sendUserMessage({ ...ann, text: "hello there" });
    const [dm] = await account.waitReceived(1);
    expect(dm).toMatchObject({
      channel: "telegram",
      accountId: "default",
      chat: { kind: "direct", id: "42" },
      sender: { id: "42", name: "Ann", username: "ann_user", isBot: false },
      text: "hello there",
      mentionsBot: false,
    });
    expect(typeof dm!.messageId).toBe("string");
    const methods = fake.calls.map((c) => c.method);
    expect(methods.indexOf("deleteWebhook")).toBeGreaterThan(-1);
    expect(methods.indexOf("deleteWebhook")).toBeLessThan(methods.indexOf("getUpdates"));
    const poll = fake.calls.find((c) => c.method === "getUpdates")!;
    expect(poll.params.allowed_updates).toEqual(["message", "channel_post"]);
  });

  it("sees group mentions from entities, from a plain @username, from /cmd@bot and from replies to the bot", async () => {
    const fake = await fakeTelegram();
    const account = run(fake);
    fake.sendUserMessage({ ...group, text: "hey @claw_bot what's up" });
    fake.sendUserMessage({ ...group, text: "ping @CLAW_BOT please", entities: [] });
    fake.sendUserMessage({ ...group, text: "/status@claw_bot" });
    fake.sendUserMessage({ ...group, text: "just chatting with @claw_bot_fan" });
    await account.waitReceived(4);
    expect(account.received.map((m) => [m.text, m.mentionsBot, m.chat.kind])).toEqual([
      ["hey @claw_bot what's up", true, "group"],
      ["ping @CLAW_BOT please", true, "group"],
      ["/status@claw_bot", true, "group"],
      ["just chatting with @claw_bot_fan", false, "group"],
    ]);
    // A reply to one of the bot's messages addresses the bot.
    const sent = await fetch(`${fake.apiRoot}/bot${fake.token}/sendMessage`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ chat_id: group.chat.id, text: "I am the bot" }),
    }).then((r) => r.json() as Promise<{ result: { message_id: number } }>);
    fake.sendUserMessage({ ...group, text: "answering you", reply_to_message: sent.result.message_id });
    const all = await account.waitReceived(5);
    expect(all[4]).toMatchObject({
      mentionsBot: true,
      replyTo: { messageId: String(sent.result.message_id), fromBot: true, text: "I am the bot" },
    });
    expect(all[0]!.chat).toEqual({ kind: "group", id: "-100123", title: "Team" });
  });

  it("turns photos and documents into media entries with file ids, captions as text", async () => {
    const fake = await fakeTelegram();
    const account = run(fake);
    fake.sendUserMessage({ ...ann, text: "look", photo: { data: "jpegbytes" } });
    fake.sendUserMessage({ ...ann, document: { data: "%PDF-1.4", fileName: "report.pdf", mimeType: "application/pdf" } });
    const [photo, doc] = await account.waitReceived(2);
    expect(photo).toMatchObject({ text: "look", media: [{ kind: "image", fileId: expect.any(String), size: 9 }] });
    expect(doc).toMatchObject({
      text: "",
      media: [{ kind: "document", fileId: expect.any(String), fileName: "report.pdf", mimeType: "application/pdf" }],
    });
  });

  it("sets threadId for forum topics (General is 1) and keys lanes per topic", async () => {
    const fake = await fakeTelegram();
    const account = run(fake);
    const forum = { chat: { id: -100777, type: "supergroup" as const, title: "Forum", is_forum: true }, from: group.from };
    fake.sendUserMessage({ ...forum, text: "in topic", message_thread_id: 15 });
    fake.sendUserMessage({ ...forum, text: "in general" });
    const [topic, general] = await account.waitReceived(2);
    expect(topic!.chat).toMatchObject({ kind: "group", id: "-100777", threadId: "15" });
    expect(general!.chat).toMatchObject({ threadId: "1" });
  });
});

describe("long polling: ordering", () => {
  it("handles one chat (and one topic) in order while other chats and topics go on", async () => {
    const fake = await fakeTelegram();
    const gate = deferred();
    const topicGate = deferred();
    const forum = { chat: { id: -100777, type: "supergroup" as const, title: "Forum", is_forum: true }, from: group.from };
    fake.sendUserMessage({ ...ann, text: "A1" });
    fake.sendUserMessage({ ...ann, text: "A2" });
    fake.sendUserMessage({ ...group, text: "B1" });
    fake.sendUserMessage({ ...forum, text: "T10-1", message_thread_id: 10 });
    fake.sendUserMessage({ ...forum, text: "T10-2", message_thread_id: 10 });
    fake.sendUserMessage({ ...forum, text: "T11-1", message_thread_id: 11 });
    const account = run(fake, {
      onReceive: (m) => (m.text === "A1" ? gate.promise : m.text === "T10-1" ? topicGate.promise : undefined),
    });
    await account.notifier.until(
      () => ["A1", "B1", "T10-1", "T11-1"].every((t) => account.received.some((m) => m.text === t)),
      5000,
      "first of each lane",
    );
    const texts = () => account.received.map((m) => m.text);
    expect(texts()).not.toContain("A2");
    expect(texts()).not.toContain("T10-2");
    gate.resolve();
    topicGate.resolve();
    await account.waitReceived(6);
    expect(texts().indexOf("A2")).toBeGreaterThan(texts().indexOf("A1"));
    expect(texts().indexOf("T10-2")).toBeGreaterThan(texts().indexOf("T10-1"));
  });
});

/** A scripted getUpdates that, like Telegram, returns every update at or above `offset` until confirmed. */
function scriptedUpdates(fake: FakeTelegram, script: TgUpdate[]): void {
  fake.handle("getUpdates", async (params) => {
    const offset = Number(params.offset ?? 0);
    const out = script.filter((u) => u.update_id >= offset);
    if (out.length > 0) return out;
    await new Promise((resolve) => setTimeout(resolve, 30));
    return [];
  });
}

function textUpdate(updateId: number, text: string): TgUpdate {
  return {
    update_id: updateId,
    message: {
      message_id: updateId,
      date: 1_700_000_000,
      chat: { id: 42, type: "private", first_name: "Ann" },
      from: { id: 42, is_bot: false, first_name: "Ann" },
      text,
    },
  };
}

describe("long polling: restart offset", () => {
  it("persists the handled-update watermark so a restart does not replay updates", async () => {
    const fake = await fakeTelegram();
    const script = [textUpdate(500, "one"), textUpdate(501, "two")];
    scriptedUpdates(fake, script);
    const cursor = new Map<string, string>();
    const first = run(fake, { cursor });
    await first.waitReceived(2);
    await first.notifier.until(() => cursor.get(OFFSET_CURSOR_KEY) === "502", 5000, "cursor 502");
    await first.stop();

    const pollsBefore = fake.calls.filter((c) => c.method === "getUpdates").length;
    const second = run(fake, { cursor });
    script.push(textUpdate(502, "three"));
    await second.waitReceived(1);
    const firstPoll = fake.calls.filter((c) => c.method === "getUpdates")[pollsBefore]!;
    expect(firstPoll.params.offset).toBe(502);
    expect(second.received.map((m) => m.text)).toEqual(["three"]);
    await second.notifier.until(() => cursor.get(OFFSET_CURSOR_KEY) === "503", 5000, "cursor 503");

    // Without the cursor the same script would be replayed: the cursor is what prevents it.
    const fresh = run(fake);
    await fresh.waitReceived(3);
    expect(fresh.received.map((m) => m.text)).toEqual(["one", "two", "three"]);
  });
});

describe("long polling: failures", () => {
  it("reports a 409 from another poller and stops instead of fighting it", async () => {
    const fake = await fakeTelegram();
    // A long poll timeout, so the held poll cannot end on its own before the other poller arrives.
    const account = run(fake, { plugin: { pollTimeoutSeconds: 20 } });
    await fake.waitFor(() => fake.isPolling);
    // Another instance polls the same token: Telegram ends our held poll with 409.
    await fetch(`${fake.apiRoot}/bot${fake.token}/getUpdates`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    const { error } = await account.settled;
    expect(error).toBeInstanceOf(PollingConflictError);
    expect(String((error as Error).message)).toMatch(/another process is polling this bot token/);
    expect(account.statuses).toContainEqual({ state: "error", detail: expect.stringMatching(/409 Conflict.*only one poller per token/) });
    // start() has settled: no loop is left running, so nothing retries until core restarts the account.
    const polls = fake.calls.filter((c) => c.method === "getUpdates" && c.params.timeout === 20);
    expect(polls).toHaveLength(1);
  });

  it("names the webhook when a webhook set elsewhere blocks polling", async () => {
    const fake = await fakeTelegram();
    fake.injectError({
      method: "getUpdates",
      count: 1,
      error_code: 409,
      description: "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
    });
    const account = run(fake);
    const { error } = await account.settled;
    expect(error).toBeInstanceOf(PollingConflictError);
    expect(account.statuses.at(-1)).toEqual({
      state: "error",
      detail: expect.stringMatching(/webhook is set for this bot by something else/),
    });
  });

  it("restarts a poll that has gone silent (stall watchdog)", async () => {
    const fake = await fakeTelegram();
    let polls = 0;
    fake.handle("getUpdates", async (params) => {
      polls += 1;
      if (polls === 1) return new Promise(() => {});
      if (Number(params.offset ?? 0) <= 900) return [textUpdate(900, "after the stall")];
      await new Promise((resolve) => setTimeout(resolve, 30));
      return [];
    });
    const account = run(fake, { plugin: { pollStallMs: 300 } });
    const [message] = await account.waitReceived(1);
    expect(message!.text).toBe("after the stall");
    const calls = fake.calls.filter((c) => c.method === "getUpdates");
    // The first poll never answered (its handler hangs); the watchdog gave up on it and polled again.
    expect(calls[0]!.outcome).toBe("pending");
    expect(calls[1]!.time - calls[0]!.time).toBeGreaterThanOrEqual(250);
    expect(account.log.lines).toContainEqual({ level: "warn", message: expect.stringMatching(/did not answer.*restarting the poll/) });
  });

  it("backs off and recovers after a failing poll, reporting reconnecting", async () => {
    const fake = await fakeTelegram();
    fake.injectError({ method: "getUpdates", count: 2, error_code: 502, description: "Bad Gateway" });
    const account = run(fake);
    fake.sendUserMessage({ ...ann, text: "still here" });
    await account.waitReceived(1);
    expect(account.statuses.filter((s) => s.state === "reconnecting")).toHaveLength(2);
    expect(account.statuses.at(-1)).toEqual({ state: "connected" });
  });

  it("rejects with AccountConfigError when Telegram refuses the token", async () => {
    const fake = await fakeTelegram();
    const account = run(fake, { config: { botToken: "999:WRONG" } });
    const { error } = await account.settled;
    expect(error).toBeInstanceOf(AccountConfigError);
    expect((error as AccountConfigError).path).toBe("channels.telegram.botToken");
    expect((error as Error).message).toMatch(/@BotFather/);
  });
});
