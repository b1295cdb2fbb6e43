import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Duplex } from "node:stream";
import { WebSocketServer, type RawData, type WebSocket } from "ws";
import {
  ControlError,
  frameIdOf,
  MAX_PAYLOAD_BYTES,
  MAX_PREAUTH_BYTES,
  parseRequestFrame,
  type ErrorShape,
  type ServerFrame,
} from "./protocol.js";
import type { ControlUi } from "./control-ui.js";
import type { EarlyListener, ListenerHandlers } from "./early-listener.js";
import type { HttpRouteTable } from "./http-routes.js";
import { refusedUpgrade } from "./request-origin.js";
import type { GatewayLogger } from "./types.js";

/** One authenticated client, as a method handler sees it. */
export interface Connection {
  readonly id: string;
  /** Sends an event frame to this client (dropped once the socket closed). */
  emit(event: string, payload: unknown): void;
  /** Runs `fn` when the socket closes (at once when it already has). */
  onClose(fn: () => void): void;
  readonly closed: boolean;
}

/** A control API method: gets the request's params and the caller's connection; returns the payload. */
export type MethodHandler = (params: unknown, connection: Connection) => unknown;

export interface ControlServerOptions {
  host: string;
  port: number;
  /** Undefined: no token needed (`gateway.auth.mode: "none"`); `connect` still comes first. */
  token: string | undefined;
  methods: Readonly<Record<string, MethodHandler>>;
  /** The payload of a successful `connect`. */
  hello(): unknown;
  log: GatewayLogger;
  /** How long a client may take to send `connect`; default 10 000 ms. */
  handshakeTimeoutMs?: number;
  /** `gateway.controlUi.allowedOrigins`: browser origins besides the gateway's own (default none). */
  allowedOrigins?: readonly string[];
  /** HTTP routes plugins registered (webhooks), served on this listener. */
  routes?: HttpRouteTable;
  /** The Control UI's static files (`gateway.controlUi.enabled`); unset: no UI. */
  controlUi?: ControlUi;
  /**
   * A listener already bound to `host:port` (see `listenEarly`); `listen()` adopts it instead of
   * binding, and serves whatever waited on it.
   */
  listener?: EarlyListener;
}

const WS_PATHS = new Set(["/", "/ws"]);

/** Constant-time token check: both sides are hashed first, so lengths never leak either. */
export function tokensMatch(given: unknown, expected: string): boolean {
  if (typeof given !== "string") return false;
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

function toText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString("utf8");
  if (Array.isArray(data)) return Buffer.concat(data).toString("utf8");
  return Buffer.from(data).toString("utf8");
}

function byteLength(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((n, b) => n + b.length, 0);
  return (data as Buffer | ArrayBuffer).byteLength;
}

/**
 * The HTTP server of the gateway: `GET /health` (no auth), the WebSocket control API on `/`
 * and `/ws`, the HTTP routes plugins registered (webhooks; each checks its own requests), and the
 * Control UI's files under its base path (plain HTTP GETs; the app then opens the WebSocket). An upgrade from a browser origin that is not allowed, or (on a loopback bind) through
 * a Host that is not a loopback name, is refused with 403 before any frame (see `refusedUpgrade`). The first request on a socket must be `connect` with the token; anything else, a bad
 * token, or a frame over 64 KiB before that, gets an error response and the socket is closed.
 */
export class ControlServer {
  private readonly http: Server;
  private readonly wss: WebSocketServer;
  private readonly sockets = new Set<WebSocket>();
  private readonly rawSockets = new Set<Socket>();
  private readonly broadcastTargets = new Set<{ emit(event: string, payload: unknown): void }>();

  private readonly handlers: ListenerHandlers;

  constructor(private readonly options: ControlServerOptions) {
    this.http = options.listener?.server ?? createServer();
    this.wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD_BYTES });
    this.handlers = {
      request: (req, res) => this.onHttp(req, res),
      connection: (socket) => {
        this.rawSockets.add(socket);
        socket.once("close", () => this.rawSockets.delete(socket));
      },
      upgrade: (req, socket, head) => this.onUpgrade(req, socket, head),
    };
  }

  /** Starts listening (or adopts `options.listener`); resolves with the port actually bound (useful with port 0). */
  listen(): Promise<number> {
    const { listener } = this.options;
    if (listener) {
      listener.adopt(this.handlers);
      return Promise.resolve(listener.port);
    }
    this.http.on("connection", this.handlers.connection);
    this.http.on("request", this.handlers.request);
    this.http.on("upgrade", this.handlers.upgrade);
    return new Promise((resolve, reject) => {
      const onError = (err: NodeJS.ErrnoException) => reject(err);
      this.http.once("error", onError);
      this.http.listen(this.options.port, this.options.host, () => {
        this.http.off("error", onError);
        resolve((this.http.address() as AddressInfo).port);
      });
    });
  }

  private onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const pathname = new URL(req.url ?? "/", "http://localhost").pathname;
    if (!WS_PATHS.has(pathname)) {
      socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    const refused = refusedUpgrade(req, {
      host: this.options.host,
      port: () => (this.http.address() as AddressInfo | null)?.port ?? this.options.port,
      allowedOrigins: this.options.allowedOrigins ?? [],
      tokenRequired: this.options.token !== undefined,
    });
    if (refused !== undefined) {
      this.options.log.warn(`control API: refused a connection: ${refused}`);
      socket.end("HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.onSocket(ws));
  }

  /** Sends an event to every authenticated client. */
  broadcast(event: string, payload: unknown): void {
    for (const target of this.broadcastTargets) target.emit(event, payload);
  }

  /** Closes every socket (code 1001, "going away") and stops listening. */
  async close(): Promise<void> {
    for (const ws of this.sockets) ws.close(1001, "the gateway is stopping");
    const closing = new Promise<void>((resolve) => this.http.close(() => resolve()));
    // Give close frames a moment to leave, then cut whatever is left.
    await new Promise<void>((resolve) => setImmediate(resolve));
    for (const ws of this.sockets) ws.terminate();
    this.http.closeAllConnections();
    for (const socket of this.rawSockets) socket.destroy();
    this.wss.close();
    await closing;
  }

  private onHttp(req: IncomingMessage, res: ServerResponse): void {
    const pathname = new URL(req.url ?? "/", "http://localhost").pathname;
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
      res.end(JSON.stringify(body));
    };
    if (pathname === "/health" && (req.method === "GET" || req.method === "HEAD")) return send(200, { ok: true });
    if (this.options.routes?.serve(pathname, req, res)) return;
    if (pathname !== "/ws" && this.options.controlUi?.serve(req, res, pathname)) return;
    if (WS_PATHS.has(pathname))
      return send(426, { ok: false, error: "this is the WebSocket control API; connect with a WebSocket client" });
    send(404, { ok: false, error: "not found" });
  }

  private onSocket(ws: WebSocket): void {
    this.sockets.add(ws);
    const { options } = this;
    let authenticated = false;
    let seq = 0;
    const closeHandlers: (() => void)[] = [];
    const send = (frame: ServerFrame) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
    };
    const connection: Connection = {
      id: randomUUID(),
      emit: (event, payload) => send({ type: "event", event, payload, seq: (seq += 1) }),
      onClose: (fn) => (connection.closed ? fn() : closeHandlers.push(fn)),
      get closed() {
        return ws.readyState === ws.CLOSING || ws.readyState === ws.CLOSED;
      },
    };
    const fail = (id: string, error: ErrorShape, close?: number) => {
      send({ type: "res", id, ok: false, error });
      if (close !== undefined) ws.close(close, error.code);
    };
    const handshake = setTimeout(() => {
      if (!authenticated) ws.close(1008, "connect timeout");
    }, options.handshakeTimeoutMs ?? 10_000);
    handshake.unref?.();

    ws.on("close", () => {
      clearTimeout(handshake);
      this.sockets.delete(ws);
      this.broadcastTargets.delete(connection);
      for (const fn of closeHandlers.splice(0)) {
        try {
          fn();
        } catch (err) {
          options.log.warn(`control: a close handler failed: ${(err as Error).message}`);
        }
      }
    });
    ws.on("error", (err) => options.log.warn(`control: socket error: ${err.message}`));
    ws.on("message", (data, isBinary) => {
      if (!authenticated && byteLength(data) > MAX_PREAUTH_BYTES) {
        return fail("", { code: "payload_too_large", message: `frames before connect are limited to ${MAX_PREAUTH_BYTES} bytes` }, 1009);
      }
      if (isBinary)
        return fail("", { code: "bad_request", message: "send JSON text frames, not binary" }, authenticated ? undefined : 1008);
      const text = toText(data);
      let frame;
      try {
        frame = parseRequestFrame(text);
      } catch (err) {
        return fail(frameIdOf(text) ?? "", { code: "bad_request", message: (err as Error).message }, authenticated ? undefined : 1008);
      }
      if (frame.method === "connect") {
        const token = (frame.params as { auth?: { token?: unknown } } | undefined)?.auth?.token;
        if (options.token !== undefined && !tokensMatch(token, options.token)) {
          options.log.warn("control: a client offered a wrong or missing token; connection closed");
          return fail(
            frame.id,
            { code: "unauthorized", message: "the token is missing or wrong; use the gateway's token (see <stateDir>/gateway.token)" },
            1008,
          );
        }
        authenticated = true;
        clearTimeout(handshake);
        this.broadcastTargets.add(connection);
        return send({ type: "res", id: frame.id, ok: true, payload: options.hello() });
      }
      if (!authenticated) {
        return fail(frame.id, { code: "unauthorized", message: 'the first request must be "connect" with params {auth:{token}}' }, 1008);
      }
      const handler = Object.hasOwn(options.methods, frame.method) ? options.methods[frame.method] : undefined;
      if (!handler) return fail(frame.id, { code: "unknown_method", message: `unknown method "${frame.method}"` });
      const id = frame.id;
      Promise.resolve()
        .then(() => handler(frame.params, connection))
        .then(
          (payload) => send({ type: "res", id, ok: true, payload: payload ?? null }),
          (err: unknown) => fail(id, this.describeError(err, frame.method)),
        );
    });
  }

  private describeError(err: unknown, method: string): ErrorShape {
    if (err instanceof ControlError)
      return { code: err.code, message: err.message, ...(err.details !== undefined ? { details: err.details } : {}) };
    if (err instanceof Error && err.name === "UserError") return { code: "invalid_params", message: err.message };
    if (err instanceof Error && err.name === "ConfigError") return { code: "invalid_params", message: err.message };
    this.options.log.error(`control: ${method} failed: ${(err as Error)?.stack ?? String(err)}`);
    return { code: "internal", message: `${method} failed: ${(err as Error)?.message ?? String(err)}` };
  }
}
