// The channel conformance suite from @openclaw/testkit, run on this plugin against the fake
// homeserver (matrix-js-sdk's HTTP on one side, the Matrix client-server API on the other).
import { quietMatrixSdkLogs, startFakeHomeserver } from "@openclaw/testkit/matrix";
import { runChannelConformance } from "@openclaw/testkit/conformance";
import matrixPlugin from "../src/index.js";
import { BOT } from "./fake-homeserver.js";

runChannelConformance({
  name: "matrix",
  async createHarness() {
    await quietMatrixSdkLogs();
    const fake = await startFakeHomeserver();
    const bot = await fake.registerUser("bot", { displayName: "Claw" });
    const dmOf = new Map<string, { userId: string; roomId: string }>();
    let group: string | undefined;

    /** A person per suite user, registered on first use. */
    const personOf = async (senderId: string, name?: string) => {
      let dm = dmOf.get(senderId);
      if (dm === undefined) {
        const user = await fake.registerUser(senderId, { displayName: name ?? senderId });
        // Element's "Start chat": a room with is_direct invites, which the bot accepts (autoJoin "always").
        const roomId = fake.createRoom(user.userId, { invite: [BOT], isDirect: true });
        await fake.waitFor(() => fake.membership(roomId, BOT) === "join", 10_000);
        dm = { userId: user.userId, roomId };
        dmOf.set(senderId, dm);
      }
      return dm;
    };
    const groupWith = async (userId: string) => {
      if (group === undefined) {
        group = fake.createRoom(userId, { name: "conformance", invite: [BOT] });
        await fake.waitFor(() => fake.membership(group!, BOT) === "join", 10_000);
      } else if (fake.membership(group, userId) !== "join") {
        fake.join(userId, group);
      }
      return group;
    };

    return {
      plugin: matrixPlugin,
      accountConfig: { homeserver: fake.baseUrl, accessToken: bot.accessToken, autoJoin: "always", streaming: { mode: "partial" } },
      env: {},
      brokenAccountConfig: { homeserver: fake.baseUrl },
      platform: {
        async userSays(message) {
          const person = await personOf(message.senderId, message.senderName);
          if (message.kind !== "group") {
            fake.sendMessage(person.userId, person.roomId, message.text);
            return;
          }
          const roomId = await groupWith(person.userId);
          if (message.mentionsBot === false) fake.sendMessage(person.userId, roomId, message.text);
          else fake.sendMessage(person.userId, roomId, `Claw: ${message.text}`, { mentions: [BOT] });
        },
        chatView(chatId) {
          const mine = fake.timeline(chatId).filter((m) => m.sender === BOT);
          return {
            messages: mine.filter((m) => !m.redacted).map((m) => ({ messageId: m.eventId, text: m.body, edits: m.edits })),
            deleted: mine.filter((m) => m.redacted).map((m) => ({ messageId: m.eventId })),
          };
        },
        inject429(count, retryAfterMs) {
          fake.rateLimitNext(count, retryAfterMs);
        },
        async injectBadPayload() {
          const person = await personOf("conf-bad-payload");
          const roomId = person.roomId;
          // Events a broken or hostile server or client could produce: no sender, content that is
          // not an object, a message without a body, an event type the plugin does not handle.
          fake.injectEvent(roomId, {
            type: "m.room.message",
            event_id: "$nosender",
            content: { msgtype: "m.text", body: "who?" },
          } as never);
          fake.injectEvent(roomId, { type: "m.room.message", event_id: "$notobject", sender: person.userId, content: "text" } as never);
          fake.injectEvent(roomId, {
            type: "m.room.message",
            event_id: "$nobody",
            sender: person.userId,
            content: { msgtype: "m.text" },
          } as never);
          fake.injectEvent(roomId, {
            type: "org.example.custom",
            event_id: "$custom",
            sender: person.userId,
            content: { hello: 1 },
          } as never);
          // Seen once the bot has asked for the next batch after them.
          const after = fake.requests.length;
          await fake.waitFor(() => fake.requests.slice(after).some((r) => r.path.endsWith("/sync") && r.userId === BOT), 10_000);
        },
        close: () => fake.close(),
      },
    };
  },
});
