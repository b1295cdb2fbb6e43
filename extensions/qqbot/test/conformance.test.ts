// The channel conformance suite from @openclaw/testkit, run on this plugin against the fake QQ Bot
// platform (the plugin's own fetch and ws on one side, QQ's wire protocol on the other).
import { type FakeQQBot, startFakeQQBot } from "@openclaw/testkit";
import { runChannelConformance } from "@openclaw/testkit/conformance";
import qqbotPlugin from "../src/index.js";
import { openid } from "./helpers.js";

runChannelConformance({
  name: "qqbot",
  async createHarness() {
    const qq: FakeQQBot = await startFakeQQBot({ heartbeatIntervalMs: 1000 });
    const users = new Map<string, string>();
    const idOf = (senderId: string): string => {
      let id = users.get(senderId);
      if (id === undefined) {
        id = openid(users.size + 1);
        users.set(senderId, id);
      }
      return id;
    };
    const group = openid(9999);
    return {
      plugin: qqbotPlugin,
      accountConfig: { appId: qq.appId, clientSecret: qq.clientSecret, apiBase: qq.apiBase, tokenUrl: qq.tokenUrl },
      env: {},
      brokenAccountConfig: { appId: qq.appId, apiBase: qq.apiBase, tokenUrl: qq.tokenUrl },
      platform: {
        async userSays(message) {
          const from = idOf(message.senderId);
          if (message.kind !== "group") qq.userSendsC2C({ openid: from, content: message.text });
          else if (message.mentionsBot === false) qq.userSendsGroup({ groupOpenid: group, memberOpenid: from, content: message.text });
          else qq.userSendsGroupAt({ groupOpenid: group, memberOpenid: from, content: message.text });
        },
        chatView(chatId) {
          const sent = chatId === group ? qq.groupMessages(chatId) : qq.c2cMessages(chatId);
          const messages = sent.map((m) => ({ messageId: m.id, text: m.content, edits: 0 }));
          const streams = chatId === group ? [] : qq.streams(chatId);
          for (const s of streams) messages.push({ messageId: s.streamMsgId, text: s.text, edits: Math.max(0, s.chunks.length - 1) });
          return { messages, deleted: [] };
        },
        inject429(count) {
          qq.failNext({
            method: "POST",
            pathIncludes: "/messages",
            count,
            status: 429,
            body: { code: 22009, message: "too many requests" },
          });
        },
        async injectBadPayload() {
          // Events a broken or hostile peer could send: no author, no id, a payload that is not an object.
          qq.dispatchRaw("C2C_MESSAGE_CREATE", { content: "who am I?", timestamp: new Date().toISOString() });
          qq.dispatchRaw("GROUP_AT_MESSAGE_CREATE", { id: 42, content: 7, author: "nobody" });
          qq.dispatchRaw("C2C_MESSAGE_CREATE", "not an object");
        },
        close: () => qq.close(),
      },
    };
  },
});
