// The channel conformance suite from @openclaw/testkit, run on this plugin against the fake Feishu
// Open Platform (the real @larksuiteoapi/node-sdk Client and WSClient on one side, Feishu's HTTP API
// and long-connection frames on the other).
import { runChannelConformance } from "@openclaw/testkit/conformance";
import { type FakeFeishu, startFakeFeishu } from "@openclaw/testkit/feishu";
import { createFeishuPlugin } from "../src/index.js";
import { botMessages, GROUP_CHAT, shownText } from "./helpers.js";

runChannelConformance({
  name: "feishu",
  skip: {
    "media-sent": "Feishu file messages carry no caption: the caption follows the file as a post (images and captions share one post)",
  },
  async createHarness() {
    const fake: FakeFeishu = await startFakeFeishu();
    const users = new Map<string, string>();
    const idOf = (senderId: string): string => {
      let id = users.get(senderId);
      if (id === undefined) {
        id = `ou_${String(users.size + 1).padStart(30, "0")}`;
        users.set(senderId, id);
      }
      return id;
    };
    return {
      plugin: createFeishuPlugin({ backoff: { initialMs: 50, maxMs: 200 } }),
      accountConfig: { appId: fake.appId, appSecret: fake.appSecret, domain: fake.baseUrl },
      env: {},
      brokenAccountConfig: { appId: fake.appId, domain: fake.baseUrl },
      platform: {
        async userSays(message) {
          const openId = idOf(message.senderId);
          if (message.kind !== "group") await fake.userSends({ openId, text: message.text });
          else
            await fake.userSends({
              chatId: GROUP_CHAT,
              chatType: "group",
              openId,
              text: message.text,
              ...(message.mentionsBot === false ? {} : { mentions: [{ openId: fake.botOpenId, name: fake.botName }] }),
            });
        },
        chatView(chatId) {
          const mine = fake.messages(chatId).filter((m) => m.senderId === "bot");
          return {
            messages: botMessages(fake, chatId).map((m) => ({ messageId: m.messageId, text: m.text, edits: m.updates })),
            deleted: mine.filter((m) => m.deleted).map((m) => ({ messageId: m.messageId, text: shownText(fake, m) })),
          };
        },
        inject429(count) {
          fake.failNext(/\/open-apis\/(im\/v1\/messages|cardkit)/, { code: 99991400, httpStatus: 429 }, count);
        },
        async injectBadPayload() {
          // Events a broken or hostile peer could send: no sender, no message, a body that is not an object.
          await fake.pushEvent({ schema: "2.0", header: { event_id: "bad-1", event_type: "im.message.receive_v1" }, event: {} });
          await fake.pushEvent({
            schema: "2.0",
            header: { event_id: "bad-2", event_type: "im.message.receive_v1" },
            event: { message: { message_id: 7, content: "{not json" } },
          });
          await fake.pushEvent({ schema: "2.0", header: { event_id: "bad-3", event_type: "im.chat.updated_v1" }, event: "nope" });
        },
        close: () => fake.close(),
      },
    };
  },
});
