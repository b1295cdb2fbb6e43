import { createCipheriv, createHash, randomBytes } from "node:crypto";
import type { FakeFeishuWebhookKeys } from "./types.js";

/** `{"encrypt": base64(iv + AES-256-CBC(json, key = sha256(encryptKey)))}`, PKCS#7 padded, random IV. */
export function encryptBody(plain: string, encryptKey: string): string {
  const key = createHash("sha256").update(encryptKey).digest();
  const iv = randomBytes(16);
  const cipher = createCipheriv("aes-256-cbc", key, iv);
  const encrypted = Buffer.concat([iv, cipher.update(plain, "utf8"), cipher.final()]);
  return JSON.stringify({ encrypt: encrypted.toString("base64") });
}

/** X-Lark-Signature: sha256 hex of timestamp + nonce + encryptKey + raw body. */
export function signBody(timestamp: string, nonce: string, encryptKey: string, rawBody: string): string {
  return createHash("sha256")
    .update(timestamp + nonce + encryptKey + rawBody)
    .digest("hex");
}

/** How a push is signed: as the platform signs event pushes, wrongly, or not at all (URL checks). */
export type Signing = "valid" | "bad" | "none";

/**
 * POSTs an encrypted body to a webhook URL, as the platform's event push does: signed with
 * X-Lark-Request-Timestamp / -Nonce / X-Lark-Signature, except the `url_verification` check, which the
 * platform sends without those headers (the encrypted body and its token are its proof).
 */
export async function postEncrypted(
  url: string,
  plain: object,
  keys: FakeFeishuWebhookKeys,
  nowMs: number,
  signing: Signing,
): Promise<Response> {
  const raw = encryptBody(JSON.stringify(plain), keys.encryptKey);
  const headers: Record<string, string> = {
    "content-type": "application/json; charset=utf-8",
    "user-agent": "Go-http-client/1.1",
    "x-request-id": randomBytes(16).toString("hex"),
  };
  if (signing !== "none") {
    const timestamp = String(Math.floor(nowMs / 1000));
    const nonce = randomBytes(8).toString("hex");
    headers["x-lark-request-timestamp"] = timestamp;
    headers["x-lark-request-nonce"] = nonce;
    headers["x-lark-signature"] = signBody(timestamp, nonce, signing === "bad" ? `${keys.encryptKey}-wrong` : keys.encryptKey, raw);
  }
  return fetch(url, { method: "POST", headers, body: raw });
}

/** The body of the platform's URL check: `{challenge, token, type: "url_verification"}`. */
export function urlVerificationBody(challenge: string, keys: FakeFeishuWebhookKeys): object {
  return { challenge, token: keys.verificationToken, type: "url_verification" };
}
