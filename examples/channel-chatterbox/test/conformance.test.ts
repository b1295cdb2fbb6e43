// test/conformance.test.ts: the channel conformance suite of @openclaw/testkit, run against the
// fake Chatterbox in test/fake-chatterbox.ts.
import { runChannelConformance } from "@openclaw/testkit/conformance";
import plugin from "../src/index.js";
import { startFakeChatterbox } from "./fake-chatterbox.js";

runChannelConformance({
  name: "chatterbox",
  async createHarness() {
    const fake = await startFakeChatterbox();
    return {
      plugin,
      // channels.chatterbox, pointing at the fake.
      accountConfig: { apiToken: fake.token, baseUrl: fake.url },
      env: {},
      // Without a token, resolveAccount must throw an AccountConfigError naming channels.chatterbox.apiToken.
      brokenAccountConfig: { baseUrl: fake.url },
      // Every method acts on the fake platform, never on the plugin.
      platform: {
        async userSays({ senderId, senderName, text, kind, mentionsBot }) {
          fake.userSays({ senderId, senderName, text, group: kind === "group", mentionsBot });
        },
        chatView: (chatId) => fake.chatView(chatId),
        inject429: (count, retryAfterMs) => fake.rateLimitNext(count, Math.ceil(retryAfterMs / 1000)),
        injectBadPayload: () => fake.pushBadUpdates(),
        close: () => fake.close(),
      },
    };
  },
});
