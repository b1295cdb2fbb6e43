// A bare QQ bot for the fake's tests: raw fetch and a raw `ws` socket, as a real bot talks.
import WebSocket from "ws";
import type { FakeQQBot } from "../types.js";

export interface Frame {
  op: number;
  d?: any;
  s?: number;
  t?: string;
  id?: string;
}

export const INTENTS = (1 << 30) | (1 << 12) | (1 << 25) | (1 << 26);

export async function getToken(fake: FakeQQBot, secret = fake.clientSecret): Promise<{ status: number; body: any }> {
  const res = await fetch(fake.tokenUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ appId: fake.appId, clientSecret: secret }),
  });
  return { status: res.status, body: await res.json() };
}

export async function token(fake: FakeQQBot): Promise<string> {
  return (await getToken(fake)).body.access_token;
}

/** One REST call with `Authorization: QQBot <tok>` (no header when tok is undefined). */
export async function api(
  fake: FakeQQBot,
  tok: string | undefined,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (tok !== undefined) headers.authorization = `QQBot ${tok}`;
  const init: RequestInit = { method, headers };
  if (body !== undefined) init.body = JSON.stringify(body);
  const res = await fetch(`${fake.apiBase}${path}`, init);
  return { status: res.status, body: await res.json() };
}

/** A gateway socket that keeps every frame and lets tests wait for one. */
export class GatewayClient {
  readonly frames: Frame[] = [];
  closed: { code: number; reason: string } | undefined;
  private readonly ws: WebSocket;
  private waiters: (() => void)[] = [];

  constructor(url: string) {
    this.ws = new WebSocket(url);
    this.ws.on("message", (data) => {
      this.frames.push(JSON.parse(data.toString()));
      this.wake();
    });
    this.ws.on("close", (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
    this.ws.on("error", () => {});
  }

  static async open(fake: FakeQQBot, tok: string): Promise<GatewayClient> {
    const { body } = await api(fake, tok, "GET", "/gateway");
    return new GatewayClient(body.url);
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === "string" ? frame : JSON.stringify(frame));
  }

  identify(tok: string, intents: unknown = INTENTS): void {
    this.send({ op: 2, d: { token: `QQBot ${tok}`, intents, shard: [0, 1] } });
  }

  resume(tok: string, sessionId: string, seq: number): void {
    this.send({ op: 6, d: { token: `QQBot ${tok}`, session_id: sessionId, seq } });
  }

  /** The first frame (from `from` on) that matches, waiting for it (2 s at most). */
  frame(match: (f: Frame) => boolean, from = 0): Promise<Frame> {
    return this.until(() => this.frames.slice(from).find(match), "frame");
  }

  dispatch(t: string, from = 0): Promise<Frame> {
    return this.frame((f) => f.op === 0 && f.t === t, from);
  }

  waitClosed(): Promise<{ code: number; reason: string }> {
    return this.until(() => this.closed, "close");
  }

  /** Hello, Identify, READY; returns READY. */
  async ready(tok: string): Promise<Frame> {
    await this.frame((f) => f.op === 10);
    this.identify(tok);
    return this.dispatch("READY");
  }

  close(): void {
    this.ws.terminate();
  }

  private wake(): void {
    const pending = this.waiters;
    this.waiters = [];
    for (const wake of pending) wake();
  }

  private until<T>(get: () => T | undefined, what: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${what} within 2 s; frames: ${JSON.stringify(this.frames)}`)), 2000);
      const check = () => {
        const value = get();
        if (value !== undefined) {
          clearTimeout(timer);
          resolve(value);
        } else this.waiters.push(check);
      };
      check();
    });
  }
}
