import { afterEach, describe, expect, it } from "vitest";
import type { FakeQQBot, FakeQQBotOptions } from "../index.js";
import { startFakeQQBot } from "../index.js";
import { api, GatewayClient, getToken, token } from "./__fixtures__/bot-client.js";

let fake: FakeQQBot;
const clients: GatewayClient[] = [];

async function start(options: FakeQQBotOptions = {}): Promise<FakeQQBot> {
  fake = await startFakeQQBot({ heartbeatIntervalMs: 10_000, ...options });
  return fake;
}

async function connect(tok: string): Promise<GatewayClient> {
  const client = await GatewayClient.open(fake, tok);
  clients.push(client);
  return client;
}

afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await fake?.close();
});

describe("fake QQ Bot: token and REST auth", () => {
  it("issues a token for the right secret, with expires_in as a string", async () => {
    await start();
    const { status, body } = await getToken(fake);
    expect(status).toBe(200);
    expect(body.expires_in).toBe("7200");
    expect(typeof body.access_token).toBe("string");
    const gateway = await api(fake, body.access_token, "GET", "/gateway");
    expect(gateway).toEqual({ status: 200, body: { url: `${fake.apiBase.replace("http", "ws")}/websocket` } });
  });

  it("refuses a wrong secret", async () => {
    await start();
    const { status, body } = await getToken(fake, "wrong");
    expect(status).toBe(401);
    expect(body.code).toBe(100016);
  });

  it("refuses REST calls without a token, with an unknown token and with a run-out token", async () => {
    await start({ tokenTtlSeconds: 0 });
    const runOut = await token(fake);
    for (const tok of [undefined, "nope", runOut]) {
      const res = await api(fake, tok, "GET", "/gateway");
      expect(res).toEqual({ status: 401, body: { code: 11244, message: "token not exist or expire" } });
    }
  });

  it("records every request in calls", async () => {
    await start();
    const tok = await token(fake);
    await api(fake, tok, "GET", "/gateway");
    await api(fake, undefined, "GET", "/gateway");
    expect(fake.calls.map((c) => [c.method, c.path, c.status])).toEqual([
      ["POST", "/app/getAppAccessToken", 200],
      ["GET", "/gateway", 200],
      ["GET", "/gateway", 401],
    ]);
    expect(fake.calls[0]!.body).toEqual({ appId: fake.appId, clientSecret: fake.clientSecret });
  });
});

describe("fake QQ Bot: gateway session", () => {
  it("says Hello, answers Identify with READY and heartbeats with ACKs", async () => {
    await start({ heartbeatIntervalMs: 1234 });
    const tok = await token(fake);
    const client = await connect(tok);
    expect((await client.frame((f) => f.op === 10)).d).toEqual({ heartbeat_interval: 1234 });
    client.identify(tok);
    const ready = await client.dispatch("READY");
    expect(ready.s).toBe(1);
    expect(ready.d).toMatchObject({ version: 1, user: { id: fake.bot.id, bot: true }, shard: [0, 1] });
    expect(fake.gateway).toMatchObject({ identifies: 1, connections: 1, connected: true, lastSessionId: ready.d.session_id });
    client.send({ op: 1, d: 1 });
    await client.frame((f) => f.op === 11);
  });

  it("closes a socket that stops heartbeating with 4009", async () => {
    await start({ heartbeatIntervalMs: 40 });
    const tok = await token(fake);
    const client = await connect(tok);
    await client.ready(tok);
    expect((await client.waitClosed()).code).toBe(4009);
    await fake.waitFor(() => !fake.gateway.connected);
  });

  it("closes with 4004 for a bad token, 4013 for bad intents, 4002 for junk, 4001 for an unknown op", async () => {
    await start();
    const tok = await token(fake);
    const cases: [(c: GatewayClient) => void, number][] = [
      (c) => c.identify("bad"),
      (c) => c.identify(tok, "all"),
      (c) => c.send("{not json"),
      (c) => c.send({ op: 42 }),
    ].map((act, i) => [act, [4004, 4013, 4002, 4001][i]!]);
    for (const [act, code] of cases) {
      const client = await connect(tok);
      await client.frame((f) => f.op === 10);
      act(client);
      expect((await client.waitClosed()).code).toBe(code);
    }
    expect(fake.gateway.identifies).toBe(0);
  });

  it("dispatches the five event kinds with rising s, in the platform's shapes", async () => {
    await start();
    const tok = await token(fake);
    const client = await connect(tok);
    await client.ready(tok);
    const ids = [
      fake.userSendsC2C({ openid: "U1", content: "hi", attachments: [{ content_type: "image/png", url: "http://x/a.png" }] }),
      fake.userSendsGroupAt({ groupOpenid: "G1", memberOpenid: "M1", content: "hello" }),
      fake.userSendsGroup({ groupOpenid: "G1", memberOpenid: "M2", content: "chat" }),
      fake.userSendsGuildAt({ channelId: "C1", guildId: "GD1", authorId: "A1", content: "yo" }),
      fake.userSendsDirect({ guildId: "GD2", authorId: "A2", content: "dm" }),
    ];
    const c2c = await client.dispatch("C2C_MESSAGE_CREATE");
    expect(c2c.d).toMatchObject({ id: ids[0], content: "hi", author: { user_openid: "U1" }, attachments: [{ url: "http://x/a.png" }] });
    const groupAt = await client.dispatch("GROUP_AT_MESSAGE_CREATE");
    expect(groupAt.d).toMatchObject({ id: ids[1], content: " hello", group_openid: "G1", author: { member_openid: "M1", bot: false } });
    const group = await client.dispatch("GROUP_MESSAGE_CREATE");
    expect(group.d).toMatchObject({ id: ids[2], content: "chat", group_openid: "G1", author: { member_openid: "M2" } });
    const guildAt = await client.dispatch("AT_MESSAGE_CREATE");
    expect(guildAt.d).toMatchObject({
      id: ids[3],
      content: `<@!${fake.bot.id}> yo`,
      channel_id: "C1",
      guild_id: "GD1",
      author: { id: "A1" },
    });
    const direct = await client.dispatch("DIRECT_MESSAGE_CREATE");
    expect(direct.d).toMatchObject({ id: ids[4], content: "dm", guild_id: "GD2", author: { id: "A2" } });
    expect([c2c, groupAt, group, guildAt, direct].map((f) => f.s)).toEqual([2, 3, 4, 5, 6]);
  });

  it("delivers messages sent before the bot identified after READY", async () => {
    await start();
    const id = fake.userSendsC2C({ openid: "U1", content: "early" });
    const tok = await token(fake);
    const client = await connect(tok);
    await client.ready(tok);
    expect((await client.dispatch("C2C_MESSAGE_CREATE")).d.id).toBe(id);
  });
});
