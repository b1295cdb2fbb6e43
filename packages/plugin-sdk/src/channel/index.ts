export type {
  AccountConfigOf,
  AccountContext,
  AccountSession,
  AccountStatus,
  ChannelCapabilities,
  ChannelLoginContext,
  ChannelLoginResult,
  ChannelMeta,
  ChannelOutbound,
  ChannelPlugin,
  ChatKind,
  ChatRef,
  InboundMedia,
  InboundMessage,
  NativeStream,
  OutboundMedia,
  OutboundTarget,
  PluginHttpHandler,
  PluginHttpRequest,
  PluginHttpResponse,
  PluginHttpRoutes,
  PluginLogger,
  ResolveAccountInput,
  SendOptions,
  SendPriority,
  Sender,
  SentMessage,
  StreamingConfig,
} from "./types.js";
export { SPECIFICATION_VERSION } from "./types.js";
export {
  SendError,
  RateLimitedError,
  PermanentSendError,
  TransientSendError,
  AccountConfigError,
  type SendErrorOptions,
  type SendErrorDetails,
} from "./errors.js";
export { isRetryableSendError } from "./retryable.js";
export { SplitSendTracker, type SplitSendTrackerOptions } from "./split-send.js";
export { mergeAccountConfig, listAccountIds, DEFAULT_ACCOUNT_ID } from "./accounts.js";
export { defineChannelPlugin, PLUGIN_SDK_VERSION } from "./define.js";
