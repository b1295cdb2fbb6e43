// Starts a local Synapse (installed by scripts/install-synapse.sh) on a free loopback port, registers
// a bot account and one for you, and prints the `channels.matrix` config to try the Matrix guide
// with. Keeps running until Ctrl-C. Needs `pnpm build`. Usage: node scripts/try-synapse.mjs [--data-dir DIR]
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { "data-dir": { type: "string", default: "/tmp/openclaw-synapse-try" } } });
const { startSynapse } = await import(new URL("../packages/testkit/dist/matrix/index.js", import.meta.url).href);

const synapse = await startSynapse({ dataDir: values["data-dir"] });
/** Registers `localpart`, or logs in when an earlier run in the same data folder already did. */
async function account(localpart, password) {
  try {
    return await synapse.registerUser(localpart, { password });
  } catch {
    return await synapse.login(`@${localpart}:${synapse.serverName}`, password);
  }
}
const bot = await account("claw", "claw-pw");
const you = await account("you", "you-pw");
const config = {
  homeserver: synapse.baseUrl,
  userId: bot.userId,
  password: bot.password,
  encryption: true,
  streaming: { mode: "partial" },
  allowFrom: [you.userId],
  autoJoin: "allowlist",
  autoJoinAllowlist: [you.userId],
};
console.log(`Synapse is running at ${synapse.baseUrl} (server name ${synapse.serverName}; data in ${values["data-dir"]}).
Bot account: ${bot.userId} / ${bot.password}
Your account: ${you.userId} / ${you.password} (log in from Element: edit the homeserver, enter ${synapse.baseUrl})

Put this under "channels" in ~/.openclaw/openclaw.json as "matrix":
${JSON.stringify(config, null, 2)}

Ctrl-C stops Synapse.`);
const stop = async () => {
  await synapse.stop();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
setInterval(() => undefined, 1 << 30);
