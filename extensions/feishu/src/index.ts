/**
 * @openclaw/feishu: the Feishu / Lark channel for OpenClaw, on `@larksuiteoapi/node-sdk`.
 * The default export is the `ChannelPlugin`; the named exports are the pieces it is built from.
 */
import { createFeishuPlugin } from "./plugin.js";

export { createFeishuPlugin, type FeishuPluginOptions } from "./plugin.js";
export {
  accountKeyPath,
  APP_ID_ENV,
  APP_SECRET_ENV,
  listFeishuAccounts,
  resolveDomain,
  resolveFeishuAccount,
  type FeishuAccount,
} from "./account.js";
export {
  FEISHU_CAPABILITIES,
  FEISHU_CARD_INTERVAL_MS,
  FEISHU_CONTENT_BYTES,
  FEISHU_DOMAINS,
  FEISHU_TEXT_LIMIT,
  FEISHU_WEBHOOK_PATH,
  feishuChannelConfig,
  feishuConfigSchema,
} from "./config.js";
export { CARD_CONFLICT_CODES, FeishuApi, RATE_LIMIT_CODES, sendErrorOf } from "./api.js";
export {
  CARD_ELEMENT_ID,
  CARD_TEXT_BYTES,
  CardStream,
  DEFAULT_CARD_PACING,
  summaryOf,
  type CardPacing,
  type CardStreamOptions,
} from "./card-stream.js";
export { SEEN_CURSOR_KEY, SeenIds } from "./dedupe.js";
export { MESSAGE_EVENT, normalizeMessageEvent, postText, type MessageEvent } from "./inbound.js";
export { DEFAULT_RECREATE_BACKOFF, runLongConnection, type RecreateBackoff } from "./long-connection.js";
export {
  OpenApiClient,
  type OpenApiClientOptions,
  type OpenApiAnswer,
  type OpenApiRequest,
  TENANT_TOKEN_PATH,
  TenantTokenError,
  TOKEN_REFUSED_CODES,
} from "./open-api.js";
export { createFeishuOutbound, postContent, TYPING_EMOJI, type FeishuOutboundOptions } from "./outbound.js";
export { chunkForFeishu, cutPoint, endsAtBreak, jsonBytes, openFence } from "./text.js";
export { createWebhookHandler, decryptPayload, MAX_FAILURES, sameSecret, signatureOf, type WebhookKeys } from "./webhook.js";
export { connectFeishuAccount, DEFAULT_SESSION_TUNING, type SessionTuning } from "./session.js";

/** The Feishu channel plugin with production settings. */
const feishuPlugin = createFeishuPlugin();
export default feishuPlugin;
