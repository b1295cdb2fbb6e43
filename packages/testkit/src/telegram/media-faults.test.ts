import { afterEach, describe, expect, it } from "vitest";
import { startFakeTelegram, type FakeTelegram } from "../index.js";
import { ann, api } from "./__fixtures__/http.js";

const fakes: FakeTelegram[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

async function open(options?: Parameters<typeof startFakeTelegram>[0]): Promise<FakeTelegram> {
  const fake = await startFakeTelegram(options);
  fakes.push(fake);
  return fake;
}

/** A multipart body in grammY's own style: attach:// reference, bare header names, unquoted file name. */
function grammyStyleBody(boundary: string, fields: Record<string, string>, file: { id: string; name: string; data: Buffer }): Buffer {
  const parts: Buffer[] = [Buffer.from(`--${boundary}\r\n`)];
  const separator = Buffer.from(`\r\n--${boundary}\r\n`);
  for (const [key, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`content-disposition:form-data;name="${key}"\r\n\r\n${value}`), separator);
  }
  parts.push(
    Buffer.from(`content-disposition:form-data;name="${file.id}";filename=${file.name}\r\ncontent-type:application/octet-stream\r\n\r\n`),
  );
  parts.push(file.data, Buffer.from(`\r\n--${boundary}--\r\n`));
  return Buffer.concat(parts);
}

describe("fake Telegram: files", () => {
  it("takes a multipart photo upload, serves it back via getFile, and reuses its file_id", async () => {
    const fake = await open();
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4, 5, 6]);
    const form = new FormData();
    form.set("chat_id", "42");
    form.set("caption", "<b>chart</b>");
    form.set("parse_mode", "HTML");
    form.set("reply_parameters", JSON.stringify({ message_id: 999, allow_sending_without_reply: true }));
    form.set("photo", new Blob([bytes], { type: "image/png" }), "chart.png");
    const res = await fetch(`${fake.apiRoot}/bot${fake.token}/sendPhoto`, { method: "POST", body: form });
    const body = (await res.json()) as any;
    expect(res.status).toBe(200);
    expect(body.result).toMatchObject({
      caption: "chart",
      caption_entities: [{ type: "bold", offset: 0, length: 5 }],
      photo: [{ file_size: 10 }],
    });
    expect(fake.calls[0]).toMatchObject({
      method: "sendPhoto",
      params: { chat_id: "42", photo: { field: "photo", fileName: "chart.png", mimeType: "image/png", size: 10 } },
      uploads: [{ field: "photo", fileName: "chart.png", size: 10 }],
    });

    const fileId = body.result.photo[0].file_id as string;
    const file = (await api(fake, "getFile", { file_id: fileId })).body.result;
    expect(file).toMatchObject({ file_id: fileId, file_size: 10, file_path: expect.stringMatching(/^photos\//) });
    const download = await fetch(`${fake.apiRoot}/file/bot${fake.token}/${file.file_path}`);
    expect(download.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await download.arrayBuffer())).toEqual(bytes);

    const again = await api(fake, "sendPhoto", { chat_id: 42, photo: fileId });
    expect(again.body.result.photo[0].file_id).toBe(fileId);
    expect((await api(fake, "sendPhoto", { chat_id: 42, photo: "no-such-file" })).body.description).toBe(
      "Bad Request: wrong file identifier/HTTP URL specified",
    );
    expect((await api(fake, "getFile", { file_id: "nope" })).body.description).toBe("Bad Request: invalid file_id");
    expect(fake.chat(42).map((m) => m.caption ?? "")).toEqual(["chart", ""]);
  });

  it("parses grammY's multipart style for documents", async () => {
    const fake = await open();
    const boundary = "----------abcdef0123456789";
    const data = Buffer.from("report body");
    const body = grammyStyleBody(
      boundary,
      { chat_id: "42", document: "attach://k9x2", caption: "the report" },
      { id: "k9x2", name: "report v2.txt", data },
    );
    const res = await fetch(`${fake.apiRoot}/bot${fake.token}/sendDocument`, {
      method: "POST",
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
      body,
    });
    const result = ((await res.json()) as any).result;
    expect(result.document).toMatchObject({ file_name: "report v2.txt", mime_type: "text/plain", file_size: data.length });
    expect(result.caption).toBe("the report");
    expect(fake.calls[0]!.params).toEqual({
      chat_id: "42",
      caption: "the report",
      document: { field: "document", fileName: "report v2.txt", mimeType: "application/octet-stream", size: 11 },
    });
  });

  it("lets the bot download a photo a user sent", async () => {
    const fake = await open();
    const update = fake.sendUserMessage({ ...ann, text: "look", photo: { data: "jpeg-bytes", width: 10, height: 20 } });
    expect(update.message).toMatchObject({ caption: "look", photo: [{ width: 10, height: 20, file_size: 10 }] });
    const file = (await api(fake, "getFile", { file_id: update.message!.photo![0]!.file_id })).body.result;
    expect(await (await fetch(`${fake.apiRoot}/file/bot${fake.token}/${file.file_path}`)).text()).toBe("jpeg-bytes");
  });
});

describe("fake Telegram: faults and flood control", () => {
  it("answers injected 429s with retry_after, then recovers", async () => {
    const fake = await open();
    fake.inject429({ method: "sendMessage", count: 2, retryAfter: 7 });
    const expected = { ok: false, error_code: 429, description: "Too Many Requests: retry after 7", parameters: { retry_after: 7 } };
    expect(await api(fake, "sendMessage", { chat_id: 1, text: "a" })).toEqual({ status: 429, body: expected });
    expect((await api(fake, "getMe")).body.ok).toBe(true);
    expect((await api(fake, "sendMessage", { chat_id: 1, text: "a" })).body).toEqual(expected);
    expect((await api(fake, "sendMessage", { chat_id: 1, text: "a" })).body.ok).toBe(true);
    expect(fake.chat(1)).toHaveLength(1);
  });

  it("injects arbitrary errors", async () => {
    const fake = await open();
    fake.injectError({ method: "editMessageText", count: 1, error_code: 400, description: "Bad Request: message thread not found" });
    expect(await api(fake, "editMessageText", { chat_id: 1, message_id: 1, text: "x" })).toEqual({
      status: 400,
      body: { ok: false, error_code: 400, description: "Bad Request: message thread not found" },
    });
  });

  it("drops connections before or after the call takes effect", async () => {
    const fake = await open();
    fake.dropConnections({ method: "sendMessage", count: 1 });
    await expect(api(fake, "sendMessage", { chat_id: 3, text: "lost" })).rejects.toThrow();
    expect(fake.chat(3)).toEqual([]);
    fake.dropConnections({ method: "sendMessage", count: 1, applyFirst: true });
    await expect(api(fake, "sendMessage", { chat_id: 3, text: "landed" })).rejects.toThrow();
    expect(fake.chat(3).map((m) => m.text)).toEqual(["landed"]);
    expect(fake.calls.map((c) => c.outcome)).toEqual(["dropped", "dropped"]);
    expect((await api(fake, "sendMessage", { chat_id: 3, text: "fine" })).body.ok).toBe(true);
  });

  it("enforces a per-chat burst and rate when asked to", async () => {
    const fake = await open({ enforceRateLimit: { perChatPerSecond: 1, burst: 3 } });
    const results = [];
    for (let i = 0; i < 4; i += 1) results.push(await api(fake, "sendMessage", { chat_id: 9, text: `m${i}` }));
    expect(results.slice(0, 3).every((r) => r.body.ok)).toBe(true);
    expect(results[3]).toEqual({
      status: 429,
      body: { ok: false, error_code: 429, description: "Too Many Requests: retry after 1", parameters: { retry_after: 1 } },
    });
    // Another chat has its own budget; chat actions do not count.
    expect((await api(fake, "sendMessage", { chat_id: 10, text: "other" })).body.ok).toBe(true);
    expect((await api(fake, "sendChatAction", { chat_id: 9, action: "typing" })).body.ok).toBe(true);
    fake.setRateLimit(false);
    expect((await api(fake, "sendMessage", { chat_id: 9, text: "free" })).body.ok).toBe(true);
  });

  it("delays answers with setLatency", async () => {
    const fake = await open();
    fake.setLatency(150);
    const started = Date.now();
    await api(fake, "getMe");
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });
});

describe("fake Telegram: observation", () => {
  it("waitForCall sees past and future calls; reset forgets state but keeps update ids rising", async () => {
    const fake = await open();
    await api(fake, "sendMessage", { chat_id: 1, text: "early" });
    expect((await fake.waitForCall("sendmessage")).params.text).toBe("early");
    const later = fake.waitForCall("sendMessage", (c) => c.params.text === "late");
    await api(fake, "sendMessage", { chat_id: 1, text: "late" });
    expect((await later).index).toBe(1);
    await expect(fake.waitForCall("deleteMessage", undefined, 50)).rejects.toThrow(/timed out after 50 ms.*sendMessage\(ok\)/);

    const before = fake.sendUserMessage({ ...ann, text: "x" }).update_id;
    fake.inject429({ count: 5, retryAfter: 1 });
    fake.reset();
    expect(fake.calls).toEqual([]);
    expect(fake.chat(1)).toEqual([]);
    expect(fake.pendingUpdates()).toEqual([]);
    expect((await api(fake, "getMe")).body.ok).toBe(true);
    expect(fake.sendUserMessage({ ...ann, text: "y" }).update_id).toBeGreaterThan(before);
  });

  it("close() answers a held long poll with an empty list", async () => {
    const fake = await startFakeTelegram();
    const poll = api(fake, "getUpdates", { timeout: 30 });
    await fake.waitFor(() => fake.isPolling);
    await fake.close();
    expect((await poll).body).toEqual({ ok: true, result: [] });
  });
});
