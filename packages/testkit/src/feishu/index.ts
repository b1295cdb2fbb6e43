/** Fake Feishu / Lark Open Platform for tests; see `startFakeFeishu`. */
export { startFakeFeishu, dmChatId } from "./server.js";
export { FEISHU_ERRORS } from "./envelope.js";
export { decodeFrame, encodeFrame, FRAME_METHOD } from "./frame.js";
export type { Frame, FrameHeader } from "./frame.js";
export type {
  FakeFeishu,
  FakeFeishuAck,
  FakeFeishuCall,
  FakeFeishuCard,
  FakeFeishuClientConfig,
  FakeFeishuFailResponse,
  FakeFeishuMessage,
  FakeFeishuOptions,
  FakeFeishuReaction,
  FakeFeishuUpload,
  FakeFeishuUserMessage,
  FakeFeishuWebhookKeys,
} from "./types.js";
