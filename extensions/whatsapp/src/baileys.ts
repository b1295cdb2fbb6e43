/**
 * The values the channel takes from Baileys, imported from the library's own modules instead of
 * its index: the index also loads WAM (analytics definitions, ~0.5 MB of code), the in-memory
 * Store and its caches, which the channel never uses, so neither they nor their code are in the
 * channel's bundle. Types still come from "baileys".
 */
import type { UserFacingSocketConfig } from "baileys";
import { DEFAULT_CONNECTION_CONFIG } from "baileys/lib/Defaults/index.js";
import { makeBusinessSocket } from "baileys/lib/Socket/business.js";

export { DisconnectReason, WAProto } from "baileys/lib/Types/index.js";
export {
  BufferJSON,
  downloadMediaMessage,
  fetchLatestBaileysVersion,
  initAuthCreds,
  normalizeMessageContent,
} from "baileys/lib/Utils/index.js";
export {
  isJidBroadcast,
  isJidGroup,
  isJidNewsletter,
  isLidUser,
  jidDecode,
  jidEncode,
  jidNormalizedUser,
} from "baileys/lib/WABinary/index.js";

/** Baileys' `makeWASocket` (the index's default socket): its defaults under the given config. */
export function makeWASocket(config: UserFacingSocketConfig): ReturnType<typeof makeBusinessSocket> {
  return makeBusinessSocket({ ...DEFAULT_CONNECTION_CONFIG, ...config });
}
