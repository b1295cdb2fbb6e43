import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { Lark } from "./__fixtures__/sdk.js";
import { type FakeFeishu, startFakeFeishu } from "./index.js";

const keys = { encryptKey: "enc-key-123", verificationToken: "verify-token-456" };
const quiet = { error() {}, warn() {}, info() {}, debug() {}, trace() {} };

let fake: FakeFeishu;
let server: Server | undefined;
afterEach(async () => {
  await fake?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function listen(handler: (req: IncomingMessage, res: import("node:http").ServerResponse) => void): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/feishu/events`;
}

/** The SDK's own webhook receiver: signature check, decryption, challenge. */
async function sdkWebhook() {
  const received: Array<Record<string, unknown>> = [];
  const dispatcher = new Lark.EventDispatcher({ ...keys, logger: quiet }).register({
    "im.message.receive_v1": async (data: Record<string, unknown>) => {
      received.push(data);
    },
  });
  const url = await listen(Lark.adaptDefault("/feishu/events", dispatcher, { autoChallenge: true }));
  return { url, received };
}

describe("fake Feishu: webhook pushes, as the platform signs and encrypts them", () => {
  it("an event push passes the SDK's signature check and decrypts to the event", async () => {
    fake = await startFakeFeishu();
    const { url, received } = await sdkWebhook();
    const event = fake.eventFor({ openId: "ou_alice", chatId: "oc_w", chatType: "group", text: "via webhook" }) as {
      header: { event_id: string };
    };
    const res = await fake.pushWebhook(url, event, keys);
    expect(res.status).toBe(200);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ event_id: event.header.event_id, token: keys.verificationToken, message: { chat_id: "oc_w" } });
  });

  it("a push with a bad signature is refused by the SDK's check", async () => {
    fake = await startFakeFeishu();
    const { url, received } = await sdkWebhook();
    await fake.pushWebhook(url, fake.eventFor({ openId: "ou_alice", text: "forged" }), keys, { badSignature: true });
    expect(received).toEqual([]);
  });

  it("url_verification comes encrypted and unsigned, and the SDK answers its challenge", async () => {
    fake = await startFakeFeishu();
    const { url } = await sdkWebhook();
    const { response, challenge } = await fake.pushUrlVerification(url, keys);
    expect(await response.json()).toEqual({ challenge });

    const seen: IncomingMessage["headers"][] = [];
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    const rawUrl = await listen((req, res) => {
      seen.push(req.headers);
      res.end("{}");
    });
    await fake.pushUrlVerification(rawUrl, keys);
    expect(seen[0]!["x-lark-signature"]).toBeUndefined();
    expect(seen[0]!["x-lark-request-timestamp"]).toBeUndefined();
  });

  it("the wire body is {encrypt} with a fresh IV each push; the headers sign timestamp + nonce + key + body", async () => {
    fake = await startFakeFeishu();
    const seen: Array<{ headers: IncomingMessage["headers"]; raw: string }> = [];
    const url = await listen(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      seen.push({ headers: req.headers, raw: Buffer.concat(chunks).toString() });
      res.end("{}");
    });
    const event = fake.eventFor({ openId: "ou_bob", text: "same event twice" });
    await fake.pushWebhook(url, event, keys);
    await fake.pushWebhook(url, event, keys);
    const cipher = new Lark.AESCipher(keys.encryptKey);
    for (const { headers, raw } of seen) {
      const body = JSON.parse(raw) as { encrypt: string };
      expect(Object.keys(body)).toEqual(["encrypt"]);
      expect(JSON.parse(cipher.decrypt(body.encrypt))).toEqual({
        ...event,
        header: { ...(event as { header: object }).header, token: keys.verificationToken },
      });
      const ts = headers["x-lark-request-timestamp"] as string;
      const nonce = headers["x-lark-request-nonce"] as string;
      expect(headers["x-lark-signature"]).toBe(
        createHash("sha256")
          .update(ts + nonce + keys.encryptKey + raw)
          .digest("hex"),
      );
      expect(Math.abs(Number(ts) * 1000 - Date.now())).toBeLessThan(60_000);
    }
    const ivs = seen.map(({ raw }) =>
      Buffer.from((JSON.parse(raw) as { encrypt: string }).encrypt, "base64")
        .subarray(0, 16)
        .toString("hex"),
    );
    expect(ivs[0]).not.toBe(ivs[1]);
  });
});
