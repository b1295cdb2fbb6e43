/**
 * The WebSocket gateway client: Hello -> Identify (or Resume with the stored session), heartbeats
 * at the server's interval, dispatches handed on in order, Reconnect (op 7), Invalid Session
 * (op 9), the close-code table, and reconnects with backoff (1 s up to 60 s).
 *
 * Durable before acknowledged: a dispatch's sequence number is stored only after `onDispatch`
 * resolved for it (the host recorded the message), so Resume after a drop or a restart replays
 * exactly what was not recorded.
 */
import WebSocket from "ws";
import { AccountConfigError, type PluginLogger } from "@openclaw/plugin-sdk";
import type { QQApi } from "./api.js";
import { closeAction, fatalReason } from "./close-codes.js";
import { type GatewaySession, loadSession, saveSession } from "./gateway-state.js";
import type { TokenManager } from "./token.js";

/** PUBLIC_GUILD_MESSAGES | DIRECT_MESSAGE | GROUP_AND_C2C | INTERACTION. */
export const INTENTS = (1 << 30) | (1 << 12) | (1 << 25) | (1 << 26);

/** Timing knobs (tests shorten them). */
export interface GatewayTuning {
  /** Waits between reconnect attempts, the last one repeated (default 1, 2, 5, 10, 30, 60 s). */
  reconnectDelaysMs: readonly number[];
  /** Wait after close code 4008 (default 60 s). */
  rateLimitedWaitMs: number;
}

/** Production timing. */
export const DEFAULT_GATEWAY_TUNING: GatewayTuning = {
  reconnectDelaysMs: [1000, 2000, 5000, 10_000, 30_000, 60_000],
  rateLimitedWaitMs: 60_000,
};

/** What the gateway client needs. */
export interface GatewayOptions {
  api: QQApi;
  tokens: TokenManager;
  cursor: { get(key: string): string | undefined; set(key: string, value: string): void };
  log: PluginLogger;
  signal: AbortSignal;
  tuning: GatewayTuning;
  /** Handles one dispatch (not READY/RESUMED); the sequence is stored once it resolves. A rejection halts delivery. */
  onDispatch(type: string, data: unknown): Promise<void>;
  /** Called when a session is ready (READY or RESUMED) and when the connection is lost. */
  onState(state: { connected: true; identity?: string; resumed: boolean } | { connected: false; detail: string }): void;
}

interface Queued {
  generation: number;
  seq: number | undefined;
  type: string;
  data: unknown;
}

/** One account's gateway connection, across reconnects. */
export class QQGateway {
  readonly #o: GatewayOptions;
  #session: GatewaySession | undefined;
  #generation = 0;
  #lastSeen: number | null = null;
  #queue: Queued[] = [];
  #draining = false;
  #halted = false;
  #socket: WebSocket | undefined;
  #attempt = 0;
  /** Connections opened, identifies and resumes sent (for status and tests). */
  readonly stats = { connections: 0, identifies: 0, resumes: 0 };

  constructor(options: GatewayOptions) {
    this.#o = options;
    this.#session = loadSession(options.cursor);
  }

  /** Runs until the signal fires (resolves) or the platform stops the bot for good (rejects). */
  async run(): Promise<void> {
    const { signal, log } = this.#o;
    while (!signal.aborted) {
      const closed = await this.#connectOnce().catch((error: unknown) => ({ code: -1, reason: (error as Error).message }));
      if (signal.aborted) break;
      const action = closed.code === -1 ? "resume" : closeAction(closed.code);
      const detail = `gateway connection closed (${closed.code === -1 ? closed.reason : `code ${closed.code}${closed.reason ? `: ${closed.reason}` : ""}`})`;
      if (action === "fatal") throw new AccountConfigError(`QQ Bot: ${fatalReason(closed.code)}.`, "channels.qqbot.appId");
      if (action === "normal") throw new Error(`QQ Bot: ${detail}; the account reconnects`);
      this.#o.onState({ connected: false, detail });
      if (action === "refresh-token") this.#o.tokens.invalidate();
      if (action === "new-session") {
        this.#o.tokens.invalidate();
        this.#forgetSession();
      }
      const delays = this.#o.tuning.reconnectDelaysMs;
      const wait = action === "rate-limited" ? this.#o.tuning.rateLimitedWaitMs : delays[Math.min(this.#attempt, delays.length - 1)]!;
      this.#attempt += 1;
      log.info(`${detail}; reconnecting in ${wait} ms`);
      await sleep(wait, signal);
    }
  }

  /** Opens one connection; resolves with its close code once it closed. */
  async #connectOnce(): Promise<{ code: number; reason: string }> {
    const { api, tokens, signal, log } = this.#o;
    const url = await api.gatewayUrl(signal);
    const token = await tokens.get();
    if (signal.aborted) return { code: 1000, reason: "stopping" };
    const ws = new WebSocket(url);
    this.#socket = ws;
    this.stats.connections += 1;
    let heartbeat: NodeJS.Timeout | undefined;
    let acked = true;
    const onAbort = (): void => ws.close(1000, "stopping");
    signal.addEventListener("abort", onAbort, { once: true });
    const send = (payload: unknown): void => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(payload));
    };
    return new Promise((resolve) => {
      ws.on("message", (raw) => {
        let frame: { op?: unknown; d?: unknown; s?: unknown; t?: unknown };
        try {
          frame = JSON.parse(String(raw));
        } catch {
          log.warn("QQ Bot gateway sent a frame that is not JSON; ignored");
          return;
        }
        switch (frame.op) {
          case 10: {
            const interval = Number((frame.d as { heartbeat_interval?: unknown } | undefined)?.heartbeat_interval);
            const every = Number.isFinite(interval) && interval > 0 ? interval : 41_250;
            heartbeat = setInterval(() => {
              // No ACK since the last heartbeat: the connection is dead without having closed.
              if (!acked) return ws.terminate();
              acked = false;
              send({ op: 1, d: this.#lastSeen });
            }, every);
            if (this.#session !== undefined) {
              this.stats.resumes += 1;
              send({ op: 6, d: { token: `QQBot ${token}`, session_id: this.#session.sessionId, seq: this.#session.seq } });
            } else {
              this.stats.identifies += 1;
              send({ op: 2, d: { token: `QQBot ${token}`, intents: INTENTS, shard: [0, 1] } });
            }
            return;
          }
          case 11:
            acked = true;
            return;
          case 7:
            log.info("QQ Bot gateway asked to reconnect (op 7)");
            ws.close(4000, "reconnect requested");
            return;
          case 9:
            log.info(`QQ Bot gateway invalidated the session (op 9, resumable: ${frame.d === true})`);
            if (frame.d !== true) {
              tokens.invalidate();
              this.#forgetSession();
            }
            ws.close(4000, "invalid session");
            return;
          case 0:
            this.#dispatch(frame);
            return;
          default:
            return;
        }
      });
      ws.on("error", (error) => log.debug(`QQ Bot gateway socket error: ${error.message}`));
      ws.on("close", (code, reason) => {
        clearInterval(heartbeat);
        signal.removeEventListener("abort", onAbort);
        if (this.#socket === ws) this.#socket = undefined;
        resolve({ code, reason: reason.toString() });
      });
    });
  }

  #dispatch(frame: { d?: unknown; s?: unknown; t?: unknown }): void {
    const seq = typeof frame.s === "number" ? frame.s : undefined;
    if (seq !== undefined) this.#lastSeen = Math.max(this.#lastSeen ?? 0, seq);
    const type = typeof frame.t === "string" ? frame.t : "";
    if (type === "READY") {
      const d = frame.d as { session_id?: unknown; user?: { username?: unknown; id?: unknown } } | undefined;
      if (typeof d?.session_id !== "string") return;
      // A new session numbers its events afresh: events queued from the old one are still handed
      // on, but only this session's numbers are stored.
      this.#generation += 1;
      this.#lastSeen = seq ?? 0;
      this.#session = { sessionId: d.session_id, seq: seq ?? 0 };
      saveSession(this.#o.cursor, this.#session);
      this.#attempt = 0;
      const name = typeof d.user?.username === "string" ? d.user.username : undefined;
      this.#o.onState({ connected: true, resumed: false, ...(name !== undefined ? { identity: name } : {}) });
      return;
    }
    if (type === "RESUMED") {
      this.#attempt = 0;
      this.#o.onState({ connected: true, resumed: true });
      return;
    }
    this.#queue.push({ generation: this.#generation, seq, type, data: frame.d });
    void this.#drain();
  }

  /** Hands queued dispatches on one at a time, storing each one's sequence once handled. */
  async #drain(): Promise<void> {
    if (this.#draining || this.#halted) return;
    this.#draining = true;
    try {
      while (this.#queue.length > 0 && !this.#halted) {
        const item = this.#queue.shift()!;
        const current = item.generation === this.#generation && this.#session !== undefined;
        // A replayed event this session already stored (Resume replays from the stored number).
        if (current && item.seq !== undefined && item.seq <= this.#session!.seq) continue;
        try {
          await this.#o.onDispatch(item.type, item.data);
        } catch (error) {
          // The host cannot record messages (it is stopping): store nothing more; Resume replays them.
          this.#halted = true;
          this.#o.log.info(`QQ Bot: stopped handing on events (${(error as Error).message})`);
          return;
        }
        if (current && item.seq !== undefined && item.generation === this.#generation && this.#session !== undefined) {
          this.#session = { sessionId: this.#session.sessionId, seq: Math.max(this.#session.seq, item.seq) };
          saveSession(this.#o.cursor, this.#session);
        }
      }
    } finally {
      this.#draining = false;
    }
  }

  #forgetSession(): void {
    this.#session = undefined;
    this.#lastSeen = null;
    saveSession(this.#o.cursor, undefined);
  }

  /** Closes the socket without a close handshake's wait (used on stop). */
  close(): void {
    this.#socket?.close(1000, "stopping");
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
