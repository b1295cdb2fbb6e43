/**
 * Webhook mode: a small `node:http` listener that Telegram (through the user's HTTPS proxy)
 * posts updates to. It checks the secret header in constant time, limits the body, answers 200
 * at once and hands the update to its lane afterwards, so Telegram never waits for the agent.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type AccountStatus, type PluginLogger, redactUrl } from "@openclaw/plugin-sdk";
import { GrammyError, type Api } from "../grammy.js";
import type { Update } from "grammy/types";
import type { TelegramWebhookSettings } from "../account.js";
import { grammySignal } from "../api.js";
import { ALLOWED_UPDATES, tokenRejectedError } from "./polling.js";

/** The header Telegram sends the configured secret in. */
export const SECRET_HEADER = "x-telegram-bot-api-secret-token";
/** Default largest accepted body (1 MiB). */
export const DEFAULT_WEBHOOK_BODY_LIMIT = 1024 * 1024;
/** Health check path answered with 200 on any method. */
export const HEALTH_PATH = "/healthz";

/** What the webhook listener needs from its account. */
export interface WebhookDeps {
  api: Api;
  settings: TelegramWebhookSettings;
  signal: AbortSignal;
  log: PluginLogger;
  status(update: Partial<AccountStatus>): void;
  /** Hands an update to its lane (not awaited by the HTTP answer). */
  /** Hands the update to core; resolves once core recorded it, rejects when it was not taken. */
  dispatch(update: Update): Promise<void>;
  tokenPath: string;
  /** Largest accepted body in bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** Called once the listener is bound (tests read the port). */
  onListening?(address: AddressInfo): void;
}

/** Constant-time comparison of the secret header (hashing first makes the lengths equal). */
export function secretMatches(given: string | string[] | undefined, secret: string): boolean {
  if (typeof given !== "string") return false;
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(secret).digest();
  return timingSafeEqual(a, b);
}

function answer(res: ServerResponse, status: number, body: string, close = false): void {
  if (res.headersSent) return;
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
    ...(close ? { connection: "close" } : {}),
  });
  res.end(body);
}

/** Reads the body up to `limit` bytes; resolves undefined when it is larger. */
function readLimited(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > limit) {
        over = true;
        parts.length = 0;
        resolve(undefined);
        return;
      }
      parts.push(chunk);
    });
    req.on("end", () => {
      if (!over) resolve(Buffer.concat(parts));
    });
    req.on("error", reject);
  });
}

function listen(server: Server, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/**
 * Serves the webhook until `signal` fires: binds the listener, registers the webhook with
 * Telegram (`setWebhook` with the secret), and on stop closes the listener and removes the
 * webhook. Answers: 401 for a wrong or missing secret, 413 for a body over the limit, 400 for a
 * body that is not an update, 404 for other paths, 200 otherwise (before the update is handled).
 * Repeated deliveries of an update id are ignored.
 */
export async function runWebhook(deps: WebhookDeps): Promise<void> {
  const { settings, log, signal } = deps;
  const limit = deps.maxBodyBytes ?? DEFAULT_WEBHOOK_BODY_LIMIT;
  const recent = new Set<number>();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path === HEALTH_PATH) return answer(res, 200, '{"ok":true}');
    if (path !== settings.path || req.method !== "POST") {
      req.resume();
      return answer(res, 404, '{"ok":false}');
    }
    if (!secretMatches(req.headers[SECRET_HEADER], settings.secret)) {
      log.warn("webhook request with a wrong or missing secret token refused (401)", { from: req.socket.remoteAddress });
      req.resume();
      return answer(res, 401, '{"ok":false,"description":"wrong secret token"}', true);
    }
    const declared = Number(req.headers["content-length"] ?? "0");
    const body = declared > limit ? undefined : await readLimited(req, limit);
    if (body === undefined) {
      log.warn(`webhook body over ${limit} bytes refused (413)`);
      answer(res, 413, '{"ok":false,"description":"body too large"}', true);
      req.resume();
      return;
    }
    let update: Update;
    try {
      update = JSON.parse(body.toString("utf8")) as Update;
    } catch {
      return answer(res, 400, '{"ok":false,"description":"body is not JSON"}');
    }
    if (typeof update !== "object" || update === null || !Number.isSafeInteger(update.update_id)) {
      return answer(res, 400, '{"ok":false,"description":"not a Telegram update"}');
    }
    if (recent.has(update.update_id)) return answer(res, 200, "{}");
    recent.add(update.update_id);
    if (recent.size > 2048) recent.delete(recent.values().next().value!);
    // Acknowledged only once core has the message on disk; otherwise Telegram delivers it again.
    try {
      await deps.dispatch(update);
    } catch (error) {
      recent.delete(update.update_id);
      log.warn(`update ${update.update_id} was not taken (${String(error)}); Telegram will deliver it again`);
      return answer(res, 503, '{"ok":false,"description":"not taken, retry later"}');
    }
    answer(res, 200, "{}");
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log.warn(`webhook request failed: ${String(error)}`);
      answer(res, 500, '{"ok":false}');
    });
  });
  server.requestTimeout = 30_000;
  server.headersTimeout = 30_000;
  const address = await listen(server, settings.host, settings.port);
  deps.onListening?.(address);
  const closed = new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
  try {
    try {
      await deps.api.setWebhook(
        settings.url,
        { secret_token: settings.secret, allowed_updates: [...ALLOWED_UPDATES] },
        grammySignal(signal),
      );
    } catch (error) {
      if (signal.aborted) return;
      if (error instanceof GrammyError && (error.error_code === 401 || error.error_code === 404)) throw tokenRejectedError(deps.tokenPath);
      throw new Error(`Telegram setWebhook(${redactUrl(settings.url)}) failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    log.info(`webhook listening on ${address.address}:${address.port}${settings.path}; Telegram posts to ${redactUrl(settings.url)}`);
    deps.status({ state: "connected" });
    await closed;
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    try {
      await deps.api.deleteWebhook({}, grammySignal(AbortSignal.timeout(5000)));
    } catch (error) {
      log.warn(`deleteWebhook failed while stopping: ${String(error)}`);
    }
  }
}
