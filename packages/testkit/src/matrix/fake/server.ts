import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { listenOnLoopback, trackSockets } from "../../net/listen.js";
import { createWaiters } from "../../telegram/waiters.js";
import { foldMessages, type HumanMessage, itemFromRaw, visibleTextOf } from "../timeline.js";
import { MatrixError, RoomActions } from "./actions.js";
import { route } from "./routes.js";
import { FakeMatrixStore, newId, type RawEvent } from "./store.js";
import { buildSync } from "./sync.js";
import type { FakeHomeserver, FakeHomeserverOptions, FakeMatrixRequest } from "./types.js";

const CLIENT_PREFIX = /^\/_matrix\/client\/(?:r0|v3|v1|unstable(?:\/[^/]+)?)(?=\/)/;
const MEDIA_PREFIX = /^\/_matrix\/media\/(?:r0|v3|v1)(?=\/)/;
/** Requests that `rateLimitNext` and `slowSends` apply to: what a bot writes. */
const WRITE = /^\/rooms\/[^/]+\/(?:send|redact|state)\//;

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed || res.writableEnded) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/**
 * Starts a fake Matrix homeserver on 127.0.0.1 (a free port): enough of the client-server API for
 * matrix-js-sdk without encryption (versions, login, whoami, filters, long-poll `/sync` with
 * `since`/`timeout`, send, redact, state, createRoom, join, invite, leave, typing, receipts,
 * profile, account data incl. `m.direct`, media upload/download; `/keys/*` answer empty), plus
 * faults on demand. Server name defaults to "fake.test". Every request is recorded in `requests`,
 * every event a user sent in `sent`.
 */
export async function startFakeHomeserver(options: FakeHomeserverOptions = {}): Promise<FakeHomeserver> {
  const serverName = options.serverName ?? "fake.test";
  const store = new FakeMatrixStore(serverName);
  const waiters = createWaiters();
  const actions = new RoomActions(store, () => waiters.notify());
  const requests: FakeMatrixRequest[] = [];
  const faults = { rateLimit: 0, retryAfterMs: 0, dropSyncs: 0, slowSendMs: 0 };
  let closed = false;
  /** Long polls waiting now, so `dropSyncs` can cut them too. */
  const pendingSyncs = new Map<ServerResponse, FakeMatrixRequest>();

  const login = (userId: string, deviceId?: string) => {
    const token = `fake_${randomBytes(16).toString("hex")}`;
    const device = deviceId ?? newId("D").slice(0, 11).toUpperCase();
    store.tokens.set(token, { userId, deviceId: device });
    return { access_token: token, device_id: device, user_id: userId, home_server: serverName };
  };

  async function sync(res: ServerResponse, record: FakeMatrixRequest, userId: string, query: URLSearchParams): Promise<void> {
    const raw = query.get("since");
    const since = raw === null ? undefined : Number(raw);
    const waitMs = Math.min(Number(query.get("timeout") ?? 0), 30_000);
    let timer: NodeJS.Timeout | undefined;
    let timedOut = waitMs <= 0;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        timedOut = true;
        resolve();
      }, waitMs);
    });
    pendingSyncs.set(res, record);
    try {
      for (;;) {
        const body = buildSync(store, userId, since);
        if (body || timedOut || closed || res.destroyed) {
          return answer(res, 200, body ?? { ...emptySync(), next_batch: String(store.pos) });
        }
        await Promise.race([waiters.changed(), timeout]);
      }
    } finally {
      pendingSyncs.delete(res);
      clearTimeout(timer);
    }
  }

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const method = req.method ?? "GET";
    const raw = await readBody(req);
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? url.searchParams.get("access_token") ?? undefined;
    const session = token ? store.tokens.get(token) : undefined;
    const record: FakeMatrixRequest = { method, path: url.pathname, userId: session?.userId, status: 0, at: Date.now() };
    requests.push(record);
    // A client asks again once it has handled the last answer: re-check `waitFor`s on client state.
    waiters.notify();
    const reply = (status: number, body: unknown) => {
      record.status = status;
      answer(res, status, body);
      waiters.notify();
    };
    if (url.pathname === "/_matrix/client/versions") {
      return reply(200, {
        versions: ["v1.1", "v1.2", "v1.3", "v1.4", "v1.5", "v1.6", "v1.7", "v1.8", "v1.9", "v1.10", "v1.11", "v1.12"],
        unstable_features: {},
      });
    }
    const path = CLIENT_PREFIX.test(url.pathname)
      ? url.pathname.replace(CLIENT_PREFIX, "")
      : MEDIA_PREFIX.test(url.pathname)
        ? `/media${url.pathname.replace(MEDIA_PREFIX, "")}`
        : undefined;
    if (!path) return reply(404, { errcode: "M_UNRECOGNIZED", error: `Unrecognized request: ${method} ${url.pathname}` });
    if (path === "/sync" && method === "GET") {
      if (!session) return reply(401, { errcode: "M_UNKNOWN_TOKEN", error: "Unknown access token" });
      if (faults.dropSyncs > 0) {
        faults.dropSyncs -= 1;
        record.status = -1;
        res.socket?.destroy();
        return;
      }
      record.status = 200;
      return sync(res, record, session.userId, url.searchParams);
    }
    const writes = method !== "GET" && (WRITE.test(path) || path === "/media/upload");
    if (writes && faults.rateLimit > 0) {
      faults.rateLimit -= 1;
      return reply(429, { errcode: "M_LIMIT_EXCEEDED", error: "Too Many Requests", retry_after_ms: faults.retryAfterMs });
    }
    if (writes && faults.slowSendMs > 0) await new Promise((resolve) => setTimeout(resolve, faults.slowSendMs));
    let body: any;
    try {
      body = raw.length > 0 && !path.startsWith("/media/upload") ? JSON.parse(raw.toString("utf8")) : undefined;
    } catch {
      return reply(400, { errcode: "M_NOT_JSON", error: "Content not JSON." });
    }
    record.body = body;
    try {
      const result = await route({
        actions,
        method,
        path,
        query: url.searchParams,
        body,
        raw,
        headers: req.headers,
        auth: session && token ? { ...session, token } : undefined,
        login,
      });
      if ("bytes" in result) {
        record.status = result.status;
        res.writeHead(result.status, { "content-type": result.contentType, "content-length": result.bytes.length });
        res.end(result.bytes);
        return;
      }
      reply(result.status, result.body);
    } catch (err) {
      if (err instanceof MatrixError) return reply(err.status, { errcode: err.errcode, error: err.message, ...err.extra });
      const e = err as { status?: number; errcode?: string; message?: string };
      reply(e.status ?? 500, { errcode: e.errcode ?? "M_UNKNOWN", error: e.message ?? String(err) });
    }
  }

  const server = createServer((req, res) => {
    void serve(req, res).catch((err) => answer(res, 500, { errcode: "M_UNKNOWN", error: String(err) }));
  });
  const sockets = trackSockets(server);
  const port = await listenOnLoopback(server);
  const baseUrl = `http://127.0.0.1:${port}`;

  const messages = (roomId: string): HumanMessage[] => foldMessages(store.room(roomId).events.map((e) => itemFromRaw(e.event)));

  const fake: FakeHomeserver = {
    baseUrl,
    serverName,
    requests,
    sent: actions.sent,
    async registerUser(localpart, opts = {}) {
      const userId = `@${localpart}:${serverName}`;
      if (store.users.has(userId)) throw new Error(`${userId} is already registered`);
      const password = opts.password ?? `${localpart}-password`;
      store.users.set(userId, { userId, password, displayName: opts.displayName, accountData: new Map(), filters: [] });
      const session = login(userId);
      return { userId, accessToken: session.access_token, deviceId: session.device_id, password };
    },
    createRoom: (creator, opts = {}) =>
      actions.createRoom(creator, {
        name: opts.name,
        invite: opts.invite,
        is_direct: opts.isDirect,
        preset: opts.isDirect ? "trusted_private_chat" : opts.public ? "public_chat" : "private_chat",
        initial_state: opts.encrypted ? [{ type: "m.room.encryption", state_key: "", content: { algorithm: "m.megolm.v1.aes-sha2" } }] : [],
      }),
    invite: (by, roomId, userId) => void actions.membership(by, roomId, userId, "invite", {}),
    join: (userId, roomId) => void actions.membership(userId, roomId, userId, "join"),
    leave: (userId, roomId) => void actions.membership(userId, roomId, userId, "leave"),
    setDirect: (userId, direct) => actions.setAccountData(userId, "m.direct", direct),
    sendMessage(userId, roomId, text, opts = {}) {
      const content: Record<string, unknown> = typeof text === "string" ? { msgtype: "m.text", body: text } : { ...text };
      if (opts.mentions) content["m.mentions"] = { user_ids: opts.mentions };
      if (opts.threadRootId) {
        content["m.relates_to"] = {
          rel_type: "m.thread",
          event_id: opts.threadRootId,
          is_falling_back: true,
          "m.in_reply_to": { event_id: opts.replyTo ?? opts.threadRootId },
        };
      } else if (opts.replyTo) {
        content["m.relates_to"] = { "m.in_reply_to": { event_id: opts.replyTo } };
      }
      return String(actions.send(userId, roomId, "m.room.message", content).event_id);
    },
    injectEvent(roomId, rawEvent: RawEvent) {
      store.appendRaw(store.room(roomId), rawEvent);
      waiters.notify();
      return rawEvent.event_id;
    },
    rateLimitNext(n, retryAfterMs = 100) {
      faults.rateLimit = n;
      faults.retryAfterMs = retryAfterMs;
    },
    dropSyncs(n) {
      faults.dropSyncs = n;
      for (const [res, record] of [...pendingSyncs]) {
        if (faults.dropSyncs <= 0) break;
        faults.dropSyncs -= 1;
        record.status = -1;
        pendingSyncs.delete(res);
        res.socket?.destroy();
      }
    },
    slowSends(ms) {
      faults.slowSendMs = ms;
    },
    typing: (roomId) => [...store.room(roomId).typing],
    receipts: (roomId) => Object.fromEntries([...store.room(roomId).receipts].map(([u, r]) => [u, r.eventId])),
    accountData: (userId, type) => store.user(userId).accountData.get(type)?.content,
    membership: (roomId, userId) => store.membership(store.room(roomId), userId),
    media: (mxc) => store.media.get(mxc.replace(/^mxc:\/\/[^/]+\//, ""))?.bytes,
    timeline: messages,
    visibleText: (roomId, opts = {}) => visibleTextOf(messages(roomId), opts.sender),
    events: (roomId) => store.room(roomId).events.map((e) => e.event),
    waitFor: (predicate, timeoutMs = 5_000, describe = () => "") => waiters.waitFor(predicate, timeoutMs, describe),
    waitForMessage(roomId, predicate, timeoutMs = 5_000) {
      return waiters.waitFor(
        () => messages(roomId).find(predicate),
        timeoutMs,
        () => `a matching message in ${roomId}; it shows:\n${visibleTextOf(messages(roomId)) || "(nothing)"}`,
      );
    },
    async close() {
      if (closed) return;
      closed = true;
      waiters.notify();
      waiters.rejectAll(new Error("fake homeserver closed"));
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}

function emptySync(): Record<string, unknown> {
  return {
    rooms: { join: {}, invite: {}, leave: {}, knock: {} },
    account_data: { events: [] },
    presence: { events: [] },
    to_device: { events: [] },
    device_lists: { changed: [], left: [] },
    device_one_time_keys_count: { signed_curve25519: 50 },
  };
}
