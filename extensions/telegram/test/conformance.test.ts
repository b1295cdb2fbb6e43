// The channel conformance suite from @openclaw/testkit, run on this plugin against the fake
// Telegram Bot API server (real grammY on one side, Telegram's wire protocol on the other).
import { startFakeTelegram, type FakeTelegram, type TgUser } from "@openclaw/testkit";
import { runChannelConformance } from "@openclaw/testkit/conformance";
import telegramPlugin from "../src/index.js";

runChannelConformance({
  name: "telegram",
  async createHarness() {
    const tg: FakeTelegram = await startFakeTelegram();
    const users = new Map<string, TgUser>();
    let nextUserId = 5000;
    const userFor = (senderId: string): TgUser => {
      let user = users.get(senderId);
      if (!user) {
        user = { id: nextUserId++, is_bot: false, first_name: senderId } as TgUser;
        users.set(senderId, user);
      }
      return user;
    };
    const group = { id: -100777, type: "supergroup" as const, title: "Conformance" };
    const isBot = (m: { from?: { id: number } }) => m.from?.id === tg.botUser.id;
    return {
      plugin: telegramPlugin,
      accountConfig: { botToken: tg.token, apiRoot: tg.apiRoot },
      env: {},
      platform: {
        async userSays(message) {
          const from = userFor(message.senderId);
          const inGroup = message.kind === "group";
          tg.sendUserMessage({
            chat: inGroup ? group : { id: from.id, type: "private" },
            from,
            text: inGroup && message.mentionsBot !== false ? `@${tg.botUser.username} ${message.text}` : message.text,
          });
        },
        chatView(chatId) {
          const messages = tg
            .chat(chatId)
            .filter(isBot)
            .map((m) => ({
              messageId: String(m.message_id),
              text: m.text ?? m.caption ?? "",
              edits: tg.editsOf(m.message_id).filter((v) => v.method.toLowerCase().startsWith("edit")).length,
            }));
          const deleted = tg
            .sentMessages()
            .filter((m) => String(m.chat.id) === String(chatId) && isBot(m) && tg.wasDeleted(m.message_id))
            .map((m) => ({ messageId: String(m.message_id), text: m.text ?? "" }));
          return { messages, deleted };
        },
        inject429(count, retryAfterMs) {
          const retryAfter = Math.max(1, Math.ceil(retryAfterMs / 1000));
          for (const method of ["sendMessage", "editMessageText", "deleteMessage"]) tg.inject429({ method, count, retryAfter });
        },
        async injectBadPayload() {
          // An update with no message, a message without a chat, and an update type the plugin does not handle.
          // An update with nothing in it, a message without a chat, and an update type the plugin does
          // not subscribe to (Telegram filters that one out through allowed_updates).
          tg.enqueueUpdate({} as never);
          const broken = tg.enqueueUpdate({ message: { message_id: 1, date: 0 } } as never);
          tg.enqueueUpdate({
            poll: {
              id: "p1",
              question: "?",
              options: [],
              total_voter_count: 0,
              is_closed: false,
              is_anonymous: true,
              type: "regular",
              allows_multiple_answers: false,
            },
          } as never);
          // The plugin has consumed the broken message once it polls with an offset past it.
          await tg.waitFor(
            () => tg.calls.some((c) => c.method === "getUpdates" && Number(c.params.offset ?? 0) > broken.update_id),
            10_000,
          );
        },
        close: () => tg.close(),
      },
    };
  },
});
