// The WhatsApp channel of this repository with its socket replaced by the fake WhatsApp's relay:
// every socket connects to OPENCLAW_FAKE_WHATSAPP_URL (a `startFakeWhatsAppServer()` in the test
// process), where the test drives the phone (scan the QR, send messages, read what was sent).
// Tests and benches only. It imports the built packages of this repository by path (the testkit
// must not depend on the channel, which depends on the testkit for its own tests): the channel's
// published bundle (dist/bundle, Baileys inside, as a user installs it) and the relay's client,
// which loads neither Baileys nor the fake. OPENCLAW_FAKE_WHATSAPP_CHANNEL names another copy of
// the channel's package folder (e.g. the one `openclaw plugins install whatsapp` installed, which
// shares the gateway's zod and SDK, as bench/channels-connect.mjs uses it); default: extensions/whatsapp.
import { channelBundle } from "./channel.js";
import { remoteSocketFactory } from "../dist/whatsapp/relay-client.js";

const { createWhatsAppPlugin } = await import(channelBundle("index.js"));
const url = process.env.OPENCLAW_FAKE_WHATSAPP_URL;

export default createWhatsAppPlugin({
  // Fail at first use (not at load) when the variable is missing, with the fix in the message.
  makeSocket: (config) => remoteSocketFactory(url)(config),
  linkPollMs: 200,
});
