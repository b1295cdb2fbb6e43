// The fake homeserver through a real matrix-js-sdk client: what a bot does (sync, send, edit,
// redact, typing, receipts, media, invites) and the faults a real server cannot produce on demand.
import { ClientEvent, createClient, type MatrixClient, type MatrixEvent, RoomEvent } from "matrix-js-sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMatrixHuman, type FakeHomeserver, quietMatrixSdkLogs, startFakeHomeserver } from "./index.js";

let fake: FakeHomeserver;
let bot: MatrixClient;
const HUMAN = "@human:fake.test";
const BOT = "@bot:fake.test";

/** A plain SDK client (no crypto) that has finished its first sync. */
async function startBot(): Promise<MatrixClient> {
  const session = await fake.registerUser("bot", { displayName: "Bot" });
  const client = createClient({
    baseUrl: fake.baseUrl,
    userId: session.userId,
    accessToken: session.accessToken,
    deviceId: session.deviceId,
  });
  const prepared = new Promise<void>((resolve) => client.on(ClientEvent.Sync, (state) => state === "PREPARED" && resolve()));
  await client.startClient({ initialSyncLimit: 20 });
  await prepared;
  return client;
}

/** Resolves with the next timeline event in `roomId` the bot receives that matches. */
function nextEvent(roomId: string, match: (ev: MatrixEvent) => boolean): Promise<MatrixEvent> {
  return new Promise((resolve) => {
    const listener = (ev: MatrixEvent) => {
      if (ev.getRoomId() !== roomId || !match(ev)) return;
      bot.off(RoomEvent.Timeline, listener);
      resolve(ev);
    };
    bot.on(RoomEvent.Timeline, listener);
  });
}

async function sharedRoom(): Promise<string> {
  const roomId = fake.createRoom(HUMAN, { name: "chat", invite: [BOT] });
  await bot.joinRoom(roomId);
  await fake.waitFor(() => bot.getRoom(roomId)?.getMyMembership() === "join");
  return roomId;
}

beforeEach(async () => {
  await quietMatrixSdkLogs();
  fake = await startFakeHomeserver();
  await fake.registerUser("human", { displayName: "Human" });
  bot = await startBot();
});

afterEach(async () => {
  bot.stopClient();
  await fake.close();
});

describe("startFakeHomeserver with matrix-js-sdk", () => {
  it("logs in, and the bot sees an invite with is_direct, joins, and reads the m.direct it sets", async () => {
    const fresh = createClient({ baseUrl: fake.baseUrl });
    const login = await fresh.loginRequest({
      type: "m.login.password",
      identifier: { type: "m.id.user", user: "bot" },
      password: "bot-password",
    });
    expect(login.user_id).toBe(BOT);
    await expect(
      fresh.loginRequest({ type: "m.login.password", identifier: { type: "m.id.user", user: "bot" }, password: "wrong" }),
    ).rejects.toMatchObject({ errcode: "M_FORBIDDEN" });
    expect((await bot.whoami()).user_id).toBe(BOT);

    const roomId = fake.createRoom(HUMAN, { invite: [BOT], isDirect: true });
    const invited = await fake.waitFor(() => bot.getRoom(roomId)?.getMyMembership() === "invite" && bot.getRoom(roomId));
    expect(invited.currentState.getMember(BOT)?.events.member?.getContent().is_direct).toBe(true);
    await bot.joinRoom(roomId);
    expect(fake.membership(roomId, BOT)).toBe("join");
    await bot.setAccountData("m.direct" as never, { [HUMAN]: [roomId] } as never);
    await fake.waitFor(() => bot.getAccountData("m.direct" as never));
    expect(fake.accountData(BOT, "m.direct")).toEqual({ [HUMAN]: [roomId] });
  });

  it("long-polls: a message sent while the bot waits arrives, and the bot's reply, edit and redaction show as a person sees them", async () => {
    const roomId = await sharedRoom();
    const incoming = nextEvent(roomId, (ev) => ev.getSender() === HUMAN && ev.getType() === "m.room.message");
    const sentId = fake.sendMessage(HUMAN, roomId, "hello bot", { mentions: [BOT] });
    const ev = await incoming;
    expect(ev.getId()).toBe(sentId);
    expect(ev.getContent()["m.mentions"]).toEqual({ user_ids: [BOT] });

    await bot.sendTyping(roomId, true, 10_000);
    expect(fake.typing(roomId)).toEqual([BOT]);
    await bot.sendReadReceipt(ev);
    expect(fake.receipts(roomId)[BOT]).toBe(sentId);
    const { event_id: draft } = await bot.sendMessage(roomId, { msgtype: "m.text", body: "draft" } as never);
    await bot.sendMessage(roomId, {
      msgtype: "m.text",
      body: "* final",
      "m.new_content": { msgtype: "m.text", body: "final" },
      "m.relates_to": { rel_type: "m.replace", event_id: draft },
    } as never);
    const { event_id: stale } = await bot.sendMessage(roomId, { msgtype: "m.notice", body: "stale preview" } as never);
    await bot.redactEvent(roomId, stale);
    await bot.sendTyping(roomId, false, 0);

    expect(fake.visibleText(roomId)).toBe("hello bot\nfinal");
    expect(fake.visibleText(roomId, { sender: BOT })).toBe("final");
    expect(fake.timeline(roomId).find((m) => m.eventId === draft)).toMatchObject({ edits: 1, body: "final" });
    expect(fake.sent.filter((s) => s.userId === BOT).map((s) => s.type)).toEqual([
      "m.room.member",
      "m.room.message",
      "m.room.message",
      "m.room.message",
      "m.room.redaction",
    ]);
    expect(fake.typing(roomId)).toEqual([]);
    // The bot's own client shows the redaction too.
    await fake.waitFor(() => bot.getRoom(roomId)?.findEventById(stale)?.isRedacted());
  });

  it("answers 429 M_LIMIT_EXCEEDED with retry_after_ms, which the SDK waits out before sending once", async () => {
    const roomId = await sharedRoom();
    fake.rateLimitNext(2, 200);
    const started = Date.now();
    const { event_id } = await bot.sendMessage(roomId, { msgtype: "m.text", body: "patient" } as never);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    const sends = fake.requests.filter((r) => r.path.includes("/send/m.room.message/"));
    expect(sends.map((r) => r.status)).toEqual([429, 429, 200]);
    expect(
      fake
        .timeline(roomId)
        .filter((m) => m.body === "patient")
        .map((m) => m.eventId),
    ).toEqual([event_id]);
  });

  it("delays writes with slowSends", async () => {
    const roomId = await sharedRoom();
    fake.slowSends(300);
    const started = Date.now();
    await bot.sendMessage(roomId, { msgtype: "m.text", body: "slow" } as never);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    fake.slowSends(0);
  });

  it("drops syncs, and the SDK reconnects without losing the message sent meanwhile", async () => {
    const roomId = await sharedRoom();
    fake.dropSyncs(2);
    const incoming = nextEvent(roomId, (ev) => ev.getType() === "m.room.message");
    fake.sendMessage(HUMAN, roomId, "sent during the outage");
    expect((await incoming).getContent().body).toBe("sent during the outage");
    expect(fake.requests.filter((r) => r.path.endsWith("/sync") && r.status === -1).length).toBe(2);
  }, 30_000);

  it("delivers injected malformed events as they are, and later messages still arrive", async () => {
    const roomId = await sharedRoom();
    fake.injectEvent(roomId, { type: "m.room.message", sender: HUMAN, event_id: "$no-content", origin_server_ts: Date.now() });
    fake.injectEvent(roomId, { type: "m.room.message", sender: HUMAN, event_id: "$bad-body", content: { msgtype: "m.text", body: 42 } });
    const incoming = nextEvent(roomId, (ev) => ev.getContent().body === "after");
    fake.sendMessage(HUMAN, roomId, "after");
    await incoming;
    expect(fake.events(roomId).find((e) => e.event_id === "$no-content")?.content).toBeUndefined();
    expect(bot.getRoom(roomId)?.findEventById("$bad-body")?.getContent().body).toBe(42);
  });

  it("stores uploads and serves them back to an authenticated download", async () => {
    const bytes = Buffer.from("not really a png");
    const { content_uri } = await bot.uploadContent(bytes, { name: "x.png", type: "image/png" });
    expect(fake.media(content_uri)).toEqual(bytes);
    const url = bot.mxcUrlToHttp(content_uri, undefined, undefined, undefined, false, true, true)!;
    const res = await fetch(url, { headers: { authorization: `Bearer ${bot.getAccessToken()}` } });
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await res.arrayBuffer())).toEqual(bytes);
  });

  it("carries an unencrypted createMatrixHuman, whose DM the bot receives", async () => {
    const session = await fake.registerUser("element");
    const human = await createMatrixHuman({ baseUrl: fake.baseUrl, ...session, encryption: false });
    try {
      const roomId = await human.createDm(BOT);
      expect(fake.accountData(session.userId, "m.direct")).toEqual({ [BOT]: [roomId] });
      await fake.waitFor(() => bot.getRoom(roomId)?.getMyMembership() === "invite");
      await bot.joinRoom(roomId);
      const incoming = nextEvent(roomId, (ev) => ev.getSender() === session.userId && ev.getType() === "m.room.message");
      await human.send(roomId, "hi from element");
      expect((await incoming).getContent().body).toBe("hi from element");
      await bot.sendMessage(roomId, { msgtype: "m.text", body: "hi human" } as never);
      expect((await human.waitForMessage(roomId, (m) => m.sender === BOT)).body).toBe("hi human");
    } finally {
      await human.stop();
    }
  });
});
