/**
 * @openclaw/telegram: the Telegram channel for OpenClaw, on grammY. The default export is the
 * `ChannelPlugin`; the named exports are the pieces it is built from (for tests and tools).
 */
import { createTelegramPlugin } from "./plugin.js";

export { createTelegramPlugin, type TelegramPluginOptions } from "./plugin.js";
export {
  accountKeyPath,
  listTelegramAccounts,
  resolveTelegramAccount,
  TOKEN_ENV,
  type ReplyToMode,
  type TelegramAccount,
  type TelegramWebhookSettings,
} from "./account.js";
export {
  telegramChannelConfig,
  telegramConfigSchema,
  TELEGRAM_CAPABILITIES,
  TELEGRAM_TEXT_CHUNK_LIMIT,
  WEBHOOK_DEFAULTS,
} from "./config.js";
export { createSendingApi, isEntityParseError, sendingTransformer, type SendingApiOptions } from "./api.js";
export {
  createTelegramOutbound,
  toChatId,
  TELEGRAM_CAPTION_LIMIT,
  TELEGRAM_MESSAGE_LIMIT,
  type TelegramOutboundOptions,
} from "./outbound.js";
export { escapeHtml, markdownToTelegramHtml } from "./format/markdown.js";
export { htmlToPlain, splitTelegramHtml, visibleLength } from "./format/html-chunks.js";
export { mentionsBot, normalizeUpdate, sequenceKey, type BotIdentity } from "./inbound/normalize.js";
export { ALLOWED_UPDATES, OFFSET_CURSOR_KEY, PollingConflictError } from "./inbound/polling.js";
export { HEALTH_PATH, SECRET_HEADER, secretMatches } from "./inbound/webhook.js";

/** The Telegram channel plugin with production settings. */
const telegramPlugin = createTelegramPlugin();
export default telegramPlugin;
