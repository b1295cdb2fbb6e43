/**
 * @openclaw/qqbot: the QQ Bot channel for OpenClaw, on the official QQ Bot API (the SDK's `httpFetch` and `ws`).
 * The default export is the `ChannelPlugin`; the named exports are the pieces it is built from.
 */
import { createQQBotPlugin } from "./plugin.js";

export { createQQBotPlugin, type QQBotPluginOptions } from "./plugin.js";
export { accountKeyPath, APP_ID_ENV, listQQBotAccounts, resolveQQBotAccount, SECRET_ENV, type QQBotAccount } from "./account.js";
export {
  chatCapabilities,
  QQBOT_CAPABILITIES,
  QQBOT_ENDPOINTS,
  QQBOT_PASSIVE_REPLIES,
  QQBOT_REPLY_WINDOW_MS,
  QQBOT_STREAM_INTERVAL_MS,
  QQBOT_TEXT_LIMIT,
  qqbotChannelConfig,
  qqbotConfigSchema,
} from "./config.js";
export { QQApi, QQApiError } from "./api.js";
export { TokenManager, type TokenManagerOptions, type TokenSource } from "./token.js";
export { closeAction, type CloseAction } from "./close-codes.js";
export { DEFAULT_GATEWAY_TUNING, INTENTS, QQGateway, type GatewayOptions, type GatewayTuning } from "./gateway.js";
export { loadSession, saveSession, SESSION_CURSOR_KEY, type GatewaySession } from "./gateway-state.js";
export { MESSAGE_EVENTS, normalizeEvent, stripLeadingMentions } from "./inbound.js";
export { MSG_SEQ_CURSOR_KEY, MsgSeqCounter } from "./msg-seq.js";
export { createQQOutbound, type QQOutboundOptions } from "./outbound.js";
export { C2CStream, type C2CStreamOptions } from "./stream.js";
export { channelChatId, dmsChatId, targetOf, type QQTarget } from "./targets.js";
export { connectQQBotAccount, DEFAULT_SESSION_TUNING, type SessionTuning } from "./session.js";

/** The QQ Bot channel plugin with production settings. */
const qqbotPlugin = createQQBotPlugin();
export default qqbotPlugin;
