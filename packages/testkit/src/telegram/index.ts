/** Fake Telegram Bot API server for tests; see `startFakeTelegram`. */
export { startFakeTelegram } from "./server.js";
export { fakeTelegramError, FakeTelegramApiError } from "./errors.js";
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
} from "./types.js";
