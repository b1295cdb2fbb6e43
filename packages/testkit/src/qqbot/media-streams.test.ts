import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FakeQQBot } from "../index.js";
import { startFakeQQBot } from "../index.js";
import { api, token } from "./__fixtures__/bot-client.js";

let fake: FakeQQBot;
let tok: string;
let msgId: string;

beforeEach(async () => {
  fake = await startFakeQQBot({ passiveReplyLimit: 2 });
  tok = await token(fake);
  msgId = fake.userSendsC2C({ openid: "U1", content: "hi" });
});

afterEach(async () => {
  await fake.close();
});

const post = (path: string, body: unknown) => api(fake, tok, "POST", path, body);
const png = Buffer.alloc(321, 7).toString("base64");

describe("fake QQ Bot: media", () => {
  it("uploads file_data, then sends it with msg_type 7", async () => {
    const up = await post("/v2/users/U1/files", { file_type: 4, file_data: png, srv_send_msg: false, file_name: "a.bin" });
    expect(up.body).toMatchObject({ file_uuid: expect.any(String), file_info: expect.any(String), ttl: expect.any(Number) });
    expect(fake.c2cMessages("U1")).toEqual([]);
    const sent = await post("/v2/users/U1/messages", { msg_type: 7, media: { file_info: up.body.file_info }, msg_id: msgId, msg_seq: 1 });
    expect(sent.status).toBe(200);
    expect(fake.c2cMessages("U1")).toEqual([
      { id: sent.body.id, kind: "media", content: "", replyTo: msgId, msgSeq: 1, media: { fileType: 4, fileName: "a.bin", bytes: 321 } },
    ]);
    expect(fake.passiveRepliesUsed(msgId)).toBe(1);
  });

  it("fetches a url upload to learn its size, and refuses a url that does not answer", async () => {
    const files: Server = createServer((req, res) => {
      if (req.url === "/ok.png") res.end(Buffer.alloc(1000));
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => files.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
    try {
      const up = await post("/v2/groups/G1/files", { file_type: 1, url: `${base}/ok.png`, srv_send_msg: false });
      expect(up.status).toBe(200);
      expect((await post("/v2/groups/G1/messages", { msg_type: 7, media: { file_info: up.body.file_info } })).status).toBe(200);
      expect(fake.groupMessages("G1")[0]!.media).toEqual({ fileType: 1, bytes: 1000 });
      const missing = await post("/v2/groups/G1/files", { file_type: 1, url: `${base}/missing.png`, srv_send_msg: false });
      expect(missing).toMatchObject({ status: 400, body: { code: 304021 } });
    } finally {
      await new Promise((resolve) => files.close(resolve));
    }
  });

  it("sends at once with srv_send_msg: true", async () => {
    const up = await post("/v2/users/U1/files", { file_type: 1, file_data: png, srv_send_msg: true });
    expect(fake.c2cMessages("U1")).toEqual([{ id: up.body.id, kind: "media", content: "", media: { fileType: 1, bytes: 321 } }]);
  });

  it("refuses bad uploads and a file_info that is unknown or issued for another chat", async () => {
    expect((await post("/v2/users/U1/files", { file_type: 9, file_data: png })).body.code).toBe(12002);
    expect((await post("/v2/users/U1/files", { file_type: 1 })).body.code).toBe(12002);
    const other = await post("/v2/users/U2/files", { file_type: 1, file_data: png, srv_send_msg: false });
    for (const fileInfo of ["nope", other.body.file_info]) {
      const res = await post("/v2/users/U1/messages", { msg_type: 7, media: { file_info: fileInfo }, msg_id: msgId, msg_seq: 1 });
      expect(res).toMatchObject({ status: 400, body: { code: 304016 } });
    }
    expect(fake.passiveRepliesUsed(msgId)).toBe(0);
  });
});

describe("fake QQ Bot: C2C stream_messages", () => {
  const chunk = (extra: Record<string, unknown>) =>
    post("/v2/users/U1/stream_messages", {
      input_mode: "replace",
      input_state: 1,
      content_type: "markdown",
      msg_id: msgId,
      msg_seq: 5,
      ...extra,
    });

  it("opens a session on index 0, takes rising indexes with the stream id, and closes on state 10", async () => {
    const first = await chunk({ content_raw: "Hel", index: 0 });
    expect(first.status).toBe(200);
    const streamMsgId = first.body.id as string;
    expect((await chunk({ content_raw: "Hello", index: 1, stream_msg_id: streamMsgId })).status).toBe(200);
    expect((await chunk({ content_raw: "Hello!", index: 2, stream_msg_id: streamMsgId, input_state: 10 })).status).toBe(200);
    expect(fake.streams("U1")).toEqual([
      {
        streamMsgId,
        msgId,
        msgSeq: 5,
        chunks: [
          { index: 0, state: 1, contentRaw: "Hel" },
          { index: 1, state: 1, contentRaw: "Hello" },
          { index: 2, state: 10, contentRaw: "Hello!" },
        ],
        done: true,
        text: "Hello!",
      },
    ]);
    expect(fake.passiveRepliesUsed(msgId)).toBe(1);
    const late = await chunk({ content_raw: "Hello!!", index: 3, stream_msg_id: streamMsgId });
    expect(late).toMatchObject({ status: 400, body: { code: 40034030 } });
  });

  it("refuses chunks that break the session rules", async () => {
    expect((await chunk({ content_raw: "x", index: 1 })).body.code).toBe(40034030);
    const id = (await chunk({ content_raw: "a", index: 0 })).body.id;
    expect((await chunk({ content_raw: "ab", index: 2, stream_msg_id: id })).body.code).toBe(40034030);
    expect((await chunk({ content_raw: "ab", index: 1, stream_msg_id: id, msg_seq: 6 })).body.code).toBe(40034030);
    expect((await chunk({ content_raw: "ab", index: 1, stream_msg_id: "nope" })).body.code).toBe(40034030);
    expect((await chunk({ content_raw: "ab", index: 1, stream_msg_id: id, input_mode: "append" })).body.code).toBe(12002);
    expect((await chunk({ content_raw: "z".repeat(5001), index: 1, stream_msg_id: id })).body.code).toBe(50035);
    expect((await chunk({ content_raw: "ab", index: 1, stream_msg_id: id })).status).toBe(200);
    expect(fake.streams("U1")[0]!.chunks.map((c) => c.index)).toEqual([0, 1]);
  });

  it("spends one passive reply per session and refuses a session past the limit or reusing a msg_seq", async () => {
    expect((await chunk({ content_raw: "a", index: 0 })).status).toBe(200);
    expect((await chunk({ content_raw: "b", index: 0 })).body.code).toBe(40054005);
    expect((await chunk({ content_raw: "b", index: 0, msg_seq: 6 })).status).toBe(200);
    expect((await chunk({ content_raw: "c", index: 0, msg_seq: 7 })).body.code).toBe(22009);
    expect(fake.streams("U1")).toHaveLength(2);
    expect(fake.passiveRepliesUsed(msgId)).toBe(2);
  });
});
