/**
 * Webhook mode: Feishu POSTs events to `webhookPath` on the gateway's own port. Every request is
 * checked before its body is parsed: the `X-Lark-Signature` (sha256 of timestamp + nonce +
 * encryptKey + raw body) is compared in constant time, and a peer that keeps failing is refused
 * for a while. Payloads are AES-256-CBC encrypted with sha256(encryptKey); `url_verification`
 * is answered with its challenge; an event is answered 200 only after it was handed to core.
 */
import { createDecipheriv, createHash, timingSafeEqual } from "node:crypto";
import type { PluginHttpRequest, PluginHttpResponse, PluginLogger } from "@openclaw/plugin-sdk";

/** Failed signatures tolerated per peer address within `FAILURE_WINDOW_MS` before it is refused. */
export const MAX_FAILURES = 10;
const FAILURE_WINDOW_MS = 60_000;
/** The body limit of the webhook route. */
export const WEBHOOK_BODY_BYTES = 1024 * 1024;

export interface WebhookKeys {
  verificationToken: string;
  encryptKey: string;
}

const json = (status: number, body: unknown): PluginHttpResponse => ({ status, body: JSON.stringify(body) });

/** Constant-time equality of two strings (both hashed first, so lengths do not leak). */
export function sameSecret(a: string, b: string): boolean {
  const x = createHash("sha256").update(a).digest();
  const y = createHash("sha256").update(b).digest();
  return timingSafeEqual(x, y);
}

/** The signature Feishu puts in `X-Lark-Signature`. */
export function signatureOf(timestamp: string, nonce: string, encryptKey: string, body: Uint8Array): string {
  return createHash("sha256")
    .update(timestamp + nonce + encryptKey)
    .update(body)
    .digest("hex");
}

/** Decrypts an `{"encrypt": "..."}` payload: base64(iv[16] + AES-256-CBC(key = sha256(encryptKey))). */
export function decryptPayload(encrypted: string, encryptKey: string): string {
  const raw = Buffer.from(encrypted, "base64");
  if (raw.length < 32) throw new Error("the encrypted payload is too short");
  const key = createHash("sha256").update(encryptKey).digest();
  const decipher = createDecipheriv("aes-256-cbc", key, raw.subarray(0, 16));
  return Buffer.concat([decipher.update(raw.subarray(16)), decipher.final()]).toString("utf8");
}

/** Counts failed signatures per peer in a sliding window. */
class FailureLimiter {
  readonly #failures = new Map<string, number[]>();
  constructor(private readonly now: () => number) {}
  blocked(peer: string): boolean {
    return this.#recent(peer).length >= MAX_FAILURES;
  }
  fail(peer: string): void {
    const list = this.#recent(peer);
    list.push(this.now());
    this.#failures.set(peer, list);
    if (this.#failures.size > 10_000) this.#failures.delete(this.#failures.keys().next().value!);
  }
  #recent(peer: string): number[] {
    const since = this.now() - FAILURE_WINDOW_MS;
    return (this.#failures.get(peer) ?? []).filter((t) => t > since);
  }
}

/**
 * The handler of the webhook route. `onEvent` gets each verified, decrypted event body (schema 2.0:
 * `{header, event}`) and resolves once core recorded it; a rejection answers 500 so Feishu
 * delivers the event again.
 */
export function createWebhookHandler(options: {
  keys: WebhookKeys;
  log: PluginLogger;
  onEvent(body: Record<string, unknown>): Promise<void>;
  now?: () => number;
}): (request: PluginHttpRequest) => Promise<PluginHttpResponse> {
  const { keys, log } = options;
  const limiter = new FailureLimiter(options.now ?? Date.now);
  return async (request) => {
    if (request.method !== "POST") return json(405, { error: "POST only" });
    const peer = request.remoteAddress;
    if (limiter.blocked(peer)) return json(429, { error: "too many bad signatures; try again later" });
    const timestamp = request.headers["x-lark-request-timestamp"];
    const nonce = request.headers["x-lark-request-nonce"];
    const signature = request.headers["x-lark-signature"];
    const signed = timestamp !== undefined && nonce !== undefined && signature !== undefined;
    if (signed && !sameSecret(signatureOf(timestamp, nonce, keys.encryptKey, request.body), signature.toLowerCase())) {
      limiter.fail(peer);
      log.warn(`Feishu webhook: refused a request from ${peer} with a bad signature (check channels.feishu.encryptKey)`);
      return json(401, { error: "bad signature" });
    }
    let body: Record<string, unknown>;
    try {
      const outer = JSON.parse(Buffer.from(request.body).toString("utf8")) as Record<string, unknown>;
      body =
        typeof outer.encrypt === "string" ? (JSON.parse(decryptPayload(outer.encrypt, keys.encryptKey)) as Record<string, unknown>) : outer;
    } catch {
      if (!signed) limiter.fail(peer);
      return json(400, { error: "the body is not a Feishu event (JSON, encrypted with the Encrypt Key)" });
    }
    if (body.type === "url_verification") {
      // The console's check of the URL; it carries the Verification Token, encrypted with the key.
      if (typeof body.token !== "string" || !sameSecret(body.token, keys.verificationToken)) {
        limiter.fail(peer);
        return json(401, { error: "bad verification token" });
      }
      return json(200, { challenge: body.challenge });
    }
    // Anything else must be signed and carry the Verification Token.
    const token = (body.header as { token?: unknown } | undefined)?.token ?? body.token;
    if (!signed || typeof token !== "string" || !sameSecret(token, keys.verificationToken)) {
      limiter.fail(peer);
      log.warn(`Feishu webhook: refused an unsigned request or a wrong verification token from ${peer}`);
      return json(401, { error: "unsigned request or wrong verification token" });
    }
    try {
      await options.onEvent(body);
    } catch (error) {
      log.warn(`Feishu webhook: an event was not taken and will come again: ${(error as Error).message}`);
      return json(500, { error: "not taken; deliver again" });
    }
    return json(200, {});
  };
}
