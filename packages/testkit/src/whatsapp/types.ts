// Types of the fake WhatsApp: Baileys' socket surface (the part a channel uses) and the phone
// controller a test drives.

/** A Boom-like error as Baileys puts it in `lastDisconnect.error` and throws from sends. */
export interface FakeBoomError extends Error {
  isBoom: true;
  output: { statusCode: number; payload: { statusCode: number; error: string; message: string } };
  data?: unknown;
}

/** The subset of Baileys' `AuthenticationState` the fake reads and writes (creds only). */
export interface FakeAuthState {
  creds: Record<string, any>;
  keys?: unknown;
}

/** What `makeSocket` receives (as Baileys' `makeWASocket` config: the fake reads `auth` only). */
export interface FakeSocketConfig {
  auth: FakeAuthState;
  [option: string]: unknown;
}

/** Listener of one socket event. */
export type FakeListener = (data: any) => void;

/** Baileys' socket surface as the fake implements it. */
export interface FakeSocket {
  ev: { on(event: string, listener: FakeListener): void; off(event: string, listener: FakeListener): void };
  /** Emits `frame` for every frame the "server" sends (the watchdog of a plugin listens here). */
  ws: { on(event: "frame", listener: FakeListener): void; off(event: "frame", listener: FakeListener): void };
  user: { id: string; name?: string; lid?: string } | undefined;
  sendMessage(jid: string, content: any, options?: any): Promise<FakeWAMessage>;
  sendPresenceUpdate(type: string, jid?: string): Promise<void>;
  readMessages(keys: FakeMessageKey[]): Promise<void>;
  requestPairingCode(phoneNumber: string): Promise<string>;
  logout(message?: string): Promise<void>;
  end(error: Error | undefined): void;
}

/** Baileys' `makeWASocket` as the fake provides it. */
export type FakeMakeSocket = (config: FakeSocketConfig) => FakeSocket;

/** `proto.IMessageKey`. */
export interface FakeMessageKey {
  remoteJid?: string | null;
  fromMe?: boolean | null;
  id?: string | null;
  participant?: string | null;
}

/** A `WAMessage` (`proto.IWebMessageInfo`) as the fake builds it. */
export interface FakeWAMessage {
  key: FakeMessageKey;
  message?: Record<string, any> | null;
  messageTimestamp?: number;
  pushName?: string;
  /** The bytes of a media message, for the fake's `downloadMedia`. */
  [extra: string]: unknown;
}

/** A file a user sends. */
export interface FakeUserMedia {
  kind: "image" | "video" | "audio" | "voice" | "document" | "sticker";
  data: Buffer;
  mimetype?: string;
  fileName?: string;
  caption?: string;
}

/** What `phone.userSends` takes. */
export interface FakeUserMessage {
  /** The sender: an E.164 number (`"+15551234567"`), a user JID or a LID JID (`"1234@lid"`). */
  from: string;
  text?: string;
  media?: FakeUserMedia;
  /** A group JID (`"123-456@g.us"`): the message is posted there (the group is created on first use). */
  group?: string;
  /** Quote a message by id (the bot's or a user's); `fromBot` tells which (default: looked up). */
  quoted?: { id: string; text?: string; fromBot?: boolean };
  /** JIDs or E.164 numbers mentioned in the text (`@15550001111`). */
  mentions?: string[];
  /** Sent from the linked number itself (another of its devices). */
  fromMe?: boolean;
  /** The sender's display name (`pushName`). */
  pushName?: string;
  /** Send to `status@broadcast` or a newsletter JID instead (things a channel ignores). */
  to?: string;
}

/** A message the bot sent, as the chat shows it. */
export interface FakeSentMessage {
  id: string;
  jid: string;
  /** The text, or the caption of a file. */
  text?: string;
  kind: "text" | "image" | "video" | "audio" | "document" | "sticker" | "other";
  /** A voice note (`ptt: true`). */
  ptt?: boolean;
  fileName?: string;
  mimetype?: string;
  bytes?: number;
  /** The id of the message it quotes. */
  quotedId?: string;
  mentions?: string[];
  content: Record<string, any>;
  at: number;
}

/** Options of `createFakeWhatsApp`. */
export interface FakeWhatsAppOptions {
  /** The phone number of the account that links (default "+15550001111"). */
  linkedNumber?: string;
  /** Display name of the linked account (default "OpenClaw Test"). */
  name?: string;
  /** Emit a frame this often while a socket is open (default: only with each event). */
  keepAliveIntervalMs?: number;
}

/** The world around the socket, as a test drives it. */
export interface FakePhone {
  /** The linked number in E.164. */
  readonly number: string;
  /** The last QR data shown by a socket waiting to be linked (undefined when none is waiting). */
  readonly currentQr: string | undefined;
  /** Every QR data shown so far. */
  readonly qrs: readonly string[];
  /** Pairing codes handed out by `requestPairingCode`. */
  readonly pairingCodes: readonly string[];
  /** Scans the QR code shown now: links the waiting socket (creds.update, then a restart, then open). */
  scanQr(): void;
  /** Types a pairing code on the phone; links like `scanQr` when it matches. */
  enterPairingCode(code: string): void;
  /** Shows a new QR code on the waiting socket (WhatsApp rotates them). */
  rotateQr(): void;
  /** A user sends a message; resolves to its id once the socket got it (throws when no socket is open). */
  userSends(message: FakeUserMessage): string;
  /** Emits `messages.upsert` with exactly this payload (for malformed or odd data). */
  rawUpsert(payload: unknown): void;
  /** Tells the socket a LID belongs to a phone number (`chats.phoneNumberShare`). */
  shareNumber(lid: string, e164: string): void;
  /** Closes the open socket with this `DisconnectReason` status code. */
  disconnect(statusCode: number): void;
  /** The user unlinks the device on the phone: the socket closes with loggedOut, the creds stop working. */
  loggedOutFromPhone(): void;
  /** The connection stops carrying frames (no events, no keep-alives) without closing. */
  goSilent(): void;
  /** Emits one transport frame (a keep-alive answer). */
  frame(): void;
  /** The next `count` sends are refused with this status code (default 429, rate-overlimit). */
  failNextSends(count: number, statusCode?: number): void;
  /** Messages the bot sent to `jid` (a JID or an E.164 number), in order. */
  sent(jid: string): FakeSentMessage[];
  /** Every message the bot sent. */
  readonly allSent: readonly FakeSentMessage[];
  /** Presence updates sent to `jid` ("composing", "paused", ...). */
  presence(jid: string): string[];
  /** Message keys marked read. */
  readonly readReceipts: readonly FakeMessageKey[];
  /** Whether a device is linked now. */
  readonly linked: boolean;
  /** Whether a socket is open now. */
  readonly connected: boolean;
  /** How many sockets were made. */
  readonly socketsMade: number;
  /** Waits until `predicate` holds (checked after every event); rejects after `timeoutMs` (default 5000). */
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;
}

/** A fake WhatsApp: `makeSocket` for the plugin, `phone` for the test. */
export interface FakeWhatsApp {
  makeSocket: FakeMakeSocket;
  phone: FakePhone;
  /** The bytes of a media message the fake delivered (what Baileys' `downloadMediaMessage` would fetch). */
  downloadMedia(message: FakeWAMessage): Promise<Buffer>;
  /** Closes every socket. */
  close(): void;
}
