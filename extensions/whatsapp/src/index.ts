/**
 * @openclaw/whatsapp: the WhatsApp channel for OpenClaw, a linked device on Baileys. The default
 * export is the `ChannelPlugin`; the named exports are the pieces it is built from.
 */
import { createWhatsAppPlugin } from "./plugin.js";

export { createWhatsAppPlugin, type WhatsAppPlugin, type WhatsAppPluginOptions } from "./plugin.js";
export { accountKeyPath, listWhatsAppAccounts, resolveWhatsAppAccount, type WhatsAppAccount } from "./account.js";
export {
  toE164,
  WHATSAPP_CAPABILITIES,
  WHATSAPP_MEDIA_MAX_MB,
  WHATSAPP_TEXT_LIMIT,
  whatsappChannelConfig,
  whatsappConfigSchema,
} from "./config.js";
export {
  CREDS_BACKUP_FILE,
  CREDS_FILE,
  type CredsSource,
  type FileAuthState,
  isLinked,
  readSavedCreds,
  removeAuthState,
  SerialQueue,
  useFileAuthState,
} from "./auth-state.js";
export { type Clock, systemClock } from "./clock.js";
export {
  backoffDelay,
  type ConnectionOutcome,
  DEFAULT_RECONNECT,
  DEFAULT_WATCHDOG_MS,
  describeClose,
  type ReconnectPolicy,
  WhatsAppConnection,
} from "./connection.js";
export { markdownToWhatsApp } from "./format/markup.js";
export { normalizeMessage, senderIdOf, type InboundContext, type SkipReason } from "./inbound.js";
export { loginWhatsApp, logoutWhatsApp } from "./login.js";
export { createWhatsAppOutbound, jidOfChat, type WhatsAppOutboundOptions } from "./outbound.js";
export { connectWhatsAppAccount, loginHint, type WhatsAppSession } from "./session.js";
export { type DownloadMedia, type MakeSocket, type SocketConfig, statusCodeOf, type WhatsAppSocketLike } from "./socket.js";

/** The WhatsApp channel plugin with production settings. */
const whatsappPlugin = createWhatsAppPlugin();
export default whatsappPlugin;
