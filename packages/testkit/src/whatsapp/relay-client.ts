// The client side of the fake WhatsApp's relay: the `makeSocket` that a plugin in another process
// (a gateway or `openclaw channels login` started by an end-to-end test or a bench) uses to reach
// `startFakeWhatsAppServer`. Loads neither Baileys nor the fake, so the plugin runs on the
// channel's published bundle alone. For tests only.
import { EventEmitter } from "node:events";
import { WebSocket } from "ws";
import { fakeBoom } from "./boom.js";
import { type ClientFrame, decode, encode, type ServerFrame } from "./relay-wire.js";
import type { FakeListener, FakeMakeSocket, FakeSocket } from "./types.js";

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
