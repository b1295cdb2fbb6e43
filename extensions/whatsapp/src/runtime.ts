/**
 * What a running account or a login needs besides its config: the socket factory (Baileys in
 * production, a fake in tests), media download, the clock and the timing knobs.
 */
import type { PluginLogger } from "@openclaw/plugin-sdk";
import { type Clock, systemClock } from "./clock.js";
import { DEFAULT_RECONNECT, DEFAULT_WATCHDOG_MS, type ReconnectPolicy } from "./connection.js";
import type { DownloadMedia, MakeSocket, SocketConfig } from "./socket.js";

/** Runtime settings, production defaults filled in. */
export interface WhatsAppRuntime {
  makeSocket: MakeSocket;
  /** Everything of the socket config but `auth` (browser, logger, version). */
  socketConfig(log: PluginLogger): Promise<Omit<SocketConfig, "auth">>;
  downloadMedia: DownloadMedia;
  clock: Clock;
  reconnect: ReconnectPolicy;
  watchdogMs: number;
  /** How long a send waits for a reconnect (default 30 s). */
  reconnectWaitMs: number;
  /** Pause after a rate-overlimit refusal (default 2 s). */
  rateLimitedWaitMs: number;
  /** How often an unlinked account looks for a login made by `openclaw channels login` (default 5 s). */
  linkPollMs: number;
  /** How long `connect` waits for the first open before returning the session anyway (default 20 s). */
  firstOpenWaitMs: number;
}

/** Defaults of the timing knobs. */
export const DEFAULT_TIMING = {
  reconnect: DEFAULT_RECONNECT,
  watchdogMs: DEFAULT_WATCHDOG_MS,
  reconnectWaitMs: 30_000,
  rateLimitedWaitMs: 2000,
  linkPollMs: 5000,
  firstOpenWaitMs: 20_000,
  clock: systemClock,
} as const;

/** The name the linked device shows under "Linked devices" on the phone. */
export const BROWSER: [string, string, string] = ["OpenClaw", "Chrome", "1.0"];

type LogFn = (obj: unknown, msg?: string) => void;

/** A pino-shaped logger for Baileys that sends its chatter to debug and its problems to warn/error. */
export function baileysLogger(log: PluginLogger, level = "warn"): Record<string, unknown> {
  const text = (obj: unknown, msg?: string): string =>
    msg ?? (typeof obj === "string" ? obj : obj instanceof Error ? obj.message : JSON.stringify(obj));
  const debug: LogFn = (obj, msg) => log.debug(`baileys: ${text(obj, msg)}`);
  const logger: Record<string, unknown> = {
    level,
    trace: () => undefined,
    debug,
    info: debug,
    warn: ((obj, msg) => log.warn(`baileys: ${text(obj, msg)}`)) as LogFn,
    error: ((obj, msg) => log.error(`baileys: ${text(obj, msg)}`)) as LogFn,
    fatal: ((obj, msg) => log.error(`baileys: ${text(obj, msg)}`)) as LogFn,
  };
  logger.child = () => logger;
  return logger;
}
