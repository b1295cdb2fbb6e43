// HTTP routes plugins register on the gateway's own listener (a platform's webhook events),
// served beside `/health` and the control API on the same port.
import type { IncomingMessage, ServerResponse } from "node:http";
import { AccountConfigError, type PluginHttpHandler, type PluginHttpRoutes } from "@openclaw/plugin-sdk";
import type { GatewayLogger } from "./types.js";

/** The default body limit of a plugin route: 1 MiB. */
export const DEFAULT_ROUTE_BODY_BYTES = 1024 * 1024;

/** Paths the gateway serves itself; no plugin may take them. */
const RESERVED = new Set(["/", "/ws", "/health"]);

interface Route {
  owner: string;
  handler: PluginHttpHandler;
  maxBodyBytes: number;
}

/** Internal: every plugin route of the gateway, by exact path. */
export class HttpRouteTable {
  readonly #routes = new Map<string, Route>();

  constructor(private readonly log: GatewayLogger) {}

  /**
   * The `AccountContext.http` of one account: its routes carry `owner` (e.g. "<channel>:default") in
   * errors, and `releaseAll` drops what it registered (when its session ends).
   */
  scope(owner: string): PluginHttpRoutes & { releaseAll(): void } {
    const mine = new Set<() => void>();
    return {
      route: (path, handler, options) => {
        const release = this.#add(owner, path, handler, options?.maxBodyBytes ?? DEFAULT_ROUTE_BODY_BYTES);
        const once = () => {
          if (mine.delete(once)) release();
        };
        mine.add(once);
        return once;
      },
      releaseAll: () => {
        for (const release of [...mine]) release();
      },
    };
  }

  #add(owner: string, path: string, handler: PluginHttpHandler, maxBodyBytes: number): () => void {
    if (!path.startsWith("/") || RESERVED.has(path)) {
      throw new AccountConfigError(`${owner}: the HTTP path ${JSON.stringify(path)} is the gateway's own; pick another path.`, path);
    }
    const taken = this.#routes.get(path);
    if (taken !== undefined) {
      throw new AccountConfigError(
        `${owner}: the HTTP path ${path} is already served for ${taken.owner}; give each account its own webhook path.`,
        path,
      );
    }
    const route: Route = { owner, handler, maxBodyBytes };
    this.#routes.set(path, route);
    return () => {
      if (this.#routes.get(path) === route) this.#routes.delete(path);
    };
  }

  /** Serves the request when a plugin registered its path; false when none did. */
  serve(pathname: string, req: IncomingMessage, res: ServerResponse): boolean {
    const route = this.#routes.get(pathname);
    if (route === undefined) return false;
    void this.#serve(route, req, res);
    return true;
  }

  async #serve(route: Route, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const reply = (status: number, body: string | Uint8Array, headers: Record<string, string> = {}) => {
      if (res.headersSent) return;
      res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers });
      res.end(body);
    };
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > route.maxBodyBytes) {
      reply(413, JSON.stringify({ ok: false, error: `the body is limited to ${route.maxBodyBytes} bytes` }), { connection: "close" });
      req.resume();
      return;
    }
    let body: Buffer;
    try {
      body = await readBody(req, route.maxBodyBytes);
    } catch (error) {
      const tooLarge = (error as Error).message === "too large";
      reply(tooLarge ? 413 : 400, JSON.stringify({ ok: false, error: tooLarge ? "body too large" : "the body could not be read" }), {
        connection: "close",
      });
      return;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
    }
    try {
      const answer = await route.handler({
        method: req.method ?? "GET",
        url: req.url ?? "/",
        headers,
        body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength),
        remoteAddress: req.socket.remoteAddress ?? "",
      });
      reply(answer.status, answer.body ?? "", answer.headers);
    } catch (error) {
      this.log.error(`HTTP route of ${route.owner} failed: ${(error as Error)?.message ?? String(error)}`);
      reply(500, JSON.stringify({ ok: false, error: "internal error" }));
    }
  }
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners("data");
        req.resume();
        reject(new Error("too large"));
        return;
      }
      parts.push(chunk);
    });
    req.once("end", () => resolve(Buffer.concat(parts)));
    req.once("error", reject);
  });
}
