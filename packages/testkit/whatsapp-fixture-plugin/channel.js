// Where the fixture finds the WhatsApp channel's package: OPENCLAW_FAKE_WHATSAPP_CHANNEL (a
// package folder, e.g. an installed copy), else this repository's extensions/whatsapp.
import { pathToFileURL } from "node:url";

const folder = process.env.OPENCLAW_FAKE_WHATSAPP_CHANNEL;
const base = folder
  ? pathToFileURL(folder.endsWith("/") ? folder : `${folder}/`)
  : new URL("../../../extensions/whatsapp/", import.meta.url);

/** The URL of `file` in the channel's published bundle (dist/bundle). */
export const channelBundle = (file) => new URL(`dist/bundle/${file}`, base).href;
