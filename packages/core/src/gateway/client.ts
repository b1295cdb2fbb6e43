import WebSocket from "ws";
import { MAX_PAYLOAD_BYTES, type ErrorCode, type EventFrame, type ServerFrame } from "./protocol.js";

/** A request the gateway answered with `ok: false`. */
export class GatewayRequestError extends Error {
  constructor(
    readonly code: ErrorCode | string,
    message: string,
    readonly method: string,
    /** The error's `details`, when the server sent any (e.g. `config.set`'s `{issues}`). */
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "GatewayRequestError";
  }
}

/** No gateway answered at the URL (refused, reset, timed out). */
export class GatewayUnavailableError extends Error {
  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    super(`no gateway is answering at ${url} (${(cause as Error)?.message ?? String(cause)})`, { cause });
    this.name = "GatewayUnavailableError";
  }
}

export interface GatewayClientOptions {
  /** Sent in `connect`; omit only for a gateway with `gateway.auth.mode: "none"`. */
  token?: string;
  /** How long opening the socket and `connect` may take; default 5000 ms. */
  timeoutMs?: number;
}

interface Pending {
  method: string;
  resolve(payload: unknown): void;
  reject(err: Error): void;
}

/**
 * A control API client: opens the WebSocket, authenticates with `connect`, then sends requests
 * and delivers events. Used by `openclaw status` / `channels status` and by tests.
 */
export class GatewayClient {
  private readonly pending = new Map<string, Pending>();
  private readonly listeners = new Set<(frame: EventFrame) => void>();
  private nextId = 0;
  private closedError: Error | undefined;
  /** The `connect` reply (protocol, server, features, policy). */
  hello: unknown;

  private constructor(private readonly ws: WebSocket) {
    ws.on("message", (data) => this.onFrame(String(data)));
    ws.on("close", (code, reason) => {
      this.closedError = new Error(`the gateway closed the connection (${code}${reason.length ? `: ${reason.toString()}` : ""})`);
      for (const p of this.pending.values()) p.reject(this.closedError);
      this.pending.clear();
    });
    ws.on("error", () => undefined); // surfaced through close / the connect promise
  }

  /** Connects and authenticates. Rejects with GatewayUnavailableError or GatewayRequestError (`unauthorized`). */
  static async connect(url: string, options: GatewayClientOptions = {}): Promise<GatewayClient> {
    const timeoutMs = options.timeoutMs ?? 5000;
    const ws = new WebSocket(url, { maxPayload: MAX_PAYLOAD_BYTES, handshakeTimeout: timeoutMs });
    await new Promise<void>((resolve, reject) => {
      const onError = (err: Error) => {
        ws.off("open", onOpen);
        reject(new GatewayUnavailableError(url, err));
      };
      const onOpen = () => {
        ws.off("error", onError);
        resolve();
      };
      ws.once("error", onError);
      ws.once("open", onOpen);
    });
    const client = new GatewayClient(ws);
    try {
      client.hello = await client.request("connect", options.token !== undefined ? { auth: { token: options.token } } : {}, { timeoutMs });
    } catch (err) {
      await client.close();
      throw err;
    }
    return client;
  }

  /** Sends a request; resolves with the payload, rejects with GatewayRequestError (or when the socket closes). */
  request<T = unknown>(method: string, params?: unknown, options: { timeoutMs?: number } = {}): Promise<T> {
    if (this.closedError) return Promise.reject(this.closedError);
    const id = `r${(this.nextId += 1)}`;
    return new Promise<T>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(timer);
        this.pending.delete(id);
      };
      this.pending.set(id, {
        method,
        resolve: (payload) => {
          done();
          resolve(payload as T);
        },
        reject: (err) => {
          done();
          reject(err);
        },
      });
      if (options.timeoutMs !== undefined) {
        timer = setTimeout(
          () => this.pending.get(id)?.reject(new Error(`${method}: no answer within ${options.timeoutMs} ms`)),
          options.timeoutMs,
        );
      }
      this.ws.send(JSON.stringify({ type: "req", id, method, ...(params !== undefined ? { params } : {}) }));
    });
  }

  /** Receives every event frame; returns the unsubscribe function. */
  onEvent(listener: (frame: EventFrame) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Closes the socket; resolves once it is closed. */
  close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.ws.once("close", () => resolve());
      this.ws.close();
    });
  }

  private onFrame(text: string): void {
    let frame: ServerFrame;
    try {
      frame = JSON.parse(text) as ServerFrame;
    } catch {
      return;
    }
    if (frame.type === "event") {
      for (const listener of this.listeners) listener(frame);
      return;
    }
    if (frame.type !== "res") return;
    const pending = this.pending.get(frame.id);
    if (!pending) return;
    if (frame.ok) pending.resolve(frame.payload);
    else pending.reject(new GatewayRequestError(frame.error.code, frame.error.message, pending.method, frame.error.details));
  }
}
