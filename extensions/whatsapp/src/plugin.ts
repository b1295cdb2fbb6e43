/**
 * The WhatsApp channel plugin: config entry, account resolution, `connect`, and `login` /
 * `logout`, assembled with `defineChannelPlugin`.
 */
import {
  type ChannelLoginContext,
  type ChannelLoginResult,
  type ChannelPlugin,
  defineChannelPlugin,
  type PluginLogger,
  SPECIFICATION_VERSION,
} from "@openclaw/plugin-sdk";
import type { WAMessage } from "baileys";
import { listWhatsAppAccounts, resolveWhatsAppAccount, type WhatsAppAccount } from "./account.js";
import type { Clock } from "./clock.js";
import { whatsappChannelConfig, type whatsappConfigSchema } from "./config.js";
import type { ReconnectPolicy } from "./connection.js";
import { loginWhatsApp, logoutWhatsApp } from "./login.js";
import { BROWSER, baileysLogger, DEFAULT_TIMING, type WhatsAppRuntime } from "./runtime.js";
import { connectWhatsAppAccount } from "./session.js";
import type { DownloadMedia, MakeSocket, WhatsAppSocketLike } from "./socket.js";

/** Knobs of the plugin; production defaults apply to anything unset (tests inject a fake socket and a clock). */
export interface WhatsAppPluginOptions {
  /** Makes a socket (default: Baileys' `makeWASocket`, announcing the newest WhatsApp Web version). */
  makeSocket?: MakeSocket;
  /** Reads an inbound file (default: Baileys' `downloadMediaMessage`). */
  downloadMedia?: DownloadMedia;
  clock?: Clock;
  /** Reconnect backoff (default 2 s x1.8 up to 60 s, ±25 %, 12 failures in a row). */
  reconnect?: Partial<ReconnectPolicy>;
  /** A socket without frames this long is replaced (default 120 000 ms). */
  watchdogMs?: number;
  /** How long a send waits for a reconnect (default 30 000 ms). */
  reconnectWaitMs?: number;
  /** Pause after WhatsApp refuses a send as rate-overlimit (default 2000 ms). */
  rateLimitedWaitMs?: number;
  /** How often an unlinked account checks for a new login (default 5000 ms). */
  linkPollMs?: number;
  /** How long `connect` waits for the first open (default 20 000 ms). */
  firstOpenWaitMs?: number;
}

/** The WhatsApp plugin: a `ChannelPlugin` whose `login` and `logout` are always there. */
export type WhatsAppPlugin = ChannelPlugin<WhatsAppAccount, typeof whatsappConfigSchema> & {
  login(ctx: ChannelLoginContext<WhatsAppAccount>): Promise<ChannelLoginResult>;
  logout(ctx: ChannelLoginContext<WhatsAppAccount>): Promise<void>;
};

let latestVersion: Promise<[number, number, number] | undefined> | undefined;

/** Baileys' own socket, announcing the newest WhatsApp Web version (fetched once per process). */
function productionRuntime(): Pick<WhatsAppRuntime, "makeSocket" | "socketConfig" | "downloadMedia"> {
  return {
    makeSocket: (config) => {
      throw new Error(`internal: production makeSocket used before it was loaded (${config.browser.join(" ")})`);
    },
    async socketConfig(log: PluginLogger) {
      const { fetchLatestBaileysVersion } = await import("./baileys.js");
      latestVersion ??= fetchLatestBaileysVersion().then(
        (v) => v.version as [number, number, number],
        () => undefined,
      );
      const version = await latestVersion;
      return {
        browser: BROWSER,
        logger: baileysLogger(log),
        printQRInTerminal: false,
        markOnlineOnConnect: false,
        syncFullHistory: false,
        ...(version !== undefined ? { version } : {}),
      };
    },
    async downloadMedia(message: WAMessage, socket: WhatsAppSocketLike) {
      const { downloadMediaMessage } = await import("./baileys.js");
      const reuploadRequest = (socket as { updateMediaMessage?: (m: WAMessage) => Promise<WAMessage> }).updateMediaMessage;
      return downloadMediaMessage(
        message,
        "buffer",
        {},
        {
          logger: baileysLogger({ debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined }) as never,
          reuploadRequest: reuploadRequest ?? (async (m: WAMessage) => m),
        },
      );
    },
  };
}

/** Builds the WhatsApp channel plugin; the package's default export is `createWhatsAppPlugin()`. */
export function createWhatsAppPlugin(options: WhatsAppPluginOptions = {}): WhatsAppPlugin {
  const production = productionRuntime();
  const runtime: WhatsAppRuntime = {
    makeSocket: options.makeSocket ?? production.makeSocket,
    socketConfig: options.makeSocket
      ? async (log) => ({
          browser: BROWSER,
          logger: baileysLogger(log),
          printQRInTerminal: false,
          markOnlineOnConnect: false,
          syncFullHistory: false,
        })
      : production.socketConfig,
    downloadMedia: options.downloadMedia ?? production.downloadMedia,
    clock: options.clock ?? DEFAULT_TIMING.clock,
    reconnect: { ...DEFAULT_TIMING.reconnect, ...options.reconnect },
    watchdogMs: options.watchdogMs ?? DEFAULT_TIMING.watchdogMs,
    reconnectWaitMs: options.reconnectWaitMs ?? DEFAULT_TIMING.reconnectWaitMs,
    rateLimitedWaitMs: options.rateLimitedWaitMs ?? DEFAULT_TIMING.rateLimitedWaitMs,
    linkPollMs: options.linkPollMs ?? DEFAULT_TIMING.linkPollMs,
    firstOpenWaitMs: options.firstOpenWaitMs ?? DEFAULT_TIMING.firstOpenWaitMs,
  };
  const withBaileys = async (): Promise<WhatsAppRuntime> => {
    if (options.makeSocket) return runtime;
    const { makeWASocket } = await import("./baileys.js");
    return { ...runtime, makeSocket: (config) => makeWASocket(config as never) as unknown as WhatsAppSocketLike };
  };
  const plugin = defineChannelPlugin({
    specificationVersion: SPECIFICATION_VERSION,
    id: "whatsapp",
    meta: {
      label: "WhatsApp",
      docsPath: "docs/channels/whatsapp.md",
      blurb: "WhatsApp as a linked device (like WhatsApp Web), linked by QR code; DMs and groups, files and voice notes.",
    },
    config: whatsappChannelConfig,
    listAccounts: listWhatsAppAccounts,
    resolveAccount: resolveWhatsAppAccount,
    connect: async (ctx) => connectWhatsAppAccount(ctx, await withBaileys()),
    login: async (ctx) => loginWhatsApp(ctx, await withBaileys()),
    logout: async (ctx) => logoutWhatsApp(ctx, await withBaileys()),
  });
  return plugin as WhatsAppPlugin;
}
