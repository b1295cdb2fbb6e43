// @openclaw/testkit: fakes of the outside world that speak real wire protocols on 127.0.0.1.

/**
 * Fake LLM provider servers. Real client libraries (`openai`, `@anthropic-ai/sdk`) talk to them
 * over HTTP and SSE; each plays scripted turns (text deltas, tool calls, delays, HTTP errors,
 * hang-ups) and records every request so tests can assert what the model saw.
 */
export { startFakeOpenAI } from "./llm/fake-openai.js";
export { startFakeAnthropic } from "./llm/fake-anthropic.js";
export { echoResponder, lastUserText } from "./llm/script.js";
export type {
  FakeErrorSpec,
  FakeModelServer,
  FakeModelServerOptions,
  FakeResponder,
  FakeStep,
  FakeTurn,
  RecordedRequest,
} from "./llm/types.js";

/**
 * Fake Telegram Bot API server. The real grammY client talks to it through `client.apiRoot`;
 * it long-polls, takes uploads, parses HTML/MarkdownV2, injects 429s, errors and network drops,
 * and shows each chat as its user would see it.
 */
export { startFakeTelegram, fakeTelegramError, FakeTelegramApiError } from "./telegram/index.js";
export type {
  FakeMessageVersion,
  FakeMethodHandler,
  FakeRateLimit,
  FakeTelegram,
  FakeTelegramCall,
  FakeTelegramOptions,
  FakeUploadInfo,
  FakeUserFile,
  FakeUserMessage,
  TgChat,
  TgErrorBody,
  TgMessage,
  TgMessageEntity,
  TgPhotoSize,
  TgResponse,
  TgUpdate,
  TgUser,
} from "./telegram/index.js";

/**
 * Fake QQ Bot platform: the token endpoint, OpenAPI REST and the WebSocket gateway on one
 * loopback port. A QQ bot connects, identifies, resumes and replies exactly as on the platform;
 * passive-reply limits, msg_seq dedup, streams, media and socket faults are enforced or injectable.
 */
export * from "./qqbot/index.js";

/**
 * The loopback channel: an in-memory chat platform (users, bots, chats a test can read as their
 * user sees them, rate limits, refused edits, latency) and a channel plugin built with the SDK on
 * it. For tests and benchmarks; `loopback-plugin/` packages it for `plugins.load.paths`.
 */
export * from "./loopback/index.js";

/**
 * The channel conformance suite every channel runs (framework-free; the vitest runner is
 * `runChannelConformance` from `@openclaw/testkit/conformance`).
 */
export * from "./conformance/index.js";
export { loopbackConformanceHarness } from "./conformance/loopback-harness.js";

// The fake WhatsApp (Baileys' socket surface) is `@openclaw/testkit/whatsapp`: it needs the
// optional peer dependency `baileys`, which the rest of the testkit does not.

// The fake Feishu / Lark Open Platform is `@openclaw/testkit/feishu` (`startFakeFeishu`).

/**
 * Fake web search APIs (Brave Search, Tavily, Perplexity Sonar, SearXNG JSON) on one loopback
 * port, each under its own prefix; they check auth headers and record requests.
 */
export * from "./web-search/index.js";
