import { afterEach, describe, expect, it } from "vitest";
import { dmChatId, type FakeFeishu, startFakeFeishu } from "./index.js";
import { errorCode, errorResponse, sdkClient } from "./__fixtures__/sdk.js";

let fake: FakeFeishu;
afterEach(async () => fake?.close());

const text = (t: string) => JSON.stringify({ text: t });

describe("fake Feishu: the real SDK Client", () => {
  it("gets a tenant token, the bot's identity and sends a text message a person sees", async () => {
    fake = await startFakeFeishu({ botOpenId: "ou_bot1", botName: "Helper" });
    const client = sdkClient(fake);
    const info = (await client.request({ url: "/open-apis/bot/v3/info", method: "GET" })) as {
      code: number;
      bot: { open_id: string; app_name: string };
    };
    expect(info.code).toBe(0);
    expect(info.bot).toMatchObject({ open_id: "ou_bot1", app_name: "Helper" });

    const sent = await client.im.message.create({
      params: { receive_id_type: "chat_id" },
      data: { receive_id: "oc_team", msg_type: "text", content: text("hello team") },
    });
    expect(sent.code).toBe(0);
    expect(sent.data?.message_id).toMatch(/^om_/);
    expect(sent.data?.chat_id).toBe("oc_team");
    expect(fake.visibleText("oc_team")).toBe("hello team");
    expect(fake.calls.map((c) => `${c.method} ${c.path.split("?")[0]}`)).toEqual([
      "POST /open-apis/auth/v3/tenant_access_token/internal",
      "GET /open-apis/bot/v3/info",
      "POST /open-apis/im/v1/messages",
    ]);
  });

  it("refuses a wrong app secret and requests without a valid token", async () => {
    // Its own app id: the SDK caches tokens per app id for the whole process.
    fake = await startFakeFeishu({ appId: "cli_00000000000000ad" });
    const wrong = sdkClient({ ...fake, appSecret: "nope" });
    expect(
      await errorCode(
        wrong.im.message.create({
          params: { receive_id_type: "chat_id" },
          data: { receive_id: "oc_x", msg_type: "text", content: text("x") },
        }),
      ),
    ).toBe(10014);
    const res = await fetch(`${fake.baseUrl}/open-apis/bot/v3/info`, { headers: { authorization: "Bearer t-forged_00" } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: number }).code).toBe(99991663);
  });

  it("sends to a user's open_id into their DM, replies in a thread, edits, recalls", async () => {
    fake = await startFakeFeishu();
    const client = sdkClient(fake);
    const { messageId } = await fake.userSends({ openId: "ou_alice", text: "hi bot" });
    const dm = await client.im.message.create({
      params: { receive_id_type: "open_id" },
      data: { receive_id: "ou_alice", msg_type: "text", content: text("first") },
    });
    const reply = await client.im.message.reply({
      path: { message_id: messageId },
      data: { msg_type: "text", content: text("threaded"), reply_in_thread: true },
    });
    expect(reply.data).toMatchObject({ root_id: messageId, parent_id: messageId, chat_id: dmChatId("ou_alice") });
    expect(reply.data?.thread_id).toMatch(/^omt_/);

    await client.im.message.update({
      path: { message_id: dm.data!.message_id! },
      data: { msg_type: "text", content: text("first, edited") },
    });
    await client.im.message.delete({ path: { message_id: reply.data!.message_id! } });
    expect(fake.visibleText(dmChatId("ou_alice"))).toBe("first, edited");
    const mine = fake.messages(dmChatId("ou_alice")).filter((m) => m.senderId === "bot");
    expect(mine.map((m) => [m.updates, m.deleted])).toEqual([
      [1, false],
      [0, true],
    ]);
    expect(await errorCode(client.im.message.delete({ path: { message_id: reply.data!.message_id! } }))).toBe(230011);
  });

  it("posts rich text and patches a raw card message; visibleText shows post text and card markdown", async () => {
    fake = await startFakeFeishu();
    const client = sdkClient(fake);
    const post = { zh_cn: { content: [[{ tag: "md", text: "**bold** answer" }], [{ tag: "text", text: "line two" }]] } };
    await client.im.message.create({
      params: { receive_id_type: "chat_id" },
      data: { receive_id: "oc_c", msg_type: "post", content: JSON.stringify(post) },
    });
    const card = (md: string) => JSON.stringify({ schema: "2.0", body: { elements: [{ tag: "markdown", content: md }] } });
    const sent = await client.im.message.create({
      params: { receive_id_type: "chat_id" },
      data: { receive_id: "oc_c", msg_type: "interactive", content: card("v1") },
    });
    await client.im.message.patch({ path: { message_id: sent.data!.message_id! }, data: { content: card("v2") } });
    const v1Card = { elements: [{ tag: "div", text: { tag: "lark_md", content: "schema 1 body" } }, { tag: "hr" }] };
    await client.im.message.create({
      params: { receive_id_type: "chat_id" },
      data: { receive_id: "oc_c", msg_type: "interactive", content: JSON.stringify(v1Card) },
    });
    expect(fake.visibleText("oc_c")).toBe("**bold** answer\nline two\nv2\nschema 1 body");
    expect(await errorCode(client.im.message.patch({ path: { message_id: "om_missing" }, data: { content: card("x") } }))).toBe(230011);
  });

  it("adds and removes reactions", async () => {
    fake = await startFakeFeishu();
    const client = sdkClient(fake);
    const { messageId } = await fake.userSends({ openId: "ou_bob", text: "hello" });
    const added = await client.im.messageReaction.create({
      path: { message_id: messageId },
      data: { reaction_type: { emoji_type: "Typing" } },
    });
    expect(added.data?.reaction_type?.emoji_type).toBe("Typing");
    await client.im.messageReaction.delete({ path: { message_id: messageId, reaction_id: added.data!.reaction_id! } });
    expect(fake.reactions(messageId)).toEqual([{ reactionId: added.data!.reaction_id, emojiType: "Typing", removed: true }]);
    expect(
      await errorCode(client.im.messageReaction.delete({ path: { message_id: messageId, reaction_id: added.data!.reaction_id! } })),
    ).toBe(231003);
  });

  it("uploads an image and a file, sends them, and serves a user's image from its message", async () => {
    fake = await startFakeFeishu();
    const client = sdkClient(fake);
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const image = await client.im.image.create({ data: { image_type: "message", image: png } });
    const file = await client.im.file.create({ data: { file_type: "pdf", file_name: "report.pdf", file: Buffer.from("%PDF-1.4 fake") } });
    expect(image?.image_key).toMatch(/^img_v3_/);
    expect(file?.file_key).toMatch(/^file_v3_/);
    expect(fake.uploads().map((u) => [u.kind, Buffer.from(u.bytes).toString("latin1"), u.fields.file_name])).toEqual([
      ["image", png.toString("latin1"), undefined],
      ["file", "%PDF-1.4 fake", "report.pdf"],
    ]);
    const sent = await client.im.message.create({
      params: { receive_id_type: "chat_id" },
      data: { receive_id: "oc_m", msg_type: "image", content: JSON.stringify({ image_key: image!.image_key }) },
    });
    expect(sent.code).toBe(0);
    const again = await client.im.image.get({ path: { image_key: image!.image_key! } });
    const back: Buffer[] = [];
    for await (const chunk of again.getReadableStream()) back.push(chunk as Buffer);
    expect(Buffer.concat(back).equals(png)).toBe(true);
    expect(
      await errorCode(
        client.im.message.create({
          params: { receive_id_type: "chat_id" },
          data: { receive_id: "oc_m", msg_type: "image", content: JSON.stringify({ image_key: "img_v3_nope" }) },
        }),
      ),
    ).toBe(99992402);

    const photo = Buffer.from("user photo bytes");
    const { messageId } = await fake.userSends({ openId: "ou_carol", image: { bytes: photo } });
    const key = (fake.message(messageId)!.content as { image_key: string }).image_key;
    const download = await client.im.messageResource.get({ path: { message_id: messageId, file_key: key }, params: { type: "image" } });
    const chunks: Buffer[] = [];
    for await (const chunk of download.getReadableStream()) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe("user photo bytes");
  });

  it("answers injected failures in the platform's envelope and status, then recovers", async () => {
    fake = await startFakeFeishu();
    const client = sdkClient(fake);
    fake.failNext(/\/im\/v1\/messages\?/, { code: 99991400 });
    fake.failNext(/\/im\/v1\/messages\?/, { code: 230020 });
    const send = () =>
      client.im.message.create({
        params: { receive_id_type: "chat_id" },
        data: { receive_id: "oc_r", msg_type: "text", content: text("x") },
      });
    const first = await errorResponse(send());
    expect([first.status, first.code, first.headers["x-ogw-ratelimit-reset"]]).toEqual([429, 99991400, "1"]);
    expect(await errorCode(send())).toBe(230020);
    expect((await send()).code).toBe(0);
    expect(fake.visibleText("oc_r")).toBe("x");
  });

  it("sends a message once per uuid: a retry with the same uuid gets the first message back", async () => {
    fake = await startFakeFeishu();
    const client = sdkClient(fake);
    const send = () =>
      client.im.message.create({
        params: { receive_id_type: "chat_id" },
        data: { receive_id: "oc_once", msg_type: "text", content: text("only once"), uuid: "retry-1" },
      });
    const [first, second] = [await send(), await send()];
    expect(second.data?.message_id).toBe(first.data?.message_id);
    expect(fake.messages("oc_once")).toHaveLength(1);
  });

  it("expireTokens: every issued token stops working; a new one works", async () => {
    let now = 1_800_000_000_000;
    fake = await startFakeFeishu({ clock: () => now });
    const token = async () => {
      const res = await fetch(`${fake.baseUrl}/open-apis/auth/v3/tenant_access_token/internal`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ app_id: fake.appId, app_secret: fake.appSecret }),
      });
      return ((await res.json()) as { tenant_access_token: string }).tenant_access_token;
    };
    const info = async (t: string) =>
      (
        (await (await fetch(`${fake.baseUrl}/open-apis/bot/v3/info`, { headers: { authorization: `Bearer ${t}` } })).json()) as {
          code: number;
        }
      ).code;
    const old = await token();
    expect(await info(old)).toBe(0);
    fake.expireTokens();
    now += 1;
    expect(await info(old)).toBe(99991663);
    expect(await info(await token())).toBe(0);
    now += 7200 * 1000;
    expect(await info(old)).toBe(99991663);
  });
});
