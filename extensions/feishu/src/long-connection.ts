/**
 * Websocket mode: the SDK's `WSClient` (the long connection the bot opens itself). The client
 * reconnects on its own after a dropped connection; when it gives up ("reconnect exhausted", a
 * refused endpoint), it is closed and a new one is made after a backoff of 1 s doubling to 30 s.
 */
import type { PluginLogger } from "@openclaw/plugin-sdk";
import { MESSAGE_EVENT } from "./inbound.js";
import { larkLogger, loadLark } from "./lark.js";
import { sleep } from "./sleep.js";

/** Waits between recreated clients: 1 s doubling to 30 s (tests shorten them). */
export interface RecreateBackoff {
  initialMs: number;
  maxMs: number;
}

export const DEFAULT_RECREATE_BACKOFF: RecreateBackoff = { initialMs: 1000, maxMs: 30_000 };

export interface LongConnectionOptions {
  appId: string;
  appSecret: string;
  domain: string;
  log: PluginLogger;
  signal: AbortSignal;
  backoff?: RecreateBackoff;
  /** Each `im.message.receive_v1` event (flattened by the SDK: header fields and event fields); the ack waits for it. */
  onMessage(event: Record<string, unknown>): Promise<void>;
  onState(state: { connected: boolean; detail: string }): void;
}

/** Runs the long connection until `signal` fires; resolves then. */
export async function runLongConnection(options: LongConnectionOptions): Promise<void> {
  const lark = await loadLark();
  const backoff = options.backoff ?? DEFAULT_RECREATE_BACKOFF;
  let delay = backoff.initialMs;
  while (!options.signal.aborted) {
    const gaveUp = await new Promise<string | undefined>((resolve) => {
      const dispatcher = new lark.EventDispatcher({ logger: larkLogger(options.log) }).register({
        [MESSAGE_EVENT]: async (data) => {
          // Thrown errors answer the platform with a failure, so it delivers the event again.
          await options.onMessage(data);
        },
      });
      const client = new lark.WSClient({
        appId: options.appId,
        appSecret: options.appSecret,
        domain: options.domain,
        logger: larkLogger(options.log),
        autoReconnect: true,
        onReady: () => {
          delay = backoff.initialMs;
          options.onState({ connected: true, detail: "long connection open" });
        },
        onReconnecting: () => options.onState({ connected: false, detail: "long connection dropped; reconnecting" }),
        onReconnected: () => {
          delay = backoff.initialMs;
          options.onState({ connected: true, detail: "long connection open again" });
        },
        onError: (error: Error) => {
          client.close({ force: true });
          resolve(error.message);
        },
      });
      const stop = () => {
        client.close({ force: true });
        resolve(undefined);
      };
      if (options.signal.aborted) return stop();
      options.signal.addEventListener("abort", stop, { once: true });
      client.start({ eventDispatcher: dispatcher }).catch((error: unknown) => {
        client.close({ force: true });
        resolve((error as Error)?.message ?? String(error));
      });
    });
    if (gaveUp === undefined || options.signal.aborted) return;
    options.log.warn(`Feishu long connection gave up (${gaveUp}); a new client connects in ${delay} ms`);
    options.onState({ connected: false, detail: `long connection failed (${gaveUp}); retrying in ${Math.round(delay / 1000)} s` });
    await sleep(delay, options.signal);
    delay = Math.min(backoff.maxMs, delay * 2);
  }
}
