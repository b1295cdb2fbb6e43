import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { echoResponder } from "./script.js";
import type { FakeModelServer, FakeModelServerOptions, FakeResponder, FakeTurn, RecordedRequest } from "./types.js";
import { listenOnLoopback, trackSockets } from "../net/listen.js";

/** Per-response helpers handed to a protocol handler. */
export interface ExchangeContext {
  req: IncomingMessage;
  res: ServerResponse;
  /** The recorded request (mutate `outcome` when the response ends). */
  record: RecordedRequest;
  /** Aborted when the client goes away or the server closes. */
  signal: AbortSignal;
  /** Waits `ms` unless the exchange is cut short; resolves false if it was. */
  sleep(ms: number): Promise<boolean>;
  /** Waits until `gate` settles unless the exchange is cut short; resolves false if it was. */
  hold(gate: PromiseLike<unknown>): Promise<boolean>;
  /** Writes raw bytes unless the connection is gone; returns false if it is. */
  write(chunk: string): boolean;
  /** Takes the next scripted turn, or asks the responder. */
  nextTurn(): Promise<FakeTurn>;
  /** Sends a JSON response with the given status and headers, and ends it. */
  json(status: number, body: unknown, headers?: Record<string, string>): void;
  /** Destroys the socket at once (a hang-up). */
  hangUp(): void;
  options: Required<Pick<FakeModelServerOptions, "chunkChars" | "chunkDelayMs" | "models">> & FakeModelServerOptions;
}

export interface ProtocolHandler {
  /** Path appended to the origin to form the client's baseURL ("/v1" for OpenAI, "" for Anthropic). */
  basePathForClient: string;
  /** True when this request is a model call to record and answer with a turn. */
  isModelCall(method: string, path: string): boolean;
  /** Answers a model call. The body is already parsed into `ctx.record.body`. */
  handleModelCall(ctx: ExchangeContext): Promise<void>;
  /** Answers any other request (model listing, 404s); `headers` are the request's, lower-cased. */
  handleOther(ctx: Omit<ExchangeContext, "record" | "nextTurn">, method: string, path: string, headers: Record<string, string>): void;
}

function headerRecord(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Starts an HTTP server on 127.0.0.1 (a free port) that answers with `handler`. */
export async function startFakeServer(handler: ProtocolHandler, userOptions: FakeModelServerOptions = {}): Promise<FakeModelServer> {
  const options = {
    ...userOptions,
    chunkChars: Math.max(1, userOptions.chunkChars ?? 8),
    chunkDelayMs: Math.max(0, userOptions.chunkDelayMs ?? 0),
    models: userOptions.models ?? ["fake-model"],
  };
  const queue: FakeTurn[] = [...(options.script ?? [])];
  let responder: FakeResponder = options.responder ?? echoResponder;
  const requests: RecordedRequest[] = [];
  const live = new Set<AbortController>();
  let inFlight = 0;
  let idleWaiters: Array<() => void> = [];
  let requestWaiters: Array<{ count: number; resolve: (r: RecordedRequest[]) => void }> = [];
  let closed = false;

  const settle = () => {
    inFlight -= 1;
    if (inFlight === 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const w of waiters) w();
    }
  };

  const server = createServer({ noDelay: true, keepAlive: true }, (req, res) => {
    inFlight += 1;
    const controller = new AbortController();
    live.add(controller);
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      live.delete(controller);
      settle();
    };
    res.on("close", () => {
      if (!res.writableFinished) controller.abort();
      finish();
    });
    void serve(req, res, controller).catch(() => {
      if (!res.headersSent && !res.destroyed) res.writeHead(500).end();
      else res.destroy();
    });
  });

  async function serve(req: IncomingMessage, res: ServerResponse, controller: AbortController): Promise<void> {
    const signal = controller.signal;
    const method = req.method ?? "GET";
    const path = req.url ?? "/";
    const base = {
      req,
      res,
      signal,
      options,
      sleep: (ms: number) =>
        new Promise<boolean>((resolve) => {
          if (signal.aborted) return resolve(false);
          if (ms <= 0) return resolve(true);
          const timer = setTimeout(() => {
            signal.removeEventListener("abort", onAbort);
            resolve(true);
          }, ms);
          const onAbort = () => {
            clearTimeout(timer);
            resolve(false);
          };
          signal.addEventListener("abort", onAbort, { once: true });
        }),
      hold: (gate: PromiseLike<unknown>) =>
        new Promise<boolean>((resolve) => {
          if (signal.aborted) return resolve(false);
          const onAbort = () => resolve(false);
          signal.addEventListener("abort", onAbort, { once: true });
          const settle = () => {
            signal.removeEventListener("abort", onAbort);
            resolve(!signal.aborted);
          };
          Promise.resolve(gate).then(settle, settle);
        }),
      write: (chunk: string) => {
        if (signal.aborted || res.destroyed || res.writableEnded) return false;
        res.write(chunk);
        return true;
      },
      json: (status: number, body: unknown, headers: Record<string, string> = {}) => {
        if (res.destroyed || res.writableEnded) return;
        const text = JSON.stringify(body);
        res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
        res.end(text);
      },
      hangUp: () => {
        // Flush what was written, then close the TCP connection without finishing the response.
        const socket = res.socket;
        if (!socket) {
          res.destroy();
          return;
        }
        socket.end(() => socket.destroy());
      },
    };
    if (!handler.isModelCall(method, path.split("?")[0] ?? path)) {
      await readBody(req);
      handler.handleOther(base, method, path, headerRecord(req));
      return;
    }
    const raw = await readBody(req);
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    const record: RecordedRequest = { method, path, headers: headerRecord(req), body, receivedAt: Date.now() };
    requests.push(record);
    res.on("close", () => {
      if (record.outcome === undefined) record.outcome = res.writableFinished ? "completed" : "client_closed";
    });
    const ready = requestWaiters.filter((w) => requests.length >= w.count);
    requestWaiters = requestWaiters.filter((w) => requests.length < w.count);
    for (const w of ready) w.resolve([...requests]);
    await handler.handleModelCall({
      ...base,
      record,
      nextTurn: async () => queue.shift() ?? (await responder(record)),
    });
  }

  const sockets = trackSockets(server);
  const port = await listenOnLoopback(server);
  const origin = `http://127.0.0.1:${port}`;

  return {
    baseUrl: `${origin}${handler.basePathForClient}`,
    origin,
    port,
    requests,
    get pendingTurns() {
      return queue.length;
    },
    enqueue: (...turns) => {
      queue.push(...turns);
    },
    setResponder: (next) => {
      responder = next;
    },
    lastRequest: () => requests[requests.length - 1],
    waitForRequests: (count) =>
      requests.length >= count ? Promise.resolve([...requests]) : new Promise((resolve) => requestWaiters.push({ count, resolve })),
    idle: () => (inFlight === 0 ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve))),
    close: async () => {
      if (closed) return;
      closed = true;
      for (const c of live) c.abort();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
