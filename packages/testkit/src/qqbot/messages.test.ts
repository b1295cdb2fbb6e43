import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FakeQQBot } from "../index.js";
import { startFakeQQBot } from "../index.js";
import { api, token } from "./__fixtures__/bot-client.js";

let fake: FakeQQBot;
let tok: string;

beforeEach(async () => {
  fake = await startFakeQQBot({ passiveReplyLimit: 3 });
  tok = await token(fake);
});

afterEach(async () => {
  await fake.close();
});

const post = (path: string, body: unknown) => api(fake, tok, "POST", path, body);
const c2c = (body: unknown) => post("/v2/users/U1/messages", body);

describe("fake QQ Bot: text sends", () => {
  it("records a passive C2C reply and answers {id, timestamp}", async () => {
    const msgId = fake.userSendsC2C({ openid: "U1", content: "hi" });
    const res = await c2c({ content: "hello", msg_type: 0, msg_id: msgId, msg_seq: 1, message_reference: { message_id: msgId } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: expect.any(String), timestamp: expect.any(String) });
    expect(fake.c2cMessages("U1")).toEqual([{ id: res.body.id, kind: "text", content: "hello", replyTo: msgId, msgSeq: 1, quoted: msgId }]);
    expect(fake.passiveRepliesUsed(msgId)).toBe(1);
  });

  it("takes proactive sends without msg_id and msg_seq", async () => {
    expect((await c2c({ content: "news", msg_type: 0 })).status).toBe(200);
    expect(fake.c2cMessages("U1")).toEqual([{ id: expect.any(String), kind: "text", content: "news" }]);
  });

  it("keeps group, channel and DM sends apart", async () => {
    const g = fake.userSendsGroupAt({ groupOpenid: "G1", memberOpenid: "M1", content: "hi" });
    const ch = fake.userSendsGuildAt({ channelId: "C1", guildId: "GD", authorId: "A", content: "hi" });
    const dm = fake.userSendsDirect({ guildId: "GD2", authorId: "A", content: "hi" });
    expect((await post("/v2/groups/G1/messages", { content: "g", msg_type: 0, msg_id: g, msg_seq: 1 })).status).toBe(200);
    expect((await post("/channels/C1/messages", { content: "c", msg_id: ch, msg_seq: 1 })).status).toBe(200);
    expect((await post("/dms/GD2/messages", { content: "d", msg_id: dm, msg_seq: 1 })).status).toBe(200);
    expect(fake.groupMessages("G1").map((m) => m.content)).toEqual(["g"]);
    expect(fake.channelMessages("C1").map((m) => m.content)).toEqual(["c"]);
    expect(fake.directMessages("GD2").map((m) => m.content)).toEqual(["d"]);
    expect(fake.c2cMessages("U1")).toEqual([]);
  });

  it("takes 5000 characters and refuses 5001", async () => {
    expect((await c2c({ content: "字".repeat(5000), msg_type: 0 })).status).toBe(200);
    const res = await c2c({ content: "x".repeat(5001), msg_type: 0 });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(50035);
    expect(fake.c2cMessages("U1")).toHaveLength(1);
  });

  it("refuses empty content", async () => {
    expect((await c2c({ content: "  ", msg_type: 0 })).body.code).toBe(50006);
  });

  it("requires msg_seq with msg_id", async () => {
    const msgId = fake.userSendsC2C({ openid: "U1", content: "hi" });
    const res = await c2c({ content: "x", msg_type: 0, msg_id: msgId });
    expect(res).toMatchObject({ status: 400, body: { code: 12002 } });
    expect(fake.passiveRepliesUsed(msgId)).toBe(0);
  });

  it("refuses a repeated (msg_id, msg_seq) as a duplicate", async () => {
    const msgId = fake.userSendsC2C({ openid: "U1", content: "hi" });
    expect((await c2c({ content: "a", msg_type: 0, msg_id: msgId, msg_seq: 7 })).status).toBe(200);
    const again = await c2c({ content: "b", msg_type: 0, msg_id: msgId, msg_seq: 7 });
    expect(again).toMatchObject({ status: 400, body: { code: 40054005 } });
    expect(fake.c2cMessages("U1").map((m) => m.content)).toEqual(["a"]);
    expect(fake.passiveRepliesUsed(msgId)).toBe(1);
  });

  it("refuses passive replies past the limit per msg_id; proactive sends still go", async () => {
    const msgId = fake.userSendsC2C({ openid: "U1", content: "hi" });
    for (const seq of [1, 2, 3]) expect((await c2c({ content: `r${seq}`, msg_type: 0, msg_id: msgId, msg_seq: seq })).status).toBe(200);
    const fourth = await c2c({ content: "r4", msg_type: 0, msg_id: msgId, msg_seq: 4 });
    expect(fourth).toMatchObject({ status: 400, body: { code: 22009 } });
    expect(fake.passiveRepliesUsed(msgId)).toBe(3);
    expect((await c2c({ content: "proactive", msg_type: 0 })).status).toBe(200);
    const other = fake.userSendsC2C({ openid: "U1", content: "again" });
    expect((await c2c({ content: "r", msg_type: 0, msg_id: other, msg_seq: 1 })).status).toBe(200);
  });

  it("refuses a msg_id that is unknown or from another conversation", async () => {
    const otherUser = fake.userSendsC2C({ openid: "U2", content: "hi" });
    expect((await c2c({ content: "x", msg_type: 0, msg_id: "nope", msg_seq: 1 })).body.code).toBe(304026);
    expect((await c2c({ content: "x", msg_type: 0, msg_id: otherUser, msg_seq: 1 })).body.code).toBe(304026);
  });

  it("sends markdown (msg_type 2) and refuses empty markdown", async () => {
    const msgId = fake.userSendsC2C({ openid: "U1", content: "hi" });
    expect((await c2c({ markdown: { content: "**bold**" }, msg_type: 2, msg_id: msgId, msg_seq: 1 })).status).toBe(200);
    expect((await c2c({ markdown: { content: "" }, msg_type: 2, msg_id: msgId, msg_seq: 2 })).body.code).toBe(50041);
    expect((await c2c({ markdown: { content: "y".repeat(5001) }, msg_type: 2 })).body.code).toBe(50035);
    expect(fake.c2cMessages("U1")).toEqual([{ id: expect.any(String), kind: "markdown", content: "**bold**", replyTo: msgId, msgSeq: 1 }]);
  });

  it("counts typing (msg_type 6) as a passive reply, not a message, and only in C2C", async () => {
    const msgId = fake.userSendsC2C({ openid: "U1", content: "hi" });
    const typing = { msg_type: 6, input_notify: { input_type: 1, input_second: 10 }, msg_id: msgId, msg_seq: 1 };
    expect((await c2c(typing)).status).toBe(200);
    expect((await c2c(typing)).body.code).toBe(40054005);
    expect(fake.typingNotices("U1")).toBe(1);
    expect(fake.passiveRepliesUsed(msgId)).toBe(1);
    expect(fake.c2cMessages("U1")).toEqual([]);
    const g = fake.userSendsGroupAt({ groupOpenid: "G1", memberOpenid: "M1", content: "hi" });
    expect((await post("/v2/groups/G1/messages", { ...typing, msg_id: g })).status).toBe(400);
  });

  it("refuses an unknown msg_type", async () => {
    expect((await c2c({ content: "x", msg_type: 99 })).status).toBe(400);
  });
});
