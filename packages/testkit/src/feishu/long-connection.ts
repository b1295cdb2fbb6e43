import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocket, WebSocketServer } from "ws";
import { type FeishuAnswer, ok } from "./envelope.js";
import { decodeFrame, encodeFrame, FRAME_METHOD, type Frame, headerValue } from "./frame.js";
import { newId } from "./ids.js";
import type { FakeFeishuAck, FakeFeishuClientConfig } from "./types.js";

/** The WebSocket path the bootstrap hands out. */
export const LONG_CONNECTION_PATH = "/ws/v2";
/** Bootstrap codes the SDK knows: 1000040343 is retried, any other non-zero code is fatal. */
const BOOTSTRAP_RETRYABLE = 1_000_040_343;
const BOOTSTRAP_AUTH_FAILED = 514;

interface Connection {
  ws: WebSocket;
  serviceId: number;
  /** The client has pinged: its message handler is attached, events can go out. */
  ready: boolean;
}

export interface LongConnectionOptions {
  appId: string;
  appSecret: string;
  clientConfig: FakeFeishuClientConfig;
  maxFramePayloadBytes: number;
  clock: () => number;
  /** Called on every frame in or out and every connection change. */
  notify: () => void;
}

/**
 * The long-connection side of the platform: `POST /callback/ws/endpoint` hands out a one-time
 * WebSocket URL and the ClientConfig; the socket speaks `pbbp2.Frame`s (control frames: ping from the
 * client, pong with the ClientConfig back; data frames: events out, acks back). An event goes to one
 * ready connection (the newest), split into `sum` frames of at most `maxFramePayloadBytes` each.
 * A connection is ready once the client's first ping arrives: the SDK pings on open but attaches its
 * frame handler a moment later, so frames pushed before that would be lost.
 */
export class LongConnections {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly open: Connection[] = [];
  private readonly tickets = new Map<string, number>();
  /** Events waiting for a connection: [eventId, payload]. */
  private readonly pending: Array<[string, Uint8Array]> = [];
  /** frame message_id -> event_id, for acks. */
  private readonly deliveries = new Map<string, string>();
  readonly acks: FakeFeishuAck[] = [];
  /** Codes the next bootstraps answer with, in order. */
  private readonly refusals: number[] = [];
  private seq = 0;
  opened = 0;

  constructor(private readonly options: LongConnectionOptions) {}

  /** `POST /callback/ws/endpoint` with `{AppID, AppSecret}`. */
  bootstrap(body: unknown, port: number): FeishuAnswer {
    const refusal = this.refusals.shift();
    if (refusal !== undefined) return { status: 200, body: { code: refusal, msg: "refused (injected)", data: {} } };
    const { AppID, AppSecret } = (body ?? {}) as { AppID?: unknown; AppSecret?: unknown };
    if (AppID !== this.options.appId || AppSecret !== this.options.appSecret) {
      return { status: 200, body: { code: BOOTSTRAP_AUTH_FAILED, msg: "app id or secret invalid", data: {} } };
    }
    const ticket = newId("");
    const serviceId = 33_554_000 + Math.floor(Math.random() * 1000);
    this.tickets.set(ticket, serviceId);
    const url = `ws://127.0.0.1:${port}${LONG_CONNECTION_PATH}?fpid=493&aid=552564&device_id=${newId("")}&access_key=${newId("")}&service_id=${serviceId}&ticket=${ticket}`;
    return ok({ URL: url, ClientConfig: this.clientConfigPayload() });
  }

  /** Upgrades a request for the long-connection path; refuses unknown or reused tickets. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const ticket = url.searchParams.get("ticket") ?? "";
    const serviceId = this.tickets.get(ticket);
    if (serviceId === undefined) {
      socket.end("HTTP/1.1 403 Forbidden\r\nhandshake-status: 403\r\nhandshake-msg: invalid ticket\r\n\r\n");
      return;
    }
    this.tickets.delete(ticket);
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, serviceId));
  }

  private accept(ws: WebSocket, serviceId: number): void {
    const connection: Connection = { ws, serviceId, ready: false };
    this.open.push(connection);
    this.opened += 1;
    ws.on("message", (data: Buffer) => this.onFrame(connection, data));
    ws.on("close", () => {
      const index = this.open.indexOf(connection);
      if (index !== -1) this.open.splice(index, 1);
      this.options.notify();
    });
    ws.on("error", () => {});
    this.options.notify();
  }

  private onFrame(connection: Connection, data: Buffer): void {
    let frame: Frame;
    try {
      frame = decodeFrame(data);
    } catch {
      connection.ws.close(1002, "bad frame");
      return;
    }
    const type = headerValue(frame, "type");
    if (frame.method === FRAME_METHOD.control && type === "ping") {
      const pong: Frame = {
        SeqID: 0,
        LogID: 0,
        service: frame.service,
        method: FRAME_METHOD.control,
        headers: [{ key: "type", value: "pong" }],
        payload: new TextEncoder().encode(JSON.stringify(this.clientConfigPayload())),
      };
      connection.ws.send(encodeFrame(pong));
      if (!connection.ready) {
        connection.ready = true;
        for (const [eventId, payload] of this.pending.splice(0)) void this.sendEvent(connection, eventId, payload);
      }
    } else if (frame.method === FRAME_METHOD.data) {
      const frameMessageId = headerValue(frame, "message_id") ?? "";
      const eventId = this.deliveries.get(frameMessageId);
      if (eventId !== undefined) {
        let code = 0;
        try {
          code = (JSON.parse(new TextDecoder().decode(frame.payload)) as { code?: number }).code ?? 0;
        } catch {
          code = 0;
        }
        this.acks.push({ eventId, frameMessageId, code, at: this.options.clock() });
      }
    }
    this.options.notify();
  }

  /** Sends an event body to the newest open connection (resolves when written), or keeps it until one opens. */
  async deliver(eventId: string, body: object): Promise<void> {
    const payload = new TextEncoder().encode(JSON.stringify(body));
    const connection = this.open.filter((c) => c.ready).at(-1);
    if (connection) await this.sendEvent(connection, eventId, payload);
    else this.pending.push([eventId, payload]);
  }

  private async sendEvent(connection: Connection, eventId: string, payload: Uint8Array): Promise<void> {
    const frameMessageId = newId("");
    this.deliveries.set(frameMessageId, eventId);
    const size = Math.max(1, this.options.maxFramePayloadBytes);
    const sum = Math.max(1, Math.ceil(payload.byteLength / size));
    const traceId = newId("");
    const written: Promise<void>[] = [];
    for (let seq = 0; seq < sum; seq++) {
      this.seq += 1;
      const frame: Frame = {
        SeqID: this.seq,
        LogID: this.seq,
        service: connection.serviceId,
        method: FRAME_METHOD.data,
        headers: [
          { key: "type", value: "event" },
          { key: "message_id", value: frameMessageId },
          { key: "sum", value: String(sum) },
          { key: "seq", value: String(seq) },
          { key: "trace_id", value: traceId },
        ],
        payload: payload.subarray(seq * size, (seq + 1) * size),
      };
      written.push(new Promise((resolve) => connection.ws.send(encodeFrame(frame), () => resolve())));
    }
    this.options.notify();
    await Promise.all(written);
  }

  private clientConfigPayload() {
    const c = this.options.clientConfig;
    return {
      PingInterval: c.pingIntervalSeconds,
      ReconnectCount: c.reconnectCount,
      ReconnectInterval: c.reconnectIntervalSeconds,
      ReconnectNonce: c.reconnectNonceSeconds,
    };
  }

  refuse(times: number, code = BOOTSTRAP_RETRYABLE): void {
    for (let i = 0; i < times; i++) this.refusals.push(code);
  }

  count(): number {
    return this.open.filter((c) => c.ready && c.ws.readyState === WebSocket.OPEN).length;
  }

  /** Resets every connection (no close frame), as a network failure does. */
  dropAll(): void {
    for (const c of [...this.open]) c.ws.terminate();
  }

  close(): void {
    this.dropAll();
    this.wss.close();
  }
}
