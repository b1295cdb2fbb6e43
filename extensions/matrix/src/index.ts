/**
 * @openclaw/matrix: the Matrix channel for OpenClaw, on matrix-js-sdk (with its Rust crypto for
 * end-to-end encryption). The default export is the `ChannelPlugin`; the named exports are the
 * pieces it is built from.
 */
import { createMatrixPlugin } from "./plugin.js";

export { createMatrixPlugin, type MatrixPluginOptions } from "./plugin.js";
export {
  accountKeyPath,
  listMatrixAccounts,
  MATRIX_ENV,
  resolveMatrixAccount,
  type MatrixAccount,
  type MatrixStreamingMode,
} from "./account.js";
export {
  LIVE_MARKER,
  MATRIX_CAPABILITIES,
  MATRIX_MEDIA_MAX_MB,
  MATRIX_STREAMING_MODES,
  MATRIX_TEXT_LIMIT,
  matrixChannelConfig,
  matrixConfigSchema,
} from "./config.js";
export { loginMatrix, SESSION_FILE, whoami, type MatrixLogin } from "./login.js";
export {
  parseMatrixStreaming,
  roomStreamingConfig,
  roomStreamingMode,
  type MatrixRoomStreaming,
  type MatrixStreaming,
} from "./streaming.js";
export { PersistedSyncStore, SYNC_FILE, type PersistedSyncStoreOptions } from "./sync-store.js";
export { decideAutoJoin, type Invite } from "./inbound/invites.js";
export { localpartOf, mentionsBot, stripLeadingMention, type MentionTarget } from "./inbound/mentions.js";
export {
  normalizeRoomMessage,
  replyTargetOf,
  stripReplyFallback,
  threadRootOf,
  type NormalizeContext,
  type RawRoomEvent,
} from "./inbound/normalize.js";
export { editContent, markdownToHtml, relationFor, textContent, withRelation, type TextStyle } from "./outbound/content.js";
export { DEFAULT_RETRY_AFTER_MS, toSendError } from "./outbound/errors.js";
export { createMatrixOutbound, type MatrixOutboundOptions, type MatrixTransport } from "./outbound/outbound.js";
export { connectMatrixAccount, statusDetails, type MatrixRuntime, type MatrixSession } from "./session.js";

/** The Matrix channel plugin with production settings. */
const matrixPlugin = createMatrixPlugin();
export default matrixPlugin;
