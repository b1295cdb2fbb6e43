// A Matrix account against the fake homeserver of @openclaw/testkit, through matrix-js-sdk's real
// /sync: what is answered at the first start and after a restart, dropped syncs, invites by
// autoJoin, room aliases in groups and streaming.rooms, media, and the status it reports.
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SYNC_FILE } from "../src/index.js";
import { BOT, connectBot, eventually, type FakeWorld, type RunningBot, startWorld } from "./fake-homeserver.js";

let world: FakeWorld;
const bots: RunningBot[] = [];

async function start(extra: Record<string, unknown> = {}, credentialsDir?: string): Promise<RunningBot> {
  const bot = await connectBot({ ...world.config, ...extra }, credentialsDir ? { credentialsDir } : {});
  bots.push(bot);
  return bot;
}
const texts = (bot: RunningBot) => bot.ctx.received.map((m) => m.text);

afterEach(async () => {
  for (const bot of bots.splice(0)) await bot.stop().catch(() => undefined);
  await world?.close();
});

describe("connect and sync", () => {
  it("the first sync answers no history; a new message arrives once; status names the device and encryption", async () => {
    world = await startWorld();
    const alice = await world.person("alice");
    const roomId = await world.roomWithBot(alice, { isDirect: true });
    world.fake.sendMessage(alice, roomId, "an old message from before the bot ran");

    const bot = await start();
    expect(bot.ctx.statuses.at(-1)).toMatchObject({
      state: "connected",
      identity: BOT,
      details: { device: expect.stringMatching(/\S/), encryption: "off" },
    });
    world.fake.sendMessage(alice, roomId, "hello bot");
    await eventually(() => bot.ctx.received.length === 1, "the new message");
    expect(bot.ctx.received[0]).toMatchObject({ chat: { kind: "direct", id: roomId }, sender: { id: alice }, text: "hello bot" });
    // The next batch is fetched only after the message was recorded; nothing more arrives.
    const after = world.fake.requests.length;
    await world.fake.waitFor(() => world.fake.requests.slice(after).some((r) => r.path.endsWith("/sync") && r.userId === BOT));
    expect(texts(bot)).toEqual(["hello bot"]);
  });

  it("a restart neither replays what was answered nor loses what arrived while it was down", async () => {
    world = await startWorld();
    const alice = await world.person("alice");
    const roomId = await world.roomWithBot(alice, { isDirect: true });
    const first = await start();
    world.fake.sendMessage(alice, roomId, "before the restart");
    await eventually(() => first.ctx.received.length === 1, "the first message");
    await first.stop();
    expect(existsSync(path.join(first.ctx.credentialsDir, SYNC_FILE))).toBe(true);

    world.fake.sendMessage(alice, roomId, "while it was down, one");
    world.fake.sendMessage(alice, roomId, "while it was down, two");
    const second = await start({}, first.ctx.credentialsDir);
    await eventually(() => second.ctx.received.length === 2, "the two messages sent while it was down");
    world.fake.sendMessage(alice, roomId, "after the restart");
    await eventually(() => second.ctx.received.length === 3, "the message after the restart");
    expect(texts(second)).toEqual(["while it was down, one", "while it was down, two", "after the restart"]);
  });

  it("dropped syncs: the account reconnects and every message arrives exactly once", async () => {
    world = await startWorld();
    const alice = await world.person("alice");
    const roomId = await world.roomWithBot(alice, { isDirect: true });
    const bot = await start();
    await world.fake.waitFor(() => world.fake.requests.some((r) => r.path.endsWith("/sync") && r.status === 0));
    world.fake.dropSyncs(2);
    world.fake.sendMessage(alice, roomId, "sent while the sync was cut");
    await eventually(() => bot.ctx.received.length === 1, "the message after the dropped syncs", 20_000);
    world.fake.sendMessage(alice, roomId, "and one more");
    await eventually(() => bot.ctx.received.length === 2, "the next message", 20_000);
    expect(texts(bot)).toEqual(["sent while the sync was cut", "and one more"]);
    expect(world.fake.requests.filter((r) => r.status === -1).length).toBeGreaterThanOrEqual(1);
    expect(bot.ctx.statuses.at(-1)?.state).not.toBe("reconnecting");
  }, 30_000);
});

describe("invites by autoJoin", () => {
  it('"off" (the default) joins nothing; "allowlist" joins invites of listed inviters; "always" joins and records a DM', async () => {
    world = await startWorld();
    const alice = await world.person("alice");
    const mallory = await world.person("mallory");

    const off = await start();
    const ignored = world.fake.createRoom(alice, { invite: [BOT] });
    await eventually(() => off.ctx.logs.some((l) => l.includes(`not joining ${ignored}`)), "the invite to be left");
    expect(world.fake.membership(ignored, BOT)).toBe("invite");
    await off.stop();

    const listed = await start({ autoJoin: "allowlist", autoJoinAllowlist: [alice] });
    const fromAlice = world.fake.createRoom(alice, { invite: [BOT] });
    const fromMallory = world.fake.createRoom(mallory, { invite: [BOT] });
    await world.fake.waitFor(() => world.fake.membership(fromAlice, BOT) === "join");
    await eventually(() => listed.ctx.logs.some((l) => l.includes(`not joining ${fromMallory}`)), "mallory's invite to be left");
    expect(world.fake.membership(fromMallory, BOT)).toBe("invite");
    await listed.stop();

    await start({ autoJoin: "always" });
    const dm = world.fake.createRoom(mallory, { invite: [BOT], isDirect: true });
    await world.fake.waitFor(() => world.fake.membership(dm, BOT) === "join");
    await world.fake.waitFor(() =>
      (world.fake.accountData(BOT, "m.direct") as Record<string, string[]> | undefined)?.[mallory]?.includes(dm),
    );
    // The invite the "off" run left is joined now too.
    await world.fake.waitFor(() => world.fake.membership(ignored, BOT) === "join");
  }, 30_000);
});

describe("room aliases as config keys", () => {
  it("a #alias key of groups and streaming.rooms applies to its room, also one created after the bot connected", async () => {
    world = await startWorld();
    const alice = await world.person("alice");
    const ops = (await world.api(alice, "POST", "/createRoom", { room_alias_name: "ops", invite: [BOT] })).room_id as string;
    world.fake.join(BOT, ops);
    const bot = await start({
      groups: { "#ops:fake.test": { requireMention: false }, "#later:fake.test": {} },
      streaming: { mode: "off", rooms: { "#ops:fake.test": { mode: "partial" } } },
      autoJoin: "always",
    });
    expect(bot.ctx.logs).toContainEqual(expect.stringMatching(/room alias #later:fake\.test .* does not resolve/));

    world.fake.sendMessage(alice, ops, "no mention needed here");
    const inOps = await eventually(() => bot.ctx.received[0], "the message in #ops");
    expect(inOps.chat).toMatchObject({ kind: "group", id: ops, aliases: ["#ops:fake.test"] });
    expect(bot.session.streamingFor?.(inOps.chat)).toMatchObject({ mode: "partial" });
    expect(bot.session.streamingFor?.({ kind: "group", id: "!elsewhere:fake.test" })).toBeUndefined();

    // An alias made later is found when the bot joins a room.
    const later = (await world.api(alice, "POST", "/createRoom", { room_alias_name: "later", invite: [BOT] })).room_id as string;
    await world.fake.waitFor(() => world.fake.membership(later, BOT) === "join");
    await eventually(() => bot.ctx.logs.some((l) => l.includes(`room alias #later:fake.test is ${later}`)), "the alias to resolve");
    world.fake.sendMessage(alice, later, "in the later room");
    const inLater = await eventually(() => bot.ctx.received.find((m) => m.chat.id === later), "the message in #later");
    expect(inLater.chat.aliases).toEqual(["#later:fake.test"]);
  }, 20_000);
});

describe("media", () => {
  it("an image a person sends arrives with its mxc:// id, and downloadMedia returns its bytes", async () => {
    world = await startWorld();
    const alice = await world.person("alice");
    const roomId = await world.roomWithBot(alice, { isDirect: true });
    const bot = await start();
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4, 5]);
    const mxc = (await world.api(alice, "POST", "/upload?filename=cat.png", bytes, "image/png")).content_uri as string;
    world.fake.sendMessage(alice, roomId, {
      msgtype: "m.image",
      body: "cat.png",
      url: mxc,
      info: { mimetype: "image/png", size: bytes.length },
    });
    const message = await eventually(() => bot.ctx.received[0], "the image");
    expect(message.media).toEqual([expect.objectContaining({ kind: "image", fileId: mxc, mimeType: "image/png" })]);
    expect(new Uint8Array(await bot.session.downloadMedia(mxc))).toEqual(bytes);
  });
});
