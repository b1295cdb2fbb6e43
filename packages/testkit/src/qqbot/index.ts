/** Fake QQ Bot platform for tests; see `startFakeQQBot`. */
export { startFakeQQBot } from "./server.js";
export { QQ_ERRORS } from "./errors.js";
export type {
  FakeQQAttachment,
  FakeQQBot,
  FakeQQBotOptions,
  FakeQQCall,
  FakeQQFailSpec,
  FakeQQGatewayState,
  FakeQQMessage,
  FakeQQStream,
} from "./types.js";
