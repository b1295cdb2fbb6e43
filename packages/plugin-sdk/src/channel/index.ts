export type {
  AccountConfigOf,
  AccountContext,
  AccountSession,
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
  ResolveAccountInput,
  SendOptions,
  SendPriority,
  Sender,
  SentMessage,
} from "./types.js";
export { SPECIFICATION_VERSION } from "./types.js";
export { RateLimitedError, PermanentSendError, TransientSendError, AccountConfigError } from "./errors.js";
export { mergeAccountConfig, listAccountIds, DEFAULT_ACCOUNT_ID } from "./accounts.js";
export { defineChannelPlugin, PLUGIN_SDK_VERSION } from "./define.js";
