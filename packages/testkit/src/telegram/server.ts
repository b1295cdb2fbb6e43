import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { Dispatcher, type CallOutcome } from "./dispatcher.js";
import { FakeTelegramApiError } from "./errors.js";
import { parseParams, readBody, recordableParams } from "./request-body.js";
import { TelegramStore } from "./store.js";
import type { FakeTelegram, FakeTelegramCall, FakeTelegramOptions, TgUser } from "./types.js";
import { buildUserMessage } from "./user-messages.js";
import { createWaiters } from "./waiters.js";
import { listenOnLoopback, trackSockets } from "../net/listen.js";

const DEFAULT_TOKEN = "123456:TEST";

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed || res.writableEnded) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

function defaultBot(token: string): TgUser {
  const id = Number(/^(\d+):/.exec(token)?.[1] ?? "123456");
  return { id, is_bot: true, first_name: "Fake Bot", username: "fake_test_bot" };
}

/**
 * Starts a fake Telegram Bot API on 127.0.0.1 (a free port). Point grammY at it with
 * `new Bot(token, { client: { apiRoot: fake.apiRoot } })`. Calls go to
 * `POST {apiRoot}/bot{token}/{method}` (JSON, urlencoded, multipart or query parameters); files
 * download from `{apiRoot}/file/bot{token}/{file_path}`. Defaults: token "123456:TEST", no
 * latency, no faults, flood control off.
 */
export async function startFakeTelegram(options: FakeTelegramOptions = {}): Promise<FakeTelegram> {
  const token = options.token ?? DEFAULT_TOKEN;
  const bot: TgUser = options.botUser ? { is_bot: true, ...options.botUser } : defaultBot(token);
  const store = new TelegramStore(bot);
  const waiters = createWaiters();
  const dispatcher = new Dispatcher(
    store,
    { notify: waiters.notify, changed: waiters.changed, rejectUnknownChats: options.rejectUnknownChats ?? false },
    options.enforceRateLimit,
  );
  const calls: FakeTelegramCall[] = [];
  const live = new Set<AbortController>();
  const closeSignal = new AbortController();
  let inFlight = 0;
  let closed = false;

  function record(
    method: string,
    params: Record<string, any>,
    uploads: FakeTelegramCall["uploads"],
    via: FakeTelegramCall["via"],
  ): FakeTelegramCall {
    const call: FakeTelegramCall = {
      index: calls.length,
      method,
      params: recordableParams(params),
      uploads,
      time: Date.now(),
      via,
      outcome: "pending",
    };
    calls.push(call);
    waiters.notify();
    return call;
  }

  function settle(call: FakeTelegramCall, outcome: CallOutcome | undefined, clientGone: boolean): void {
    if (clientGone) call.outcome = "client_closed";
    else if (!outcome || outcome.drop) call.outcome = "dropped";
    else {
      call.outcome = "answered";
      call.response = outcome.body;
      call.httpStatus = outcome.status;
      call.ok = outcome.body.ok;
    }
    waiters.notify();
  }

  async function serveApi(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    tokenPart: string,
    methodPart: string,
    signal: AbortSignal,
  ): Promise<void> {
    const body = await readBody(req);
    const parsed = parseParams(url.searchParams, body, String(req.headers["content-type"] ?? ""));
    const uploads = parsed
      ? [...parsed.files.values()].map(({ field, fileName, mimeType, size }) => ({ field, fileName, mimeType, size }))
      : [];
    const call = record(dispatcher.canonical(methodPart), parsed?.params ?? {}, uploads, "http");
    let outcome: CallOutcome;
    if (tokenPart !== token) outcome = { drop: false, status: 401, body: new FakeTelegramApiError(401, "Unauthorized").toBody() };
    else if (!parsed)
      outcome = { drop: false, status: 400, body: new FakeTelegramApiError(400, "Bad Request: can't parse request JSON object").toBody() };
    else outcome = await dispatcher.run(call, parsed.params, signal);
    const gone = signal.aborted && !closed;
    settle(call, outcome, gone);
    if (gone) return;
    if (outcome.drop) req.socket.destroy();
    else sendJson(res, outcome.status, outcome.body);
  }

  function serveFile(res: ServerResponse, tokenPart: string, path: string): void {
    if (tokenPart !== token) return sendJson(res, 401, { ok: false, error_code: 401, description: "Unauthorized" });
    const file = store.fileByPath(path);
    if (!file) return sendJson(res, 404, { ok: false, error_code: 404, description: "Not Found" });
    res.writeHead(200, { "content-type": file.mimeType, "content-length": file.data.length });
    res.end(file.data);
  }

  async function serve(req: IncomingMessage, res: ServerResponse, signal: AbortSignal): Promise<void> {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const fileMatch = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
    if (fileMatch) {
      await readBody(req);
      return serveFile(res, decodeURIComponent(fileMatch[1]!), decodeURIComponent(fileMatch[2]!));
    }
    const apiMatch = /^\/bot([^/]+)\/(?:test\/)?([A-Za-z0-9_]+)\/?$/.exec(url.pathname);
    if (!apiMatch) {
      await readBody(req);
      return sendJson(res, 404, { ok: false, error_code: 404, description: "Not Found" });
    }
    await serveApi(req, res, url, decodeURIComponent(apiMatch[1]!), apiMatch[2]!, signal);
  }

  const server = createServer({ noDelay: true, keepAlive: true }, (req, res) => {
    inFlight += 1;
    const controller = new AbortController();
    live.add(controller);
    const onClose = () => controller.abort();
    closeSignal.signal.addEventListener("abort", onClose, { once: true });
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      closeSignal.signal.removeEventListener("abort", onClose);
      live.delete(controller);
      inFlight -= 1;
      waiters.notify();
    };
    res.on("close", () => {
      if (!res.writableFinished) controller.abort();
      finish();
    });
    void serve(req, res, controller.signal).catch(() => {
      if (!res.headersSent && !res.destroyed) sendJson(res, 500, { ok: false, error_code: 500, description: "Internal Server Error" });
      else res.destroy();
    });
  });
  const sockets = trackSockets(server);
  const port = await listenOnLoopback(server);

  /** Runs a method named in a webhook response body, as Telegram does with webhook replies. */
  async function runWebhookReply(payload: Record<string, any>): Promise<void> {
    const { method, ...params } = payload;
    const call = record(dispatcher.canonical(String(method)), params, [], "webhook_reply");
    settle(call, await dispatcher.run(call, params, closeSignal.signal), false);
  }

  const fake: FakeTelegram = {
    apiRoot: `http://127.0.0.1:${port}`,
    port,
    token,
    botUser: bot,
    get calls() {
      return calls;
    },
    get webhookUrl() {
      return store.webhook?.url ?? "";
    },
    get isPolling() {
      return store.currentPoll !== undefined;
    },
    pendingUpdates: () => structuredClone(store.updates),

    sendUserMessage(message) {
      const update = store.enqueue({ message: buildUserMessage(store, message) });
      waiters.notify();
      return structuredClone(update);
    },
    enqueueUpdate(update) {
      const full = store.enqueue(structuredClone(update));
      waiters.notify();
      return structuredClone(full);
    },
    async postUpdateToWebhook(update, opts = {}) {
      const hook = store.webhook;
      if (!hook) throw new Error("postUpdateToWebhook: no webhook is set (the bot has not called setWebhook)");
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (hook.secretToken !== undefined) headers["x-telegram-bot-api-secret-token"] = hook.secretToken;
      let status: number;
      let text: string;
      try {
        const res = await fetch(hook.url, {
          method: "POST",
          headers,
          body: JSON.stringify(update),
          signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
        });
        status = res.status;
        text = await res.text();
      } catch {
        return 0;
      }
      if (status >= 200 && status < 300) {
        store.updates = store.updates.filter((u) => u.update_id !== update.update_id);
        let reply: unknown;
        try {
          reply = text ? JSON.parse(text) : undefined;
        } catch {
          reply = undefined;
        }
        if (reply && typeof reply === "object" && typeof (reply as { method?: unknown }).method === "string")
          await runWebhookReply(reply as Record<string, any>);
      }
      waiters.notify();
      return status;
    },

    inject429: (spec) => dispatcher.faults.add429(spec),
    injectError: (spec) => dispatcher.faults.addError(spec),
    dropConnections: (spec) => dispatcher.faults.addDrop(spec),
    setLatency: (ms) => {
      dispatcher.latencyMs = Math.max(0, ms);
    },
    setRateLimit: (limit) => dispatcher.faults.setRateLimit(limit),
    handle: (method, handler) => dispatcher.handle(method, handler),

    chat: (chatId) => {
      const id = Number(chatId);
      return store
        .botMessagesIn(id)
        .filter((m) => !m.deleted)
        .map((m) => structuredClone(m.message));
    },
    sentMessages: () => store.botMessages().map((m) => structuredClone(m.message)),
    editsOf: (messageId) => structuredClone(store.messages.get(messageId)?.versions ?? []),
    wasDeleted: (messageId) => store.messages.get(messageId)?.deleted ?? false,
    waitFor: (predicate, timeoutMs) => waiters.waitFor(predicate, timeoutMs, () => describeRecentCalls(calls)),
    waitForCall: (method, predicate, timeoutMs) => {
      const wanted = method.toLowerCase();
      return waiters.waitFor(
        () => calls.find((c) => c.outcome !== "pending" && c.method.toLowerCase() === wanted && (!predicate || predicate(c))),
        timeoutMs,
        () => `no finished ${method} call matched; ${describeRecentCalls(calls)}`,
      );
    },
    reset() {
      store.clear();
      dispatcher.clear();
      calls.splice(0);
      waiters.notify();
    },
    async close() {
      if (closed) return;
      closed = true;
      store.closing = true;
      waiters.notify();
      // Let held polls answer with [] before the connections go.
      const deadline = Date.now() + 200;
      while (inFlight > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
      closeSignal.abort();
      for (const socket of sockets) socket.destroy();
      waiters.rejectAll(new Error("fake Telegram server closed"));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}

function describeRecentCalls(calls: readonly FakeTelegramCall[]): string {
  const recent = calls
    .slice(-8)
    .map(
      (c) =>
        `${c.method}(${c.outcome === "answered" ? (c.ok ? "ok" : `${c.response && !c.response.ok ? c.response.error_code : "?"}`) : c.outcome})`,
    );
  return `last calls: ${recent.length ? recent.join(", ") : "none"}`;
}
