// Media sent from an http(s) URL: the file is downloaded (the SDK's httpFetch) and uploaded; a
// URL that answers an error status is refused, and nothing is uploaded or sent.
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mergeAccountConfig, PermanentSendError, type SendOptions } from "@openclaw/plugin-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import configEntry from "../src/config.js";
import plugin from "../src/index.js";
import type { LarkClient } from "../src/lark.js";
import { createFeishuOutbound } from "../src/outbound.js";
import type { FeishuApi } from "../src/api.js";

let server: http.Server;
let base: string;

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
});

afterAll(() => {
  server.close();
});

const options = (idempotencyKey: string): SendOptions => ({
  signal: new AbortController().signal,
  priority: "final",
  format: "markdown",
  idempotencyKey,
});

function outbound() {
  const parsed = configEntry.schema.parse({ appId: "cli_x", appSecret: "s" });
  const account = plugin.resolveAccount({
    accountId: "default",
    config: mergeAccountConfig(parsed, "default") as never,
    channel: parsed,
    env: {},
  });
  const uploads: Buffer[] = [];
  const calls: { path: string; body: unknown }[] = [];
  const client = {
    im: {
      image: {
        create: async ({ data }: { data: { image: Buffer } }) => {
          uploads.push(data.image);
          return { image_key: "img_1" };
        },
      },
    },
  } as unknown as LarkClient;
  const api = {
    call: async (_what: string, _method: string, path: string, body?: unknown) => {
      calls.push({ path, body });
      return { message_id: "om_1" };
    },
  } as unknown as FeishuApi;
  return { out: createFeishuOutbound({ account, api, client }), uploads, calls };
}

describe("media from a URL", () => {
  it("is downloaded and uploaded, then sent as an image message", async () => {
    const { out, uploads, calls } = outbound();
    const sent = await out.sendMedia({ chat: { id: "oc_1", kind: "group" } }, { kind: "image", source: `${base}/cat.png` }, options("k1"));
    expect(sent.messageId).toBe("om_1");
    expect(uploads.map((b) => b.toString())).toEqual(["not really a png"]);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body).toMatchObject({ msg_type: "image", content: JSON.stringify({ image_key: "img_1" }) });
  });

  it("is refused when the URL answers an error status: nothing is uploaded or sent", async () => {
    const { out, uploads, calls } = outbound();
    const failure = await out
      .sendMedia({ chat: { id: "oc_1", kind: "group" } }, { kind: "image", source: `${base}/gone.png` }, options("k2"))
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PermanentSendError);
    expect((failure as PermanentSendError).message).toBe(`fetching ${base}/gone.png failed: HTTP 404`);
    expect(uploads).toEqual([]);
    expect(calls).toEqual([]);
  });
});
