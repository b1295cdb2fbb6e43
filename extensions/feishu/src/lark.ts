/**
 * The few parts of `@larksuiteoapi/node-sdk` this plugin uses, typed here and loaded lazily (the
 * SDK is large: the light config entry and validation never load it).
 */
import type { PluginLogger } from "@openclaw/plugin-sdk";

/** `Client.request`: an Open API call with the tenant token added; resolves with the response body. */
export interface LarkClient {
  request(payload: {
    method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
    url: string;
    data?: unknown;
    params?: Record<string, string>;
    headers?: Record<string, string>;
  }): Promise<unknown>;
  im: {
    image: { create(payload: { data: { image_type: "message"; image: Buffer } }): Promise<{ image_key?: string } | null> };
    file: {
      create(payload: { data: { file_type: string; file_name: string; file: Buffer } }): Promise<{ file_key?: string } | null>;
    };
    messageResource: {
      get(payload: {
        params: { type: "image" | "file" };
        path: { message_id: string; file_key: string };
      }): Promise<{ getReadableStream(): NodeJS.ReadableStream }>;
    };
  };
}

/** The SDK's long-connection client. */
export interface LarkWSClient {
  start(params: { eventDispatcher: LarkEventDispatcher }): Promise<void>;
  close(params?: { force?: boolean }): void;
}

/** Routes decoded events to handlers by event type; `invoke` is what the WSClient calls per event. */
export interface LarkEventDispatcher {
  register(handles: Record<string, (data: Record<string, unknown>) => Promise<unknown>>): LarkEventDispatcher;
}

interface LarkModule {
  Client: new (options: Record<string, unknown>) => LarkClient;
  WSClient: new (options: Record<string, unknown>) => LarkWSClient;
  EventDispatcher: new (options: Record<string, unknown>) => LarkEventDispatcher;
  LoggerLevel: Record<string, number>;
}

let loaded: Promise<LarkModule> | undefined;

/**
 * The SDK module (loaded once, on the first connection). The specifier is cast so the type checker
 * does not load the SDK's 17 MB of types; the published package bundles the SDK with the plugin
 * (scripts/bundle-extension.mjs), so this loads one file instead of its CommonJS tree.
 */
export function loadLark(): Promise<LarkModule> {
  loaded ??= import("@larksuiteoapi/node-sdk" as string).then((mod: { default?: LarkModule } & LarkModule) =>
    mod.Client ? mod : (mod.default as LarkModule),
  );
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
