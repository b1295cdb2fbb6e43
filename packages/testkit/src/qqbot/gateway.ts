import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { type RawData, WebSocket, WebSocketServer } from "ws";
import { newId } from "./store.js";
import { tokenFromAuth } from "./tokens.js";
import type { FakeQQGatewayState } from "./types.js";

/**
 * Close codes the fake sends (the platform's gateway error table): 4001 unknown opcode, 4002 bad
 * payload, 4004 invalid token, 4007 Resume with a seq the session never reached, 4009 session
 * timed out (no heartbeat for two intervals), 4013 invalid intents.
 */
export const CLOSE = { badOpcode: 4001, badPayload: 4002, badToken: 4004, badSeq: 4007, timedOut: 4009, badIntents: 4013 } as const;

/** A dispatch kept for Resume: `written` once it went out on a socket. */
interface LoggedDispatch {
  s: number;
  t: string;
  id: string;
  d: unknown;
  written: boolean;
}

interface Session {
  id: string;
  seq: number;
  log: LoggedDispatch[];
  /** op 9 d:false was sent: Resume with this id is refused. */
  invalidated: boolean;
}

export interface GatewayOptions {
  heartbeatIntervalMs: number;
  bot: { id: string; username: string };
  isValidToken(token: string | undefined): boolean;
  /** Called on every state change (for `waitFor`). */
  notify(): void;
}

/**
 * The WebSocket gateway at `/websocket`: Hello, Identify/READY, Resume/replay/RESUMED,
 * heartbeats, and the dispatch log. There is one bot session at a time. Dispatches made while no
 * socket carries the session are logged for Resume; ones that never reached any socket are also
 * sent after the READY of a fresh Identify (so a test's first message is not lost to start-up).
 */
export class Gateway {
  readonly state: FakeQQGatewayState;
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly sockets = new Set<WebSocket>();
  private readonly watchdogs = new Map<WebSocket, NodeJS.Timeout>();
  private session: Session | undefined;
  private attached: WebSocket | undefined;
  private pending: { t: string; id: string; d: unknown }[] = [];

  constructor(private readonly options: GatewayOptions) {
    const self = this;
    this.state = {
      identifies: 0,
      resumes: 0,
      connections: 0,
      get connected() {
        return self.attached?.readyState === WebSocket.OPEN;
      },
    };
  }

  /** Takes an HTTP upgrade for `/websocket`. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws));
  }

  /** Sends (or logs) a dispatch `{op:0, s, t, id, d}`. */
  dispatch(t: string, d: unknown): void {
    const id = `${t}:${newId("")}`;
    if (!this.session) this.pending.push({ t, id, d });
    else this.logAndSend(this.session, { t, id, d });
    this.options.notify();
  }

  /** Sockets the faults act on (every open one). */
  openSockets(): WebSocket[] {
    return [...this.sockets].filter((ws) => ws.readyState === WebSocket.OPEN);
  }

  sendReconnect(): void {
    for (const ws of this.openSockets()) send(ws, { op: 7 });
  }

  invalidateSession(resumable: boolean): void {
    if (!resumable && this.session) this.session.invalidated = true;
    for (const ws of this.openSockets()) send(ws, { op: 9, d: resumable });
    this.options.notify();
  }

  close(): void {
    for (const ws of this.sockets) ws.terminate();
    for (const timer of this.watchdogs.values()) clearTimeout(timer);
    this.watchdogs.clear();
    this.wss.close();
  }

  private accept(ws: WebSocket): void {
    this.sockets.add(ws);
    this.state.connections += 1;
    ws.on("message", (data) => this.receive(ws, data));
    ws.on("close", () => {
      this.sockets.delete(ws);
      clearTimeout(this.watchdogs.get(ws));
      this.watchdogs.delete(ws);
      if (this.attached === ws) this.attached = undefined;
      this.options.notify();
    });
    ws.on("error", () => {});
    send(ws, { op: 10, d: { heartbeat_interval: this.options.heartbeatIntervalMs } });
    this.armWatchdog(ws);
    this.options.notify();
  }

  private armWatchdog(ws: WebSocket): void {
    clearTimeout(this.watchdogs.get(ws));
    const timer = setTimeout(() => ws.close(CLOSE.timedOut, "session timed out"), this.options.heartbeatIntervalMs * 2);
    timer.unref();
    this.watchdogs.set(ws, timer);
  }

  private receive(ws: WebSocket, data: RawData): void {
    let frame: { op?: unknown; d?: any };
    try {
      frame = JSON.parse(data.toString());
    } catch {
      ws.close(CLOSE.badPayload, "invalid payload");
      return;
    }
    switch (frame.op) {
      case 1:
        this.armWatchdog(ws);
        send(ws, { op: 11 });
        return;
      case 2:
        return this.identify(ws, frame.d ?? {});
      case 6:
        return this.resume(ws, frame.d ?? {});
      default:
        ws.close(CLOSE.badOpcode, `unknown opcode ${String(frame.op)}`);
    }
  }

  private checkToken(ws: WebSocket, token: unknown): boolean {
    if (this.options.isValidToken(tokenFromAuth(token))) return true;
    ws.close(CLOSE.badToken, "invalid token");
    return false;
  }

  private identify(ws: WebSocket, d: { token?: unknown; intents?: unknown; shard?: unknown }): void {
    if (!this.checkToken(ws, d.token)) return;
    if (typeof d.intents !== "number" || !Number.isInteger(d.intents) || d.intents <= 0) {
      ws.close(CLOSE.badIntents, "invalid intents");
      return;
    }
    const unsent = [...(this.session?.log.filter((entry) => !entry.written) ?? []).map(({ t, id, d }) => ({ t, id, d })), ...this.pending];
    this.pending = [];
    const session: Session = { id: randomUUID(), seq: 0, log: [], invalidated: false };
    this.session = session;
    this.attached = ws;
    this.state.identifies += 1;
    this.state.lastSessionId = session.id;
    session.seq += 1;
    send(ws, {
      op: 0,
      s: session.seq,
      t: "READY",
      d: { version: 1, session_id: session.id, user: { ...this.options.bot, bot: true }, shard: d.shard ?? [0, 1] },
    });
    for (const entry of unsent) this.logAndSend(session, entry);
    this.options.notify();
  }

  private resume(ws: WebSocket, d: { token?: unknown; session_id?: unknown; seq?: unknown }): void {
    if (!this.checkToken(ws, d.token)) return;
    const session = this.session;
    if (!session || session.invalidated || d.session_id !== session.id) {
      send(ws, { op: 9, d: false });
      return;
    }
    const seq = typeof d.seq === "number" ? d.seq : 0;
    if (seq > session.seq) {
      ws.close(CLOSE.badSeq, "invalid seq");
      return;
    }
    this.attached = ws;
    this.state.resumes += 1;
    for (const entry of session.log) {
      if (entry.s <= seq) continue;
      send(ws, { op: 0, s: entry.s, t: entry.t, id: entry.id, d: entry.d });
      entry.written = true;
    }
    session.seq += 1;
    send(ws, { op: 0, s: session.seq, t: "RESUMED", d: "" });
    this.options.notify();
  }

  private logAndSend(session: Session, event: { t: string; id: string; d: unknown }): void {
    session.seq += 1;
    const entry: LoggedDispatch = { s: session.seq, ...event, written: false };
    session.log.push(entry);
    const ws = this.attached;
    if (ws && ws.readyState === WebSocket.OPEN && this.session === session) {
      send(ws, { op: 0, s: entry.s, t: entry.t, id: entry.id, d: entry.d });
      entry.written = true;
    }
  }
}

function send(ws: WebSocket, frame: unknown): void {
  if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(frame));
}
