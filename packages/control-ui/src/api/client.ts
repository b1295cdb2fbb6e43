// The browser side of the gateway's WebSocket control API (see packages/core/src/gateway/protocol.ts):
// JSON text frames, `connect` with the token first, then requests answered by id and events pushed.

/** An answer with `ok: false`, or the socket closing before the answer came. */
export class RequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly method: string,
    /** The error's `details`, when the gateway sent some (e.g. validation issues). */
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "RequestError";
  }
}

/** An event frame: `seq` grows by one per event on a connection. */
export interface GatewayEvent {
  event: string;
  payload: unknown;
  seq: number;
}

type ServerFrame =
  | { type: "res"; id: string; ok: true; payload: unknown }
  | { type: "res"; id: string; ok: false; error: { code: string; message: string; details?: unknown } }
  | { type: "event"; event: string; payload: unknown; seq: number };

interface Pending {
  method: string;
  resolve(payload: unknown): void;
  reject(err: Error): void;
}

/** The control API's address for a page the gateway served: same host, path `/ws`. */
export function controlUrl(location: { protocol: string; host: string }): string {
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/ws`;
}

/**
 * One authenticated connection. `connect` opens the socket and sends the token; it rejects with a
 * RequestError `unauthorized` for a wrong token, or an Error when nothing answers. After a close,
 * every pending request rejects and `onClose` listeners run once (the app then reconnects).
 */
export class GatewayConnection {
  private readonly pending = new Map<string, Pending>();
  private readonly listeners = new Set<(event: GatewayEvent) => void>();
  private readonly closeListeners = new Set<(reason: string) => void>();
  private nextId = 0;
  private closedReason: string | undefined;
  /** The `connect` reply. */
  hello: unknown;

  private constructor(private readonly ws: WebSocket) {
    ws.addEventListener("message", (e) => this.onFrame(String(e.data)));
    ws.addEventListener("close", (e) => {
      this.closedReason = `the gateway closed the connection (${e.code}${e.reason ? `: ${e.reason}` : ""})`;
      for (const p of this.pending.values()) p.reject(new RequestError("closed", this.closedReason, p.method));
      this.pending.clear();
      for (const fn of this.closeListeners) fn(this.closedReason);
    });
  }

  /**
   * Opens the socket and authenticates. `first` names requests to send right behind `connect`,
   * without waiting for its answer (the gateway handles a socket's frames in order, so they run
   * once authenticated): one round trip less on the way to a usable page. Their answers (or
   * errors) come back in `firstAnswers`, in order.
   */
  static async connect(
    url: string,
    token: string | undefined,
    first: readonly { method: string; params?: unknown }[] = [],
  ): Promise<{ connection: GatewayConnection; firstAnswers: Promise<unknown>[] }> {
    const ws = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      ws.addEventListener("open", () => resolve(), { once: true });
      ws.addEventListener("error", () => reject(new Error(`no gateway is answering at ${url}`)), { once: true });
    });
    const connection = new GatewayConnection(ws);
    const hello = connection.request("connect", token !== undefined ? { auth: { token } } : {});
    const firstAnswers = first.map((r) => connection.request(r.method, r.params));
    for (const answer of firstAnswers) answer.catch(() => undefined); // read by the caller, or dropped with the socket
    try {
      connection.hello = await hello;
    } catch (err) {
      ws.close();
      throw err;
    }
    return { connection, firstAnswers };
  }

  get closed(): boolean {
    return this.closedReason !== undefined;
  }

  /** Sends a request; resolves with the payload, rejects with a RequestError. */
  request<T = unknown>(method: string, params?: unknown): Promise<T> {
    if (this.closedReason !== undefined) return Promise.reject(new RequestError("closed", this.closedReason, method));
    const id = `r${(this.nextId += 1)}`;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, {
        method,
        resolve: (payload) => resolve(payload as T),
        reject,
      });
      this.ws.send(JSON.stringify({ type: "req", id, method, ...(params !== undefined ? { params } : {}) }));
    });
  }

  /** Receives every event; returns the unsubscribe function. */
  onEvent(listener: (event: GatewayEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Runs once the socket closed (not when it was already closed). */
  onClose(listener: (reason: string) => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  close(): void {
    this.ws.close(1000, "closed by the page");
  }

  private onFrame(text: string): void {
    let frame: ServerFrame;
    try {
      frame = JSON.parse(text) as ServerFrame;
    } catch {
      return;
    }
    if (frame.type === "event") {
      const event = { event: frame.event, payload: frame.payload, seq: frame.seq };
      for (const listener of this.listeners) listener(event);
      return;
    }
    const pending = this.pending.get(frame.id);
    if (!pending) return;
    this.pending.delete(frame.id);
    if (frame.ok) pending.resolve(frame.payload);
    else pending.reject(new RequestError(frame.error.code, frame.error.message, pending.method, frame.error.details));
  }
}
