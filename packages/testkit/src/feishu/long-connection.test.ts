import { afterEach, describe, expect, it } from "vitest";
import { type FakeFeishu, startFakeFeishu } from "./index.js";
import { Lark, quiet, sdkLongConnection } from "./__fixtures__/sdk.js";

let fake: FakeFeishu;
const clients: Array<{ close(): void }> = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await fake?.close();
});

function connect(handler?: (event: Record<string, unknown>) => unknown) {
  const client = sdkLongConnection(fake, handler);
  clients.push(client);
  return client;
}

describe("fake Feishu: the real WSClient on the long connection", () => {
  it("connects through the bootstrap, receives a text message and acks it", async () => {
    fake = await startFakeFeishu();
    const client = connect();
    await fake.waitFor(() => fake.connections() === 1);
    const { eventId, messageId } = await fake.userSends({ openId: "ou_alice", text: "hello bot" });
    await fake.waitFor(() => client.received.length === 1);
    const event = client.received[0] as {
      event_id: string;
      message: { message_id: string; chat_type: string; message_type: string; content: string };
      sender: { sender_id: { open_id: string } };
    };
    expect(event.event_id).toBe(eventId);
    expect(event.message).toMatchObject({ message_id: messageId, chat_type: "p2p", message_type: "text" });
    expect(JSON.parse(event.message.content)).toEqual({ text: "hello bot" });
    expect(event.sender.sender_id.open_id).toBe("ou_alice");
    const acks = await fake.waitFor(() => fake.acks().length === 1 && fake.acks());
    expect(acks.map((a) => [a.eventId, a.code])).toEqual([[eventId, 200]]);
  });

  it("records a failed handler's ack as 500", async () => {
    fake = await startFakeFeishu();
    connect(() => {
      throw new Error("handler broke");
    });
    const { eventId } = await fake.userSends({ openId: "ou_alice", text: "boom" });
    const acks = await fake.waitFor(() => fake.acks().length === 1 && fake.acks());
    expect(acks.map((a) => [a.eventId, a.code])).toEqual([[eventId, 500]]);
  });

  it("refuses a group message without a chat id", async () => {
    fake = await startFakeFeishu();
    await expect(fake.userSends({ openId: "ou_alice", chatType: "group", text: "where?" })).rejects.toThrow(/needs a chatId/);
  });

  it("keeps an event sent while no connection is open and delivers it when one opens", async () => {
    fake = await startFakeFeishu();
    const { eventId } = await fake.userSends({ openId: "ou_alice", text: "early" });
    const client = connect();
    await fake.waitFor(() => client.received.length === 1);
    expect(client.received[0]!.event_id).toBe(eventId);
  });

  it("splits a large event into sum/seq frames the client merges", async () => {
    fake = await startFakeFeishu({ maxFramePayloadBytes: 256 });
    const client = connect();
    const long = "长".repeat(2000);
    await fake.userSends({ openId: "ou_alice", text: long });
    await fake.waitFor(() => client.received.length === 1);
    expect(JSON.parse((client.received[0]!.message as { content: string }).content).text).toBe(long);
    await fake.waitFor(() => fake.acks().length === 1);
  });

  it("redelivers the same event (same event_id) when asked", async () => {
    fake = await startFakeFeishu();
    const client = connect();
    const { eventId } = await fake.userSends({
      openId: "ou_alice",
      chatType: "group",
      chatId: "oc_g",
      text: "hi",
      mentions: [{ openId: fake.botOpenId, name: "Bot" }],
    });
    await fake.redeliver(eventId);
    await fake.waitFor(() => client.received.length === 2);
    expect(client.received.map((e) => e.event_id)).toEqual([eventId, eventId]);
    const message = client.received[0]!.message as { content: string; mentions: Array<{ key: string; id: { open_id: string } }> };
    expect(JSON.parse(message.content).text).toBe("@_user_1 hi");
    expect(message.mentions.map((m) => [m.key, m.id.open_id])).toEqual([["@_user_1", fake.botOpenId]]);
    expect((await fake.waitFor(() => fake.acks().length === 2 && fake.acks())).map((a) => a.eventId)).toEqual([eventId, eventId]);
  });

  it("pushes any event type wrapped in the schema 2.0 envelope", async () => {
    fake = await startFakeFeishu();
    const received: Array<Record<string, unknown>> = [];
    const client = sdkLongConnection(fake, undefined, {
      "im.message.reaction.created_v1": (data) => {
        received.push(data);
      },
    });
    clients.push(client);
    const event = fake.wrapEvent("im.message.reaction.created_v1", { message_id: "om_1", reaction_type: { emoji_type: "THUMBSUP" } });
    await fake.pushEvent(event);
    await fake.waitFor(() => fake.acks().length === 1);
    expect(received).toMatchObject([{ message_id: "om_1", reaction_type: { emoji_type: "THUMBSUP" } }]);
  });

  it("the client reconnects after dropConnections and gets the next event on the new connection", async () => {
    fake = await startFakeFeishu();
    const client = connect();
    await fake.waitFor(() => fake.connections() === 1);
    fake.dropConnections();
    await fake.waitFor(() => fake.connectionsOpened() === 2 && fake.connections() === 1);
    await fake.userSends({ openId: "ou_alice", text: "after the drop" });
    await fake.waitFor(() => client.received.length === 1);
    expect(JSON.parse((client.received[0]!.message as { content: string }).content).text).toBe("after the drop");
  });

  it("refused bootstraps are retried by the client (at the ClientConfig's interval) until one succeeds", async () => {
    fake = await startFakeFeishu();
    // A first bootstrap must succeed: before it the SDK retries at its built-in 120 s interval.
    connect();
    await fake.waitFor(() => fake.connections() === 1);
    fake.refuseConnections(2);
    fake.dropConnections();
    await fake.waitFor(() => fake.connectionsOpened() === 2 && fake.connections() === 1);
    const bootstraps = fake.calls.filter((c) => c.path === "/callback/ws/endpoint");
    expect(bootstraps.map((c) => c.code)).toEqual([0, 1000040343, 1000040343, 0]);
  });

  it("a refusal with a fatal code makes the WSClient give up and report it", async () => {
    fake = await startFakeFeishu();
    fake.refuseConnections(1, 514);
    let reportError: (e: Error) => void = () => {};
    const reported = new Promise<Error>((resolve) => {
      reportError = resolve;
    });
    const ws = new Lark.WSClient({
      appId: fake.appId,
      appSecret: fake.appSecret,
      domain: fake.baseUrl,
      logger: quiet,
      onError: (e: Error) => reportError(e),
    });
    clients.push({ close: () => ws.close({ force: true }) });
    void ws.start({ eventDispatcher: new Lark.EventDispatcher({ logger: quiet }) });
    expect((await reported).message).toContain("code=514");
    expect(ws.getConnectionStatus().state).toBe("failed");
  });

  it("answers the client's ping with a pong carrying the ClientConfig", async () => {
    fake = await startFakeFeishu({ clientConfig: { pingIntervalSeconds: 0.05 } });
    const { ws } = connect();
    await fake.waitFor(() => fake.connections() === 1);
    // The WSClient takes PingInterval from each pong; a live connection keeps its state "connected".
    await fake.waitFor(() => (ws as unknown as { wsConfig: { getWS(k: string): number } }).wsConfig.getWS("pingInterval") === 50);
    expect(ws.getConnectionStatus().state).toBe("connected");
  });
});
