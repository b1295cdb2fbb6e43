/**
 * The parts of `@larksuiteoapi/node-sdk` this plugin uses (the long connection), typed here and
 * loaded lazily: the light config entry, validation and webhook mode never load it.
 */
import type { PluginLogger } from "@openclaw/plugin-sdk";

/** The SDK's long-connection client. */
export interface LarkWSClient {
  start(params: { eventDispatcher: LarkEventDispatcher }): Promise<void>;
  close(params?: { force?: boolean }): void;
}

/** Routes decoded events to handlers by event type; `invoke` is what the WSClient calls per event. */
export interface LarkEventDispatcher {
  register(handles: Record<string, (data: Record<string, unknown>) => Promise<unknown>>): LarkEventDispatcher;
}

type LarkModule = typeof import("./lark-sdk.js");

let loaded: Promise<LarkModule> | undefined;

/** The SDK's long connection (loaded once, on the first connection; lark-sdk.js says what it holds). */
export function loadLark(): Promise<LarkModule> {
  loaded ??= import("./lark-sdk.js");
  return loaded;
}

/** The SDK's logger interface on top of the plugin's (SDK chatter goes to debug, its errors to warn). */
export function larkLogger(log: PluginLogger): Record<string, (...args: unknown[]) => void> {
  const text = (args: unknown[]) =>
    args.map((a) => (typeof a === "string" ? a : a instanceof Error ? a.message : JSON.stringify(a))).join(" ");
  return {
    error: (...args) => log.warn(`Feishu SDK: ${text(args)}`),
    warn: (...args) => log.warn(`Feishu SDK: ${text(args)}`),
    info: (...args) => log.debug(`Feishu SDK: ${text(args)}`),
    debug: (...args) => log.debug(`Feishu SDK: ${text(args)}`),
    trace: () => undefined,
  };
}
