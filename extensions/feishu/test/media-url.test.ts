// Media sent from an http(s) URL: the file is downloaded (the SDK's httpFetch), uploaded to the
// fake Feishu Open Platform and sent as an image message; a URL that answers an error status is
// refused, and nothing is uploaded or sent.
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mergeAccountConfig, PermanentSendError, type SendOptions } from "@openclaw/plugin-sdk";
import { type FakeFeishu, startFakeFeishu } from "@openclaw/testkit/feishu";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FeishuApi } from "../src/api.js";
import configEntry from "../src/config.js";
import plugin from "../src/index.js";
import { OpenApiClient } from "../src/open-api.js";
import { createFeishuOutbound } from "../src/outbound.js";
import { GROUP_CHAT } from "./helpers.js";

let server: http.Server;
let base: string;
let fake: FakeFeishu;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === "/cat.png") {
      res.writeHead(200, { "content-type": "image/png" });
      res.end(Buffer.from("not really a png"));
    } else {
      res.writeHead(404);
      res.end("no such file");
    }
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake = await startFakeFeishu();
});

afterAll(async () => {
  server.close();
  await fake.close();
});

const options = (idempotencyKey: string): SendOptions => ({
  signal: new AbortController().signal,
  priority: "final",
  format: "markdown",
  idempotencyKey,
});

function outbound() {
  const parsed = configEntry.schema.parse({ appId: fake.appId, appSecret: fake.appSecret, domain: fake.baseUrl });
  const account = plugin.resolveAccount({
    accountId: "default",
    config: mergeAccountConfig(parsed, "default") as never,
    channel: parsed,
    env: {},
  });
  const api = new FeishuApi(new OpenApiClient({ appId: fake.appId, appSecret: fake.appSecret, baseUrl: fake.baseUrl }));
  return createFeishuOutbound({ account, api });
}

describe("media from a URL", () => {
  it("is downloaded and uploaded, then sent as an image message", async () => {
    const sent = await outbound().sendMedia(
      { chat: { id: GROUP_CHAT, kind: "group" } },
      { kind: "image", source: `${base}/cat.png` },
      options("k1"),
    );
    const uploads = fake.uploads();
    expect(uploads.map((u) => [u.kind, Buffer.from(u.bytes).toString(), u.fields.image_type])).toEqual([
      ["image", "not really a png", "message"],
    ]);
    const message = fake.message(sent.messageId);
    expect(message?.msgType).toBe("image");
    expect(message?.content).toEqual({ image_key: uploads[0]!.key });
  });

  it("is refused when the URL answers an error status: nothing is uploaded or sent", async () => {
    const before = { uploads: fake.uploads().length, messages: fake.messages(GROUP_CHAT).length };
    const failure = await outbound()
      .sendMedia({ chat: { id: GROUP_CHAT, kind: "group" } }, { kind: "image", source: `${base}/gone.png` }, options("k2"))
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PermanentSendError);
    expect((failure as PermanentSendError).message).toBe(`fetching ${base}/gone.png failed: HTTP 404`);
    expect(fake.uploads()).toHaveLength(before.uploads);
    expect(fake.messages(GROUP_CHAT)).toHaveLength(before.messages);
  });
});
