/** Fake WhatsApp at Baileys' socket surface for tests; see `createFakeWhatsApp`. */
export { createFakeWhatsApp, fakeBoom, userJid } from "./fake.js";
export { type FakeWhatsAppServer, remoteSocketFactory, startFakeWhatsAppServer } from "./relay.js";
export type {
  FakeAuthState,
  FakeBoomError,
  FakeListener,
  FakeMakeSocket,
  FakeMessageKey,
  FakePhone,
  FakeSentMessage,
  FakeSocket,
  FakeSocketConfig,
  FakeUserMedia,
  FakeUserMessage,
  FakeWAMessage,
  FakeWhatsApp,
  FakeWhatsAppOptions,
} from "./types.js";
