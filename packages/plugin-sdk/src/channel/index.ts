export type {
  AccountContext,
  AccountStatus,
  ChannelCapabilities,
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
  PluginLogger,
  SendOptions,
  SendPriority,
  Sender,
  SentMessage,
} from "./types.js";
export { RateLimitedError, PermanentSendError, TransientSendError, AccountConfigError } from "./errors.js";
export { isTransientSendError } from "./retryable.js";
export { mergeAccountConfig, listAccountIds, DEFAULT_ACCOUNT_ID } from "./accounts.js";
export { defineChannelPlugin, PLUGIN_SDK_VERSION } from "./define.js";
