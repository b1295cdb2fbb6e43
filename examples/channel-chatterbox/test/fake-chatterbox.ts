// A fake Chatterbox service for tests: the HTTP API the plugin calls, on 127.0.0.1, in memory.
// Tests act as Chatterbox's users (`userSays`) and look at chats the way a user sees them.
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A message of the bot as the fake stores it. */
interface StoredMessage {
  id: string;
  chatId: string;
  text: string;
  edits: number;
  deleted: boolean;
}

/** A long poll waiting for updates after `after`. */
interface Poller {
  after: number;
  answer(): void;
}

/** What a user sends, as `userSays` takes it. */
export interface FakeUserMessage {
  senderId: string;
  senderName?: string;
  text: string;
  /** Post in the shared group chat instead of the sender's DM with the bot. */
  group?: boolean;
  /** In a group: the message @-mentions the bot. */
  mentionsBot?: boolean;
}

/** A running fake Chatterbox. */
export interface FakeChatterbox {
  /** The API root to configure as `baseUrl`. */
  url: string;
  /** The bot token the fake accepts. */
  token: string;
  /** The bot's user id. */
  botId: string;
  /** A user sends a message to the bot; it becomes the next update. Returns the chat id. */
  userSays(message: FakeUserMessage): string;
  /** The bot's messages in a chat, in the order sent, and those it deleted. */
  chatView(chatId: string): {
    messages: Array<{ messageId: string; text: string; edits: number }>;
    deleted: Array<{ messageId: string; text: string }>;
  };
  /** The next `count` sends, edits or deletes get 429 with `Retry-After: retryAfterSeconds`. */
  rateLimitNext(count: number, retryAfterSeconds: number): void;
  /** Queues updates that are malformed or of an unknown type; resolves once the bot polled past them. */
  pushBadUpdates(): Promise<void>;
  /** Every request so far, as `METHOD /path`. */
  requests: string[];
  close(): Promise<void>;
}

const TEXT_LIMIT = 2000;

/** Starts a fake Chatterbox on a free port of 127.0.0.1. */
export async function startFakeChatterbox(options: { token?: string } = {}): Promise<FakeChatterbox> {
  const token = options.token ?? "fake-token";
  const botId = "u-bot";
  const updates: Array<{ id: number } & Record<string, unknown>> = [];
  const messages = new Map<string, StoredMessage>();
  const sentByKey = new Map<string, string>();
  const pollers = new Set<Poller>();
  const polledAfter: Array<{ id: number; resolve(): void }> = [];
  const requests: string[] = [];
  let nextMessage = 1;
  let rateLimit = { remaining: 0, retryAfterSeconds: 1 };

  const pushUpdate = (update: Record<string, unknown>): number => {
    const id = updates.length + 1;
    updates.push({ id, ...update });
    for (const poller of pollers) if (poller.after < id) poller.answer();
    return id;
  };

  const json = (res: ServerResponse, status: number, body?: unknown): void => {
    if (body === undefined) {
      res.writeHead(status).end();
      return;
    }
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  };

  const readBody = async (req: IncomingMessage): Promise<Record<string, unknown>> => {
    let text = "";
    for await (const chunk of req) text += chunk;
    const parsed: unknown = text === "" ? {} : JSON.parse(text);
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
  };

  const poll = (req: IncomingMessage, res: ServerResponse, url: URL): void => {
    const after = Number(url.searchParams.get("after") ?? "0");
    const wait = Number(url.searchParams.get("wait") ?? "0");
    for (const waiter of [...polledAfter]) {
      if (after < waiter.id) continue;
      polledAfter.splice(polledAfter.indexOf(waiter), 1);
      waiter.resolve();
    }
    const pending = () => updates.filter((u) => u.id > after);
    if (pending().length > 0 || wait <= 0) return json(res, 200, pending());
    const poller: Poller = {
      after,
      answer() {
        pollers.delete(poller);
        clearTimeout(timer);
        json(res, 200, pending());
      },
    };
    const timer = setTimeout(() => poller.answer(), wait * 1000);
    pollers.add(poller);
    req.socket.once("close", () => {
      pollers.delete(poller);
      clearTimeout(timer);
    });
  };

  const send = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req);
    if (typeof body.chat !== "string" || typeof body.text !== "string" || body.text.trim() === "") {
      return json(res, 400, { error: "chat and a non-empty text are required" });
    }
    if (body.text.length > TEXT_LIMIT) return json(res, 400, { error: `text is longer than ${TEXT_LIMIT} characters` });
    const key = typeof body.idempotencyKey === "string" ? body.idempotencyKey : undefined;
    const earlier = key === undefined ? undefined : sentByKey.get(key);
    if (earlier !== undefined) return json(res, 200, { id: earlier });
    const id = `m-${nextMessage++}`;
    messages.set(id, { id, chatId: body.chat, text: body.text, edits: 0, deleted: false });
    if (key !== undefined) sentByKey.set(key, id);
    json(res, 200, { id });
  };

  const edit = async (req: IncomingMessage, res: ServerResponse, id: string): Promise<void> => {
    const body = await readBody(req);
    const message = messages.get(id);
    if (message === undefined || message.deleted) return json(res, 404, { error: `no message ${id}` });
    if (typeof body.text !== "string" || body.text.trim() === "") return json(res, 400, { error: "a non-empty text is required" });
    if (body.text.length > TEXT_LIMIT) return json(res, 400, { error: `text is longer than ${TEXT_LIMIT} characters` });
    message.text = body.text;
    message.edits += 1;
    json(res, 200, {});
  };

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const method = req.method ?? "GET";
    requests.push(`${method} ${url.pathname}`);
    if (req.headers.authorization !== `Bearer ${token}`) return json(res, 401, { error: "unknown token" });
    const messagePath = /^\/messages\/([^/]+)$/.exec(url.pathname);
    const mutating = method !== "GET" && !url.pathname.endsWith("/typing");
    if (mutating && rateLimit.remaining > 0) {
      rateLimit.remaining -= 1;
      res.writeHead(429, { "retry-after": String(rateLimit.retryAfterSeconds), "content-type": "application/json" });
      res.end(JSON.stringify({ error: "too many requests" }));
      return;
    }
    if (method === "GET" && url.pathname === "/me") return json(res, 200, { id: botId, username: "chatterbot" });
    if (method === "GET" && url.pathname === "/updates") return poll(req, res, url);
    if (method === "POST" && url.pathname === "/messages") return send(req, res);
    if (method === "PATCH" && messagePath) return edit(req, res, decodeURIComponent(messagePath[1]!));
    if (method === "DELETE" && messagePath) {
      const message = messages.get(decodeURIComponent(messagePath[1]!));
      if (message === undefined || message.deleted) return json(res, 404, { error: "no such message" });
      message.deleted = true;
      return json(res, 204);
    }
    if (method === "POST" && /^\/chats\/[^/]+\/typing$/.test(url.pathname)) return json(res, 204);
    json(res, 404, { error: `no route ${method} ${url.pathname}` });
  };

  const server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => json(res, 400, { error: String(error) }));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    token,
    botId,
    requests,
    userSays(message) {
      const chat = message.group
        ? { id: "g-lounge", type: "group", title: "The lounge" }
        : { id: `dm-${message.senderId}`, type: "dm", title: undefined };
      pushUpdate({
        message: {
          id: `m-${nextMessage++}`,
          chat,
          from: { id: message.senderId, name: message.senderName ?? message.senderId, bot: false },
          text: message.text,
          mentions: message.group && message.mentionsBot ? [botId] : [],
          date: Date.now(),
        },
      });
      return chat.id;
    },
    chatView(chatId) {
      const mine = [...messages.values()].filter((m) => m.chatId === chatId);
      return {
        messages: mine.filter((m) => !m.deleted).map((m) => ({ messageId: m.id, text: m.text, edits: m.edits })),
        deleted: mine.filter((m) => m.deleted).map((m) => ({ messageId: m.id, text: m.text })),
      };
    },
    rateLimitNext(count, retryAfterSeconds) {
      rateLimit = { remaining: count, retryAfterSeconds };
    },
    async pushBadUpdates() {
      const date = Date.now();
      const chat = { id: "dm-nobody", type: "dm" };
      const from = { id: "u-nobody", name: "Nobody", bot: false };
      pushUpdate({ message: { id: "b-1", chat, text: "a message without a sender", date } });
      pushUpdate({ message: { id: 7, chat, from, text: "a numeric message id", date } });
      pushUpdate({ message: { id: "b-2", chat: { id: "c-news", type: "broadcast" }, from, text: "an unknown chat type", date } });
      pushUpdate({ message: { id: "b-3", chat, from, text: { html: "<b>not text</b>" }, date } });
      const last = pushUpdate({ reaction: { messageId: "m-1", emoji: "+1" } });
      await new Promise<void>((resolve) => polledAfter.push({ id: last, resolve }));
    },
    async close() {
      for (const poller of pollers) poller.answer();
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}
