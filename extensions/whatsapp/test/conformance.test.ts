// The channel conformance suite from @openclaw/testkit, run on this plugin against the fake
// WhatsApp (Baileys' socket surface). WhatsApp cannot edit, so the preview and native-stream cases
// skip by capability. The suite's fresh credentials folder is linked first through the plugin's
// own login (as a user runs `openclaw channels login whatsapp` before starting the gateway).
import { createFakeWhatsApp } from "@openclaw/testkit/whatsapp";
import { runChannelConformance } from "@openclaw/testkit/conformance";
import { createWhatsAppPlugin, type MakeSocket, type WhatsAppAccount } from "../src/index.js";
import { linkedDir } from "./helpers.js";

const GROUP = "120363000000000001@g.us";

runChannelConformance<WhatsAppAccount>({
  name: "whatsapp",
  async createHarness() {
    const fake = createFakeWhatsApp();
    const plugin = createWhatsAppPlugin({
      makeSocket: fake.makeSocket as unknown as MakeSocket,
      downloadMedia: (message) => fake.downloadMedia(message as never),
    });
    const numbers = new Map<string, string>();
    const numberOf = (senderId: string): string => {
      let number = numbers.get(senderId);
      if (number === undefined) {
        number = `+4915${String(10_000_000 + numbers.size).padStart(9, "0")}`;
        numbers.set(senderId, number);
      }
      return number;
    };
    return {
      plugin: {
        ...plugin,
        async connect(ctx) {
          await linkedDir(fake, plugin, ctx.credentialsDir);
          return plugin.connect(ctx);
        },
      },
      accountConfig: {},
      env: {},
      platform: {
        async userSays(message) {
          const from = numberOf(message.senderId);
          const pushName = message.senderName;
          if (message.kind !== "group") fake.phone.userSends({ from, text: message.text, ...(pushName ? { pushName } : {}) });
          else if (message.mentionsBot === false) fake.phone.userSends({ from, group: GROUP, text: message.text });
          else
            fake.phone.userSends({
              from,
              group: GROUP,
              text: `@${fake.phone.number.slice(1)} ${message.text}`,
              mentions: [fake.phone.number],
            });
        },
        chatView(chatId) {
          const messages = fake.phone.sent(chatId).map((m) => ({ messageId: m.id, text: m.text ?? "", edits: 0 }));
          return { messages, deleted: [] };
        },
        inject429(count) {
          fake.phone.failNextSends(count, 429);
        },
        async injectBadPayload() {
          // What a broken peer or a Baileys change could hand the plugin: no key, no id, not an object.
          fake.phone.rawUpsert({ type: "notify", messages: [{ message: { conversation: "who sent me?" } }] });
          fake.phone.rawUpsert({ type: "notify", messages: [{ key: { remoteJid: "4915100000000@s.whatsapp.net" }, message: 7 }] });
          fake.phone.rawUpsert({ type: "notify", messages: "not a list" });
          fake.phone.rawUpsert(null);
        },
        async close() {
          fake.close();
        },
      },
    };
  },
});
