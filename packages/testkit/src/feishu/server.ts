import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { listenOnLoopback, trackSockets } from "../net/listen.js";
import { createWaiters } from "../telegram/waiters.js";
import { CardKit } from "./cardkit.js";
import type { FeishuAnswer } from "./envelope.js";
import { type EventContext, envelope, messageReceiveEvent } from "./events.js";
import { FailPlan } from "./faults.js";
import { readBody } from "./http-body.js";
import { LONG_CONNECTION_PATH, LongConnections } from "./long-connection.js";
import { route, type RouteContext } from "./routes.js";
import { FeishuStore } from "./store.js";
import { TokenIssuer } from "./tokens.js";
import type { FakeFeishu, FakeFeishuCall, FakeFeishuOptions, FakeFeishuUserMessage, FakeFeishuWebhookKeys } from "./types.js";
import { visibleText } from "./visible.js";
import { postEncrypted, urlVerificationBody } from "./webhook.js";

function send(res: ServerResponse, answer: FeishuAnswer): void {
  if (res.destroyed || res.writableEnded) return;
  const payload = answer.bytes ? Buffer.from(answer.bytes) : Buffer.from(JSON.stringify(answer.body));
  res.writeHead(answer.status, {
    "content-type": "application/json; charset=utf-8",
    ...answer.headers,
    "content-length": payload.byteLength,
  });
  res.end(payload);
}

/** The p2p chat between the bot and a user: "oc_dm_<openId>". */
export function dmChatId(openId: string): string {
  return `oc_dm_${openId}`;
}

/**
 * Starts a fake Feishu Open Platform on 127.0.0.1 (a free port), for the real
 * `@larksuiteoapi/node-sdk` `Client` and `WSClient` with `domain: fake.baseUrl`:
 * tenant_access_token, bot info, IM messages (create, reply, edit, recall, get), reactions, image
 * and file upload and download, CardKit card entities (strictly rising `sequence`), the
 * long-connection bootstrap and its protobuf WebSocket, and signed, encrypted webhook pushes.
 * Answers use Feishu's `{code, msg, data}` envelope; every HTTP request is recorded in `calls`.
 */
export async function startFakeFeishu(options: FakeFeishuOptions = {}): Promise<FakeFeishu> {
  const appId = options.appId ?? "cli_a1b2c3d4e5f60718";
  const appSecret = options.appSecret ?? "fake-feishu-secret";
  const bot = { openId: options.botOpenId ?? "ou_fakebot0000000000000000000000", name: options.botName ?? "FakeFeishuBot" };
  const clock = options.clock ?? Date.now;
  const store = new FeishuStore(clock);
  const cards = new CardKit(clock);
  const tokens = new TokenIssuer(appId, appSecret, options.tokenTtlSeconds ?? 7200, clock);
  const waiters = createWaiters();
  const fails = new FailPlan();
  const calls: FakeFeishuCall[] = [];
  const events = new Map<string, object>();
  const longConnections = new LongConnections({
    appId,
    appSecret,
    clientConfig: {
      pingIntervalSeconds: 120,
      reconnectCount: -1,
      reconnectIntervalSeconds: 0.1,
      reconnectNonceSeconds: 0,
      ...options.clientConfig,
    },
    maxFramePayloadBytes: options.maxFramePayloadBytes ?? 65_536,
    clock,
    notify: () => waiters.notify(),
  });
  let port = 0;
  /** open_id -> the p2p chat a test named for that user (else `dmChatId(openId)`). */
  const dmChats = new Map<string, string>();
  const dmChatOf = (openId: string) => dmChats.get(openId) ?? dmChatId(openId);
  const ctx: RouteContext = {
    store,
    cards,
    appId,
    dmChatId: dmChatOf,
    sentUuids: new Map(),
    tokens,
    longConnections,
    port: () => port,
    bot,
  };
  const eventContext: EventContext = { appId, verificationToken: options.verificationToken ?? "", store, clock, dmChatId: dmChatOf };
  function eventOf(msg: FakeFeishuUserMessage) {
    if ((msg.chatType ?? "p2p") === "p2p" && msg.chatId) dmChats.set(msg.openId, msg.chatId);
    return messageReceiveEvent(eventContext, msg);
  }
  let closed = false;

  const server = createServer({ noDelay: true }, (req, res) => {
    void serve(req, res).catch((error: unknown) =>
      send(res, { status: 500, body: { code: 500, msg: `fake Feishu internal error: ${String(error)}` } }),
    );
  });
  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const method = req.method ?? "GET";
    const path = req.url ?? "/";
    const url = new URL(path, "http://127.0.0.1");
    const answer =
      fails.take(path) ??
      route(ctx, { method, pathname: url.pathname, query: url.searchParams, authorization: req.headers.authorization, body });
    const code = (answer.body as { code?: number } | undefined)?.code;
    calls.push({
      method,
      path,
      body: body.json ?? (Object.keys(body.fields).length ? body.fields : undefined),
      status: answer.status,
      code,
      at: clock(),
    });
    send(res, answer);
    waiters.notify();
  }
  server.on("upgrade", (req, socket, head) => {
    if (new URL(req.url ?? "/", "http://127.0.0.1").pathname === LONG_CONNECTION_PATH) longConnections.upgrade(req, socket, head);
    else socket.destroy();
  });
  const sockets = trackSockets(server);
  port = await listenOnLoopback(server);

  async function deliver(eventId: string, event: object): Promise<void> {
    events.set(eventId, event);
    await longConnections.deliver(eventId, event);
  }

  function withToken(event: object, keys: FakeFeishuWebhookKeys): object {
    const copy = structuredClone(event) as { header?: { token?: string } };
    if (copy.header) copy.header.token = keys.verificationToken;
    return copy;
  }

  const fake: FakeFeishu = {
    baseUrl: `http://127.0.0.1:${port}`,
    appId,
    appSecret,
    botOpenId: bot.openId,
    botName: bot.name,
    async userSends(msg) {
      const { event, eventId, messageId } = eventOf(msg);
      await deliver(eventId, event);
      return { eventId, messageId };
    },
    async redeliver(eventId) {
      const event = events.get(eventId);
      if (!event) throw new Error(`fake Feishu: no event ${eventId} was sent, so none can be redelivered`);
      await longConnections.deliver(eventId, event);
    },
    async pushEvent(event) {
      const eventId = (event as { header?: { event_id?: string } }).header?.event_id ?? randomBytes(16).toString("hex");
      await deliver(eventId, event);
    },
    wrapEvent: (eventType, event) => envelope(eventContext, eventType, event as Record<string, unknown>),
    pushWebhook: (url, event, keys, opts) =>
      postEncrypted(url, withToken(event, keys), keys, clock(), opts?.badSignature ? "bad" : "valid"),
    async pushUrlVerification(url, keys) {
      const challenge = randomBytes(16).toString("hex");
      const response = await postEncrypted(url, urlVerificationBody(challenge, keys), keys, clock(), "none");
      return { response, challenge };
    },
    eventFor(msg) {
      const { event, eventId } = eventOf(msg);
      events.set(eventId, event);
      return event;
    },
    messages: (chatId) => store.inChat(chatId).map((m) => ({ ...m })),
    message: (messageId) => {
      const m = store.get(messageId);
      return m ? { ...m } : undefined;
    },
    visibleText: (chatId) => visibleText(store.inChat(chatId), cards),
    cards: () => cards.list(),
    reactions: (messageId) => store.reactions(messageId),
    uploads: () => store.uploads.map((u) => ({ ...u, fields: { ...u.fields } })),
    acks: () => longConnections.acks.map((a) => ({ ...a })),
    calls,
    waitFor: (predicate, timeoutMs) => waiters.waitFor(predicate, timeoutMs, () => describeCalls(calls)),
    failNext: (path, response, times) => fails.add(path, response, times),
    dropConnections: () => longConnections.dropAll(),
    refuseConnections: (times, code) => longConnections.refuse(times, code),
    connections: () => longConnections.count(),
    connectionsOpened: () => longConnections.opened,
    expireTokens: () => tokens.expireAll(),
    async close() {
      if (closed) return;
      closed = true;
      longConnections.close();
      for (const socket of sockets) socket.destroy();
      waiters.rejectAll(new Error("fake Feishu closed"));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}

function describeCalls(calls: readonly FakeFeishuCall[]): string {
  const recent = calls.slice(-8).map((c) => `${c.method} ${c.path} -> ${c.status}${c.code ? ` (${c.code})` : ""}`);
  return `last calls: ${recent.length ? recent.join(", ") : "none"}`;
}
