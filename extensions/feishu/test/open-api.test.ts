// The Open API client (src/open-api.ts through FeishuApi) against the fake Feishu Open Platform:
// one tenant token for many calls, renewed 3 minutes before it runs out and at once when the
// platform refuses it; wrong credentials and frequency limits come back as the contract's errors;
// uploads are multipart bodies the platform reads back byte for byte.
import { PermanentSendError, RateLimitedError } from "@openclaw/plugin-sdk";
import { type FakeFeishu, startFakeFeishu } from "@openclaw/testkit/feishu";
import { afterEach, describe, expect, it } from "vitest";
import { FeishuApi } from "../src/api.js";
import { OpenApiClient, TENANT_TOKEN_PATH } from "../src/open-api.js";
import { GROUP_CHAT } from "./helpers.js";

let fake: FakeFeishu | undefined;
let now = Date.UTC(2026, 11, 3);
const clock = () => now;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function setUp(options: { tokenTtlSeconds?: number; appSecret?: string } = {}) {
  fake = await startFakeFeishu({ clock, ...(options.tokenTtlSeconds ? { tokenTtlSeconds: options.tokenTtlSeconds } : {}) });
  const client = new OpenApiClient({
    appId: fake.appId,
    appSecret: options.appSecret ?? fake.appSecret,
    baseUrl: `${fake.baseUrl}/`,
    now: clock,
  });
  return { fake, api: new FeishuApi(client) };
}

const tokenRequests = (f: FakeFeishu) => f.calls.filter((c) => c.path === TENANT_TOKEN_PATH).length;
const send = (api: FeishuApi, text: string) =>
  api.call<{ message_id: string }>(
    "a message",
    "POST",
    "/open-apis/im/v1/messages",
    { receive_id: GROUP_CHAT, msg_type: "text", content: JSON.stringify({ text }) },
    { receive_id_type: "chat_id" },
  );

describe("the tenant access token", () => {
  it("is fetched once for many calls, also when they start together", async () => {
    const { fake, api } = await setUp();
    const sent = await Promise.all(["one", "two", "three"].map((text) => send(api, text)));
    await send(api, "four");
    expect(sent.every((s) => s.message_id.startsWith("om_"))).toBe(true);
    expect(tokenRequests(fake)).toBe(1);
    expect(fake.visibleText(GROUP_CHAT).split("\n").sort()).toEqual(["four", "one", "three", "two"]);
  });

  it("is renewed 3 minutes before the platform says it runs out", async () => {
    const { fake, api } = await setUp({ tokenTtlSeconds: 3600 });
    await send(api, "first");
    now += 3600_000 - 180_000 - 1000;
    await send(api, "still the first token");
    expect(tokenRequests(fake)).toBe(1);
    now += 2000;
    await send(api, "a new token");
    expect(tokenRequests(fake)).toBe(2);
    expect(fake.calls.filter((c) => c.code !== 0)).toEqual([]);
  });

  it("is fetched again when the platform refuses it, and the call goes through once", async () => {
    const { fake, api } = await setUp();
    await send(api, "before");
    fake.expireTokens();
    now += 1;
    const after = await send(api, "after");
    expect(tokenRequests(fake)).toBe(2);
    expect(fake.calls.map((c) => c.code)).toEqual([0, 0, 99991663, 0, 0]);
    expect(fake.message(after.message_id)).toBeDefined();
    expect(fake.visibleText(GROUP_CHAT)).toBe("before\nafter");
  });

  it("refused for wrong credentials: a permanent error that names Feishu's answer", async () => {
    const { fake, api } = await setUp({ appSecret: "not-the-secret" });
    const failure = await send(api, "hello").catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PermanentSendError);
    expect((failure as PermanentSendError).retryable).toBe(false);
    expect((failure as Error).message).toBe(
      "Feishu refused a tenant access token for a message: app secret invalid (code 10014, HTTP 400)",
    );
    expect(fake.messages(GROUP_CHAT)).toEqual([]);
  });
});

describe("errors and uploads", () => {
  it("a frequency limit is a RateLimitedError that waits as long as the platform's reset header says", async () => {
    const { fake, api } = await setUp();
    fake.failNext(/\/open-apis\/im\/v1\/messages/, { code: 99991400 });
    const failure = await send(api, "too fast").catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(RateLimitedError);
    expect((failure as RateLimitedError).retryAfterMs).toBe(1000);
    expect((failure as Error).message).toContain("code 99991400, HTTP 429");
  });

  it("an upload is a multipart body: fields and file arrive as sent, a name with quotes and CJK included", async () => {
    const { fake, api } = await setUp();
    const bytes = Buffer.from([0, 1, 2, 0x0d, 0x0a, 0x2d, 0x2d, 255, 254]);
    const name = '報告 "final".pdf';
    const data = await api.upload<{ file_key?: string }>("a file upload", "/open-apis/im/v1/files", [
      { name: "file_type", value: "pdf" },
      { name: "file_name", value: name },
      { name: "file", file: bytes, fileName: name },
    ]);
    const [upload] = fake.uploads();
    expect(upload?.key).toBe(data.file_key);
    expect(upload?.kind).toBe("file");
    expect(upload?.fields).toMatchObject({ file_type: "pdf", file_name: name });
    expect(Buffer.from(upload!.bytes).equals(bytes)).toBe(true);
  });

  it("an upload the platform refuses is a permanent error naming the field", async () => {
    const { api } = await setUp();
    const failure = await api
      .upload("a file upload", "/open-apis/im/v1/files", [{ name: "file", file: Buffer.from("x"), fileName: "x.bin" }])
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PermanentSendError);
    expect((failure as Error).message).toBe("Feishu refused a file upload: field validation failed: file_type (code 99992402, HTTP 400)");
  });
});
