/**
 * The part of Baileys' `WASocket` this plugin uses, and the factory that makes one. Production
 * uses Baileys' `makeWASocket`; tests pass a fake with the same surface (`@openclaw/testkit`'s
 * `createFakeWhatsApp().makeSocket`).
 */
import type { AnyMessageContent, AuthenticationState, WAMessage, WAMessageKey, WAPresence } from "baileys";

/** A listener of one socket event (payloads as Baileys' `BaileysEventMap`). */
export type SocketListener = (data: any) => void;

/** The subset of Baileys' `WASocket` the plugin uses. */
export interface WhatsAppSocketLike {
  ev: { on(event: string, listener: SocketListener): void; off(event: string, listener: SocketListener): void };
  /** The transport; `frame` fires for every frame received (the watchdog listens). */
  ws?: { on(event: "frame", listener: SocketListener): unknown; off(event: "frame", listener: SocketListener): unknown };
  /** The linked account once open (`<digits>:<device>@s.whatsapp.net`). */
  user?: { id: string; name?: string; lid?: string } | undefined;
  sendMessage(jid: string, content: AnyMessageContent, options?: { quoted?: WAMessage }): Promise<WAMessage | undefined>;
  sendPresenceUpdate(type: WAPresence, jid?: string): Promise<void>;
  readMessages(keys: WAMessageKey[]): Promise<void>;
  requestPairingCode(phoneNumber: string): Promise<string>;
  logout(message?: string): Promise<void>;
  end(error: Error | undefined): void;
}

/** What a socket is made with (Baileys' `makeWASocket` config, the keys this plugin sets). */
export interface SocketConfig {
  auth: AuthenticationState;
  /** A pino-compatible logger (Baileys logs through it). */
  logger?: unknown;
  browser: [string, string, string];
  printQRInTerminal: false;
  markOnlineOnConnect: false;
  syncFullHistory: false;
  /** The WhatsApp Web version to announce (production fetches the newest once). */
  version?: [number, number, number];
}

/** Makes one socket (one connection attempt). */
export type MakeSocket = (config: SocketConfig) => WhatsAppSocketLike;

/** Reads the file of an inbound media message (Baileys' `downloadMediaMessage` in production). */
export type DownloadMedia = (message: WAMessage, socket: WhatsAppSocketLike) => Promise<Buffer>;

/** The status code of a Baileys close error (`lastDisconnect.error.output.statusCode`), if any. */
export function statusCodeOf(error: unknown): number | undefined {
  const output = (error as { output?: { statusCode?: unknown } } | undefined)?.output;
  return typeof output?.statusCode === "number" ? output.statusCode : undefined;
}
