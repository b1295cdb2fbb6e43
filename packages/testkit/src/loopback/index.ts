/** The loopback channel: an in-memory chat platform and a channel plugin on it (tests and benchmarks). */
export { createLoopbackPlatform } from "./platform.js";
export { createLoopbackOutbound, createLoopbackPlugin, type LoopbackAccount, type LoopbackPluginOptions } from "./plugin.js";
export { LOOPBACK_CAPABILITIES, loopbackChannelConfig, LOOPBACK_PREVIEW_MODES } from "./config.js";
export { parseUpdate, type ParsedUpdate } from "./inbound.js";
export type {
  LoopbackBotApi,
  LoopbackCall,
  LoopbackCallOptions,
  LoopbackChatView,
  LoopbackEvent,
  LoopbackMedia,
  LoopbackMessage,
  LoopbackOp,
  LoopbackPlatform,
  LoopbackPlatformOptions,
  LoopbackStream,
  LoopbackStreamState,
  LoopbackUpdate,
  LoopbackUpdateHandler,
  LoopbackVersion,
  LoopbackViewMessage,
  RateLimitOptions,
  UserSaysInput,
} from "./types.js";
