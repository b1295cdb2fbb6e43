import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createWaiters } from "../telegram/waiters.js";
import { qqError } from "./errors.js";
import { c2cEvent, directEvent, groupEvent, guildAtEvent, type InboundEvent } from "./events.js";
import { FailPlan } from "./faults.js";
import { CLOSE, Gateway } from "./gateway.js";
import { route } from "./routes.js";
import { newId, QQStore } from "./store.js";
import { TokenIssuer } from "./tokens.js";
import type { FakeQQBot, FakeQQBotOptions, FakeQQCall } from "./types.js";
import { listenOnLoopback, trackSockets } from "../net/listen.js";

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed || res.writableEnded) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/**
 * Starts a fake QQ Bot platform on 127.0.0.1 (a free port): the token endpoint
 * (`POST /app/getAppAccessToken`), OpenAPI REST (`GET /gateway`, message, file and stream
 * endpoints, `Authorization: QQBot <token>`) and the WebSocket gateway (`/websocket`), all on one
 * port. Defaults: appId "1020304050", secret "fake-qq-secret", tokens live 7200 s, heartbeat
 * interval 41250 ms, 5 passive replies per msg_id. Every HTTP request is recorded in `calls`.
 */
export async function startFakeQQBot(options: FakeQQBotOptions = {}): Promise<FakeQQBot> {
  const appId = options.appId ?? "1020304050";
  const clientSecret = options.clientSecret ?? "fake-qq-secret";
  const bot = { id: `bot-${appId}`, username: "FakeQQBot" };
  const store = new QQStore(options.passiveReplyLimit ?? 5);
  const tokens = new TokenIssuer(appId, clientSecret, options.tokenTtlSeconds ?? 7200);
  const waiters = createWaiters();
  const fails = new FailPlan();
  const calls: FakeQQCall[] = [];
  const gateway = new Gateway({
    heartbeatIntervalMs: options.heartbeatIntervalMs ?? 41_250,
    bot,
    isValidToken: (token) => tokens.isValid(token),
    notify: () => waiters.notify(),
  });
  let closed = false;

  const server = createServer({ noDelay: true }, (req, res) => {
    void serve(req, res).catch(() => sendJson(res, 500, { code: 500, message: "internal error" }));
  });
  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJson(req);
    const method = req.method ?? "GET";
    const path = req.url ?? "/";
    const pathname = new URL(path, "http://127.0.0.1").pathname;
    const answer =
      fails.take(method, path) ??
      (await route({ store, tokens, gatewayUrl }, method, pathname, req.headers.authorization, body).catch(() =>
        qqError("requestInvalid"),
      ));
    calls.push({ method, path, body, status: answer.status, response: answer.body, at: Date.now() });
    sendJson(res, answer.status, answer.body);
    waiters.notify();
  }
  server.on("upgrade", (req, socket, head) => {
    if (new URL(req.url ?? "/", "http://127.0.0.1").pathname === "/websocket") gateway.upgrade(req, socket, head);
    else socket.destroy();
  });
  const sockets = trackSockets(server);
  const port = await listenOnLoopback(server);
  const apiBase = `http://127.0.0.1:${port}`;
  const gatewayUrl = `ws://127.0.0.1:${port}/websocket`;

  function deliver(event: InboundEvent, id: string): string {
    store.addInbound(id, event.target);
    gateway.dispatch(event.t, event.d);
    return id;
  }

  const fake: FakeQQBot = {
    appId,
    clientSecret,
    apiBase,
    tokenUrl: `${apiBase}/app/getAppAccessToken`,
    bot,
    userSendsC2C(msg) {
      const id = newId();
      return deliver(c2cEvent(id, msg), id);
    },
    userSendsGroupAt(msg) {
      const id = newId();
      return deliver(groupEvent(id, msg, true, bot), id);
    },
    userSendsGroup(msg) {
      const id = newId();
      return deliver(groupEvent(id, msg, false, bot), id);
    },
    userSendsGuildAt(msg) {
      const id = newId();
      return deliver(guildAtEvent(id, msg, bot), id);
    },
    userSendsDirect(msg) {
      const id = newId();
      return deliver(directEvent(id, msg), id);
    },
    c2cMessages: (openid) => store.sentTo(`c2c:${openid}`),
    groupMessages: (groupOpenid) => store.sentTo(`group:${groupOpenid}`),
    channelMessages: (channelId) => store.sentTo(`channel:${channelId}`),
    directMessages: (guildId) => store.sentTo(`dm:${guildId}`),
    streams: (openid) => store.streamsOf(openid),
    typingNotices: (openid) => store.typingCount(openid),
    passiveRepliesUsed: (msgId) => store.passiveUsed(msgId),
    calls,
    gateway: gateway.state,
    waitFor: (predicate, timeoutMs) => waiters.waitFor(predicate, timeoutMs, () => describeCalls(calls)),

    dispatchRaw(t, d) {
      gateway.dispatch(t, d);
    },
    dropSocket() {
      for (const ws of gateway.openSockets()) ws.terminate();
    },
    sendReconnect: () => gateway.sendReconnect(),
    invalidateSession: (resumable) => gateway.invalidateSession(resumable),
    closeSocket(code, reason) {
      for (const ws of gateway.openSockets()) ws.close(code, reason);
    },
    expireTokens() {
      tokens.expireAll();
      for (const ws of gateway.openSockets()) ws.close(CLOSE.badToken, "token expired");
    },
    failNext: (spec) => fails.add(spec),
    async close() {
      if (closed) return;
      closed = true;
      gateway.close();
      for (const socket of sockets) socket.destroy();
      waiters.rejectAll(new Error("fake QQ Bot platform closed"));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}

function describeCalls(calls: readonly FakeQQCall[]): string {
  const recent = calls.slice(-8).map((c) => `${c.method} ${c.path} -> ${c.status}`);
  return `last calls: ${recent.length ? recent.join(", ") : "none"}`;
}
