/**
 * One WhatsApp connection across reconnects: makes a socket per attempt, saves creds on every
 * `creds.update`, and decides what a close means by its `DisconnectReason`:
 * - restartRequired (515, sent right after linking): reconnect at once;
 * - loggedOut (401, unlinked on the phone): stop; the user must link again;
 * - anything else: reconnect after a backoff with jitter (reset once a socket opens).
 * A watchdog ends a socket that stopped carrying frames and reconnects at once.
 */
import { DisconnectReason } from "./baileys.js";
import type { FileAuthState } from "./auth-state.js";
import { type Clock, sleep } from "./clock.js";
import { type MakeSocket, statusCodeOf, type WhatsAppSocketLike } from "./socket.js";

/** Reconnect backoff: `initialMs * factor^n` up to `maxMs`, each ±`jitter` (a fraction), at most `maxAttempts` in a row. */
export interface ReconnectPolicy {
  initialMs: number;
  maxMs: number;
  factor: number;
  jitter: number;
  maxAttempts: number;
}

/** Production reconnect policy: 2 s growing by 1.8 up to 60 s, ±25 %, 12 failures in a row before giving up to the host. */
export const DEFAULT_RECONNECT: ReconnectPolicy = { initialMs: 2000, maxMs: 60_000, factor: 1.8, jitter: 0.25, maxAttempts: 12 };

/** A socket silent this long is ended and replaced (Baileys pings every 30 s; default 120 s). */
export const DEFAULT_WATCHDOG_MS = 120_000;

/** How a connection's run ended. */
export type ConnectionOutcome = "stopped" | "logged-out" | "needs-login";

/** What `WhatsAppConnection` needs. */
export interface ConnectionOptions {
  auth: FileAuthState;
  makeSocket: MakeSocket;
  /** Builds the rest of the socket config (browser, logger, version). */
  socketConfig: () => Promise<Omit<Parameters<MakeSocket>[0], "auth">>;
  clock: Clock;
  signal: AbortSignal;
  reconnect: ReconnectPolicy;
  watchdogMs: number;
  log: { info(message: string): void; warn(message: string): void; debug(message: string): void };
  /**
   * A QR code arrived: the login flow shows it (and returns true); the gateway returns false (the
   * device is not linked; it never shows a QR) and the run ends with "needs-login".
   */
  onQr(qr: string, socket: WhatsAppSocketLike): boolean;
  /** A socket was made: attach message listeners to it. */
  onSocket?(socket: WhatsAppSocketLike): void;
  onOpen?(socket: WhatsAppSocketLike): void;
  /** The socket closed and the connection will try again after `delayMs`. */
  onReconnecting?(detail: string, delayMs: number): void;
}

/** The delay before reconnect attempt `attempt` (0-based) under `policy`, with `random` in [0, 1). */
export function backoffDelay(policy: ReconnectPolicy, attempt: number, random: number): number {
  const base = Math.min(policy.maxMs, policy.initialMs * policy.factor ** attempt);
  return Math.max(0, Math.round(base * (1 + policy.jitter * (2 * random - 1))));
}

const REASON_NAMES = new Map<number, string>(
  Object.entries(DisconnectReason)
    .filter(([, value]) => typeof value === "number")
    .map(([name, value]) => [value as number, name]),
);

/** A close reason for logs, e.g. "connectionLost (408)". */
export function describeClose(error: unknown): string {
  const code = statusCodeOf(error);
  if (code === undefined) return (error as Error | undefined)?.message ?? "closed";
  return `${REASON_NAMES.get(code) ?? "status"} (${code})`;
}

/** One account's connection; `run()` keeps it up until stopped or logged out. */
export class WhatsAppConnection {
  readonly #o: ConnectionOptions;
  #socket: WhatsAppSocketLike | undefined;
  #open = false;
  readonly #openWaiters = new Set<() => void>();

  constructor(options: ConnectionOptions) {
    this.#o = options;
  }

  /** The socket when it is open. */
  get openSocket(): WhatsAppSocketLike | undefined {
    return this.#open ? this.#socket : undefined;
  }

  /**
   * The open socket; waits up to `timeoutMs` for a reconnect when there is none. Rejects on
   * timeout or when `signal` fires.
   */
  whenOpen(timeoutMs: number, signal?: AbortSignal): Promise<WhatsAppSocketLike> {
    const open = this.openSocket;
    if (open !== undefined) return Promise.resolve(open);
    return new Promise((resolve, reject) => {
      const done = (error?: unknown): void => {
        this.#openWaiters.delete(onOpen);
        this.#o.clock.clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        this.#o.signal.removeEventListener("abort", onAbort);
        if (error !== undefined) reject(error);
      };
      const onOpen = (): void => {
        done();
        resolve(this.#socket!);
      };
      const onAbort = (): void => done(signal?.reason ?? this.#o.signal.reason ?? new Error("stopped"));
      const timer = this.#o.clock.setTimeout(
        () => done(new Error(`WhatsApp is not connected (waited ${Math.round(timeoutMs / 1000)} s for a reconnect)`)),
        timeoutMs,
      );
      this.#openWaiters.add(onOpen);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#o.signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Connects and reconnects until stopped, logged out, or (gateway) a QR appears. Rejects after too many failures in a row. */
  async run(): Promise<ConnectionOutcome> {
    const { signal, clock, reconnect, log } = this.#o;
    let failures = 0;
    while (!signal.aborted) {
      const close = await this.#attempt();
      if (signal.aborted) return "stopped";
      if (close.kind === "qr") return "needs-login";
      if (close.kind === "opened-then-closed") failures = 0;
      const code = statusCodeOf(close.error);
      const detail = close.watchdog ? "no frames from WhatsApp (watchdog)" : describeClose(close.error);
      if (code === DisconnectReason.loggedOut) {
        log.warn(`WhatsApp: logged out (${detail})`);
        return "logged-out";
      }
      if (code === DisconnectReason.restartRequired || close.watchdog) {
        log.info(`WhatsApp: ${detail}; reconnecting now`);
        this.#o.onReconnecting?.(detail, 0);
        continue;
      }
      if (failures >= reconnect.maxAttempts)
        throw new Error(`WhatsApp: ${failures} connection attempts failed in a row (last: ${detail}); the gateway will try again later`);
      const delay = backoffDelay(reconnect, failures, clock.random());
      failures++;
      log.info(`WhatsApp: connection closed (${detail}); reconnecting in ${delay} ms`);
      this.#o.onReconnecting?.(detail, delay);
      try {
        await sleep(clock, delay, signal);
      } catch {
        return "stopped";
      }
    }
    return "stopped";
  }

  /** One socket, from making it to its close. */
  async #attempt(): Promise<{ kind: "qr" | "closed" | "opened-then-closed"; error?: unknown; watchdog?: boolean }> {
    const { auth, clock, signal, watchdogMs } = this.#o;
    const config = await this.#o.socketConfig();
    const socket = this.#o.makeSocket({ ...config, auth: auth.state });
    this.#socket = socket;
    this.#o.onSocket?.(socket);
    return new Promise((resolve) => {
      let opened = false;
      let watchdogFired = false;
      let lastFrame = clock.now();
      let watchdog: unknown;
      const armWatchdog = (): void => {
        clock.clearTimeout(watchdog);
        if (!opened) return;
        watchdog = clock.setTimeout(
          () => {
            if (clock.now() - lastFrame < watchdogMs) return armWatchdog();
            watchdogFired = true;
            this.#o.log.warn(`WhatsApp: no frames for ${Math.round(watchdogMs / 1000)} s; replacing the socket`);
            socket.end(new Error("watchdog: the socket went silent"));
          },
          Math.max(1, lastFrame + watchdogMs - clock.now()),
        );
      };
      const onFrame = (): void => {
        lastFrame = clock.now();
      };
      const onCreds = (): void => {
        auth.saveCreds().catch((error: Error) => this.#o.log.warn(`WhatsApp: saving creds failed: ${error.message}`));
      };
      const finish = (result: { kind: "qr" | "closed" | "opened-then-closed"; error?: unknown; watchdog?: boolean }): void => {
        clock.clearTimeout(watchdog);
        this.#open = false;
        socket.ev.off("connection.update", onUpdate);
        socket.ev.off("creds.update", onCreds);
        socket.ws?.off("frame", onFrame);
        signal.removeEventListener("abort", onAbort);
        resolve(result);
      };
      const onUpdate = (update: { connection?: string; qr?: string; lastDisconnect?: { error?: unknown } }): void => {
        onFrame();
        if (update.qr !== undefined && !this.#o.onQr(update.qr, socket)) {
          socket.ev.off("connection.update", onUpdate);
          socket.end(undefined);
          finish({ kind: "qr" });
          return;
        }
        if (update.connection === "open") {
          opened = true;
          this.#open = true;
          armWatchdog();
          this.#o.onOpen?.(socket);
          for (const waiter of [...this.#openWaiters]) waiter();
        } else if (update.connection === "close") {
          finish({
            kind: opened ? "opened-then-closed" : "closed",
            error: update.lastDisconnect?.error,
            watchdog: watchdogFired,
          });
        }
      };
      const onAbort = (): void => {
        socket.end(undefined);
        finish({ kind: "closed" });
      };
      socket.ev.on("connection.update", onUpdate);
      socket.ev.on("creds.update", onCreds);
      socket.ws?.on("frame", onFrame);
      signal.addEventListener("abort", onAbort, { once: true });
      if (signal.aborted) onAbort();
    });
  }
}
