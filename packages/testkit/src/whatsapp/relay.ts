// The fake WhatsApp reachable from another process: `startFakeWhatsAppServer` runs the fake in the
// test process behind a small WebSocket/JSON relay on 127.0.0.1, and `remoteSocketFactory(url)`
// (used by the plugin in the other process, e.g. a gateway or `openclaw channels login` started
// by an end-to-end test) makes sockets that forward every call and event through it. Buffers cross
// the wire in Baileys' BufferJSON format (relay-wire.ts). For tests only.
import { createServer } from "node:http";
import { WebSocket, WebSocketServer } from "ws";
import { listenOnLoopback, trackSockets } from "../net/listen.js";
import { fakeBoom } from "./boom.js";
import { createFakeWhatsApp } from "./fake.js";
import { type ClientFrame, decode, encode, METHODS, type ServerFrame } from "./relay-wire.js";
import type { FakeSocket, FakeWhatsApp, FakeWhatsAppOptions } from "./types.js";

export { remoteSocketFactory } from "./relay-client.js";

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
