import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FakeQQBot } from "../index.js";
import { startFakeQQBot } from "../index.js";
import { api, GatewayClient, token } from "./__fixtures__/bot-client.js";

let fake: FakeQQBot;
let tok: string;
const clients: GatewayClient[] = [];

async function connect(t = tok): Promise<GatewayClient> {
  const client = await GatewayClient.open(fake, t);
  clients.push(client);
  return client;
}

/** A connected, identified bot; returns the client and its session id. */
async function readyBot(): Promise<{ client: GatewayClient; sessionId: string }> {
  const client = await connect();
  const ready = await client.ready(tok);
  return { client, sessionId: ready.d.session_id };
}

beforeEach(async () => {
  fake = await startFakeQQBot({ heartbeatIntervalMs: 10_000 });
  tok = await token(fake);
});

afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await fake.close();
});

describe("fake QQ Bot: Resume", () => {
  it("replays the dispatches after the client's seq, then RESUMED, after a drop without close frame", async () => {
    const { client, sessionId } = await readyBot();
    const first = fake.userSendsC2C({ openid: "U1", content: "one" });
    const seen = await client.dispatch("C2C_MESSAGE_CREATE");
    expect(seen.d.id).toBe(first);
    fake.dropSocket();
    expect((await client.waitClosed()).code).toBe(1006);
    await fake.waitFor(() => !fake.gateway.connected);
    const missed = [fake.userSendsC2C({ openid: "U1", content: "two" }), fake.userSendsC2C({ openid: "U1", content: "three" })];

    const again = await connect();
    await again.frame((f) => f.op === 10);
    again.resume(tok, sessionId, seen.s!);
    const resumed = await again.dispatch("RESUMED");
    const replayed = again.frames.filter((f) => f.t === "C2C_MESSAGE_CREATE");
    expect(replayed.map((f) => f.d.id)).toEqual(missed);
    expect(replayed.map((f) => f.s)).toEqual([seen.s! + 1, seen.s! + 2]);
    expect(resumed.s).toBe(seen.s! + 3);
    expect(fake.gateway).toMatchObject({ resumes: 1, identifies: 1, connections: 2, connected: true });

    const later = fake.userSendsC2C({ openid: "U1", content: "four" });
    expect((await again.frame((f) => f.d?.id === later)).s).toBe(seen.s! + 4);
  });

  it("refuses a Resume of an unknown session with op 9 d:false and a seq from the future with 4007", async () => {
    const { client, sessionId } = await readyBot();
    client.close();
    const wrong = await connect();
    await wrong.frame((f) => f.op === 10);
    wrong.resume(tok, "no-such-session", 1);
    expect((await wrong.frame((f) => f.op === 9)).d).toBe(false);
    const future = await connect();
    await future.frame((f) => f.op === 10);
    future.resume(tok, sessionId, 99);
    expect((await future.waitClosed()).code).toBe(4007);
    expect(fake.gateway.resumes).toBe(0);
  });
});

describe("fake QQ Bot: socket faults", () => {
  it("sendReconnect sends op 7", async () => {
    const { client } = await readyBot();
    fake.sendReconnect();
    await client.frame((f) => f.op === 7);
  });

  it.each([false, true])("invalidateSession(%s) sends op 9 with that d; only a resumable session resumes", async (resumable) => {
    const { client, sessionId } = await readyBot();
    fake.invalidateSession(resumable);
    expect((await client.frame((f) => f.op === 9)).d).toBe(resumable);
    client.close();
    const again = await connect();
    await again.frame((f) => f.op === 10);
    again.resume(tok, sessionId, 1);
    if (resumable) {
      await again.dispatch("RESUMED");
      return;
    }
    expect((await again.frame((f) => f.op === 9)).d).toBe(false);
    again.identify(tok);
    expect((await again.dispatch("READY")).d.session_id).not.toBe(sessionId);
  });

  it("closeSocket sends the close code and reason", async () => {
    const { client } = await readyBot();
    fake.closeSocket(4900, "internal");
    expect(await client.waitClosed()).toEqual({ code: 4900, reason: "internal" });
    await fake.waitFor(() => !fake.gateway.connected);
  });

  it("expireTokens closes the socket with 4004 and refuses the old token on REST; a new token works", async () => {
    const { client } = await readyBot();
    fake.expireTokens();
    expect((await client.waitClosed()).code).toBe(4004);
    expect((await api(fake, tok, "GET", "/gateway")).status).toBe(401);
    const fresh = await token(fake);
    expect((await api(fake, fresh, "GET", "/gateway")).status).toBe(200);
  });
});

describe("fake QQ Bot: failNext and waitFor", () => {
  it("fails the next matching requests count times, then answers normally", async () => {
    fake.failNext({ method: "POST", pathIncludes: "/messages", count: 2, status: 500, body: { code: 9, message: "boom" } });
    const msgId = fake.userSendsC2C({ openid: "U1", content: "hi" });
    expect((await api(fake, tok, "GET", "/gateway")).status).toBe(200);
    const send = (seq: number) =>
      api(fake, tok, "POST", "/v2/users/U1/messages", { content: "x", msg_type: 0, msg_id: msgId, msg_seq: seq });
    expect(await send(1)).toEqual({ status: 500, body: { code: 9, message: "boom" } });
    expect((await send(2)).status).toBe(500);
    expect((await send(3)).status).toBe(200);
    expect(fake.passiveRepliesUsed(msgId)).toBe(1);
    fake.failNext({ status: 503 });
    expect(await api(fake, tok, "GET", "/gateway")).toEqual({ status: 503, body: { code: 503, message: "injected failure" } });
    expect(fake.calls.filter((c) => c.status >= 500)).toHaveLength(3);
  });

  it("waitFor re-checks on every change and times out naming the last calls", async () => {
    const waiting = fake.waitFor(() => fake.c2cMessages("U1")[0]);
    const msgId = fake.userSendsC2C({ openid: "U1", content: "hi" });
    await api(fake, tok, "POST", "/v2/users/U1/messages", { content: "answer", msg_type: 0, msg_id: msgId, msg_seq: 1 });
    expect((await waiting).content).toBe("answer");
    await expect(fake.waitFor(() => false, 30)).rejects.toThrow(
      /timed out after 30 ms; last calls: .*POST \/v2\/users\/U1\/messages -> 200/,
    );
  });
});
