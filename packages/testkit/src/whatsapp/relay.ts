// The fake WhatsApp reachable from another process: `startFakeWhatsAppServer` runs the fake in the
// test process behind a small WebSocket/JSON relay on 127.0.0.1, and `remoteSocketFactory(url)`
// (used by the plugin in the other process, e.g. a gateway or `openclaw channels login` started
// by an end-to-end test) makes sockets that forward every call and event through it. Buffers cross
// the wire with Baileys' BufferJSON. For tests only.
import { createServer } from "node:http";
import { EventEmitter } from "node:events";
import { BufferJSON } from "baileys";
import { type RawData, WebSocket, WebSocketServer } from "ws";
import { listenOnLoopback, trackSockets } from "../net/listen.js";
import { createFakeWhatsApp, fakeBoom } from "./fake.js";
import type { FakeListener, FakeMakeSocket, FakeSocket, FakeWhatsApp, FakeWhatsAppOptions } from "./types.js";

/** Messages of the relay protocol. */
type ClientFrame = { op: "make"; creds: Record<string, unknown> } | { op: "call"; id: number; method: string; args: unknown[] };
type ServerFrame =
  | { op: "event"; event: string; data: unknown }
  | { op: "frame" }
  | { op: "result"; id: number; value?: unknown; error?: { message: string; statusCode?: number } };

const encode = (frame: unknown): string => JSON.stringify(frame, BufferJSON.replacer);
const decode = <T>(data: RawData): T => JSON.parse(data.toString(), BufferJSON.reviver) as T;

const METHODS = ["sendMessage", "sendPresenceUpdate", "readMessages", "requestPairingCode", "logout", "end"] as const;

/** A running relay: the fake (drive `fake.phone` here) and the URL for `OPENCLAW_FAKE_WHATSAPP_URL`. */
export interface FakeWhatsAppServer {
  url: string;
  fake: FakeWhatsApp;
  close(): Promise<void>;
}

/** Starts the fake WhatsApp behind a relay on 127.0.0.1; each relay connection is one socket. */
export async function startFakeWhatsAppServer(options: FakeWhatsAppOptions = {}): Promise<FakeWhatsAppServer> {
  const fake = createFakeWhatsApp(options);
  const http = createServer((_req, res) => res.writeHead(426).end("WebSocket only"));
  const tcp = trackSockets(http);
  const wss = new WebSocketServer({ server: http });
  wss.on("connection", (ws) => {
    let socket: FakeSocket | undefined;
    const send = (frame: ServerFrame): void => {
      if (ws.readyState === WebSocket.OPEN) ws.send(encode(frame));
    };
    ws.on("message", (data) => {
      let frame: ClientFrame;
      try {
        frame = decode<ClientFrame>(data);
      } catch {
        return;
      }
      if (frame.op === "make" && socket === undefined) {
        socket = fake.makeSocket({ auth: { creds: frame.creds } });
        for (const event of ["connection.update", "creds.update", "messages.upsert", "chats.phoneNumberShare"]) {
          socket.ev.on(event, (payload) => send({ op: "event", event, data: payload }));
        }
        socket.ws.on("frame", () => send({ op: "frame" }));
        return;
      }
      if (frame.op === "call" && socket !== undefined && (METHODS as readonly string[]).includes(frame.method)) {
        const target = socket as unknown as Record<string, (...args: unknown[]) => unknown>;
        Promise.resolve()
          .then(() => target[frame.method]!.apply(socket, frame.args))
          .then(
            (value) => send({ op: "result", id: frame.id, value }),
            (error: Error & { output?: { statusCode?: number } }) =>
              send({
                op: "result",
                id: frame.id,
                error: {
                  message: error.message,
                  ...(error.output?.statusCode !== undefined ? { statusCode: error.output.statusCode } : {}),
                },
              }),
          );
      }
    });
    ws.on("close", () => socket?.end(fakeBoom("Connection Closed", 428)));
  });
  const port = await listenOnLoopback(http);
  return {
    url: `ws://127.0.0.1:${port}`,
    fake,
    async close() {
      fake.close();
      for (const client of wss.clients) client.terminate();
      for (const s of tcp) s.destroy();
      await new Promise<void>((resolve) => wss.close(() => http.close(() => resolve())));
    },
  };
}

/**
 * A `makeSocket` for a plugin in another process: each socket is one relay connection to `url`
 * (a `startFakeWhatsAppServer`). Creds updates are merged into the plugin's creds object, as
 * Baileys does, before the plugin hears `creds.update`.
 */
export function remoteSocketFactory(url: string | undefined): FakeMakeSocket {
  if (url === undefined || url === "")
    throw new Error("OPENCLAW_FAKE_WHATSAPP_URL is not set: start the fake with startFakeWhatsAppServer() and pass its url");
  return (config) => {
    const events = new EventEmitter();
    const frames = new EventEmitter();
    const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
    const outbox: string[] = [];
    let nextId = 1;
    let closed = false;
    const ws = new WebSocket(url);
    const post = (frame: ClientFrame): void => {
      const text = encode(frame);
      if (ws.readyState === WebSocket.OPEN) ws.send(text);
      else outbox.push(text);
    };
    const closeLocally = (): void => {
      if (closed) return;
      closed = true;
      for (const p of pending.values()) p.reject(fakeBoom("Connection Closed", 428));
      pending.clear();
      events.emit("connection.update", { connection: "close", lastDisconnect: { error: fakeBoom("relay closed", 428), date: new Date() } });
    };
    ws.on("open", () => {
      for (const text of outbox.splice(0)) ws.send(text);
    });
    ws.on("message", (data) => {
      const frame = decode<ServerFrame>(data);
      if (frame.op === "frame") frames.emit("frame", {});
      else if (frame.op === "event") {
        if (frame.event === "creds.update") Object.assign(config.auth.creds, frame.data);
        if (frame.event === "connection.update" && (frame.data as { connection?: string }).connection === "close") {
          if (closed) return;
          closed = true;
          socket.user = undefined;
        }
        if (frame.event === "connection.update" && (frame.data as { connection?: string }).connection === "open")
          socket.user = { id: (config.auth.creds.me as { id: string }).id };
        events.emit(frame.event, frame.data);
      } else if (frame.op === "result") {
        const p = pending.get(frame.id);
        pending.delete(frame.id);
        if (frame.error) p?.reject(fakeBoom(frame.error.message, frame.error.statusCode ?? 500));
        else p?.resolve(frame.value);
      }
    });
    ws.on("close", closeLocally);
    ws.on("error", () => undefined);
    const call = (method: string, args: unknown[]): Promise<never> =>
      new Promise((resolve, reject) => {
        if (closed) return reject(fakeBoom("Connection Closed", 428));
        const id = nextId++;
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        post({ op: "call", id, method, args });
      });
    const socket: FakeSocket = {
      ev: {
        on: (event: string, listener: FakeListener) => void events.on(event, listener),
        off: (event: string, listener: FakeListener) => void events.off(event, listener),
      },
      ws: {
        on: (event: "frame", listener: FakeListener) => void frames.on(event, listener),
        off: (event: "frame", listener: FakeListener) => void frames.off(event, listener),
      },
      user: undefined,
      sendMessage: (jid, content, options) => call("sendMessage", [jid, content, options]),
      sendPresenceUpdate: (type, jid) => call("sendPresenceUpdate", [type, jid]),
      readMessages: (keys) => call("readMessages", [keys]),
      requestPairingCode: (phone) => call("requestPairingCode", [phone]),
      logout: (message) => call("logout", [message]),
      end(error) {
        if (closed) return;
        post({ op: "call", id: nextId++, method: "end", args: [] });
        closed = true;
        events.emit("connection.update", { connection: "close", lastDisconnect: { error, date: new Date() } });
        setImmediate(() => ws.close());
      },
    };
    post({ op: "make", creds: config.auth.creds });
    return socket;
  };
}
