// The loopback channel of @openclaw/testkit as a plugin a whole gateway process can load through
// `plugins.load.paths` (tests and benchmarks only). This folder ships inside @openclaw/testkit, so
// it imports the testkit build beside it rather than the package by name.
//
// Every loopback account of the process is a bot on one in-memory platform. By default nobody
// talks to the bots. With OPENCLAW_LOOPBACK_SAY="<text>", a simulated user DMs "<text>" to each bot
// as it connects, and every message a bot sends or edits is printed to stderr as
// `[loopback] <account> -> <chat>: <text>` (a smoke test of the whole pipeline).
import { createLoopbackPlatform, createLoopbackPlugin } from "../dist/loopback/index.js";

/** The platform behind every loopback account of this process (an in-process host can drive it). */
export const platform = createLoopbackPlatform();

const say = process.env.OPENCLAW_LOOPBACK_SAY;
if (say) {
  platform.subscribe((event) => {
    if (event.type === "connected") {
      const user = { id: "loopback-user", name: "Loopback User" };
      platform.userSays({ sender: user, text: say, bot: event.botId, chat: `loopback-user@${event.botId}` }).catch((error) => {
        process.stderr.write(`[loopback] ${event.botId} did not take the message: ${error.message}\n`);
      });
    } else if (event.type === "bot_message" || event.type === "edited") {
      const { botId, chatId, text } = event.message;
      process.stderr.write(`[loopback] ${botId} -> ${chatId}${event.type === "edited" ? " (edited)" : ""}: ${text}\n`);
    }
  });
}

export default createLoopbackPlugin(platform);
