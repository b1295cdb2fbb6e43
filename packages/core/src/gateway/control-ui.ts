// Serving the Control UI (the built browser app) on the gateway's HTTP listener.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import type { GatewayLogger } from "./types.js";

/** Where a core build keeps the UI: `dist/control-ui/`, next to `dist/gateway/`. */
export function defaultControlUiDir(): string {
  return fileURLToPath(new URL("../control-ui/", import.meta.url));
}

/**
 * `gateway.controlUi.basePath` as a prefix with a slash on both ends: "" and "/" give "/",
 * "openclaw" and "/openclaw/" give "/openclaw/"; repeated slashes collapse.
 */
export function normalizeBasePath(value: string | undefined): string {
  const trimmed = (value ?? "/")
    .trim()
    .replace(/\/+/g, "/")
    .replace(/^\/|\/$/g, "");
  return trimmed === "" ? "/" : `/${trimmed}/`;
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".txt": "text/plain; charset=utf-8",
  ".webmanifest": "application/manifest+json",
};
const COMPRESSIBLE = new Set([".html", ".js", ".mjs", ".css", ".json", ".map", ".svg", ".txt", ".webmanifest"]);
/** Smaller bodies are sent as they are: gzip would not pay for its header. */
const GZIP_MIN_BYTES = 512;
const IMMUTABLE = "public, max-age=31536000, immutable";

interface Asset {
  body: Buffer;
  gzip?: Buffer;
  etag: string;
  type: string;
}

export interface ControlUiOptions {
  /** The built app (index.html + assets/); missing: a page that says how to build it. */
  dir: string;
  /** `gateway.controlUi.basePath`, normalised by {@link normalizeBasePath}. */
  basePath: string;
  /** The address the gateway listens on, for the CSP's `connect-src`. */
  host: string;
  port(): number;
  log: GatewayLogger;
}

/**
 * The Control UI's static files: `GET <basePath>` (and any path under it without a file
 * extension, for the app's own routes) answers `index.html` with `Cache-Control: no-cache` and a
 * strict Content-Security-Policy; `<basePath>assets/*` (content-hashed names) are cached for a
 * year as immutable; other files of the folder get `no-cache`. Every file has an ETag (304 on a
 * match) and is gzipped when the client accepts it (compressed once, then kept in memory). Paths
 * that leave the folder (`..`, encoded or not, symlinks out of it) are 404. `<basePath>` without
 * its trailing slash redirects to it. When the folder has no index.html, the page at `<basePath>`
 * says how to build the UI (and the gateway logs that once).
 */
export class ControlUi {
  readonly basePath: string;
  private readonly root: string | undefined;
  private readonly cache = new Map<string, Asset>();

  constructor(private readonly options: ControlUiOptions) {
    this.basePath = options.basePath;
    const index = path.join(options.dir, "index.html");
    this.root = existsSync(index) ? realpathSync(options.dir) : undefined;
    if (!this.root) {
      options.log.warn(
        `control UI: ${options.dir} has no index.html (this core was built without the UI); ` +
          "build it with `pnpm --filter @openclaw/control-ui build && pnpm --filter @openclaw/core build`, or set gateway.controlUi.enabled to false",
      );
    }
  }

  /** True when the UI is actually there (not the "not built" page). */
  get built(): boolean {
    return this.root !== undefined;
  }

  /** Answers `req` when its path is the UI's; false (nothing sent) otherwise. */
  serve(req: IncomingMessage, res: ServerResponse, pathname: string): boolean {
    const base = this.basePath;
    if (base !== "/" && pathname === base.slice(0, -1)) {
      res.writeHead(308, { location: base, "cache-control": "no-cache" });
      res.end();
      return true;
    }
    if (!pathname.startsWith(base)) return false;
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain; charset=utf-8" });
      res.end("method not allowed\n");
      return true;
    }
    let rel: string;
    try {
      rel = decodeURIComponent(pathname.slice(base.length));
    } catch {
      return this.notFound(res);
    }
    if (!this.root) return this.notBuilt(req, res);
    if (rel === "" || rel === "index.html") return this.send(req, res, "index.html", "no-cache", true);
    if (rel.includes("\0") || rel.includes("\\") || rel.split("/").some((part) => part === ".." || part === ".")) return this.notFound(res);
    const file = this.resolve(rel);
    if (file) return this.send(req, res, rel, rel.startsWith("assets/") ? IMMUTABLE : "no-cache", rel.endsWith(".html"));
    // The app's own routes (e.g. /sessions) load the app; a missing file is a 404.
    if (!rel.startsWith("assets/") && path.extname(rel) === "") return this.send(req, res, "index.html", "no-cache", true);
    return this.notFound(res);
  }

  /** The real path of `rel` inside the folder, or undefined when it is not a file there. */
  private resolve(rel: string): string | undefined {
    const root = this.root!;
    const candidate = path.resolve(root, rel);
    try {
      const real = realpathSync(candidate);
      if (!real.startsWith(root + path.sep)) return undefined;
      return statSync(real).isFile() ? real : undefined;
    } catch {
      return undefined;
    }
  }

  private load(rel: string): Asset {
    const cached = this.cache.get(rel);
    if (cached) return cached;
    const file = this.resolve(rel);
    if (!file) throw Object.assign(new Error(`${rel} is not in the UI folder`), { code: "ENOENT" });
    const body = readFileSync(file);
    const ext = path.extname(file).toLowerCase();
    const asset: Asset = {
      body,
      etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`,
      type: TYPES[ext] ?? "application/octet-stream",
    };
    if (COMPRESSIBLE.has(ext) && body.length >= GZIP_MIN_BYTES) asset.gzip = gzipSync(body, { level: 9 });
    this.cache.set(rel, asset);
    return asset;
  }

  private send(req: IncomingMessage, res: ServerResponse, rel: string, cacheControl: string, html: boolean): true {
    let asset: Asset;
    try {
      asset = this.load(rel);
    } catch {
      return this.notFound(res);
    }
    const headers: Record<string, string> = {
      "content-type": asset.type,
      "cache-control": cacheControl,
      etag: asset.etag,
      vary: "Accept-Encoding",
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      ...(html ? this.pageHeaders(req) : {}),
    };
    if (ifNoneMatch(req, asset.etag)) {
      res.writeHead(304, headers);
      res.end();
      return true;
    }
    const gzip = asset.gzip && acceptsGzip(req) ? asset.gzip : undefined;
    const body = gzip ?? asset.body;
    if (gzip) headers["content-encoding"] = "gzip";
    headers["content-length"] = String(body.length);
    res.writeHead(200, headers);
    res.end(req.method === "HEAD" ? undefined : body);
    return true;
  }

  /** The HTML page's security headers: a CSP allowing only this origin (and its WebSocket). */
  private pageHeaders(req: IncomingMessage): Record<string, string> {
    const port = this.options.port();
    const sockets = new Set([`ws://${this.options.host === "0.0.0.0" ? "127.0.0.1" : this.options.host}:${port}`]);
    const host = req.headers.host;
    if (typeof host === "string" && /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host)) sockets.add(`ws://${host}`);
    return {
      "content-security-policy": [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        `connect-src 'self' ${[...sockets].join(" ")}`,
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "form-action 'none'",
      ].join("; "),
      "x-frame-options": "DENY",
    };
  }

  private notBuilt(req: IncomingMessage, res: ServerResponse): true {
    const body = Buffer.from(NOT_BUILT_PAGE);
    res.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-cache",
      "content-length": String(body.length),
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      ...this.pageHeaders(req),
    });
    res.end(req.method === "HEAD" ? undefined : body);
    return true;
  }

  private notFound(res: ServerResponse): true {
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-cache", "x-content-type-options": "nosniff" });
    res.end("not found\n");
    return true;
  }
}

function acceptsGzip(req: IncomingMessage): boolean {
  const header = req.headers["accept-encoding"];
  if (typeof header !== "string") return false;
  return header.split(",").some((part) => {
    const [name, ...params] = part.trim().split(";");
    if (name?.trim().toLowerCase() !== "gzip") return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

function ifNoneMatch(req: IncomingMessage, etag: string): boolean {
  const header = req.headers["if-none-match"];
  if (typeof header !== "string") return false;
  return header.split(",").some((t) => t.trim() === etag || t.trim() === `W/${etag}` || t.trim() === "*");
}

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>OpenClaw: Control UI not built</title></head>
<body><h1>The Control UI is not built</h1>
<p>This gateway runs, but its core package was built without the Control UI. Build it from the repository with</p>
<pre>pnpm --filter @openclaw/control-ui build
pnpm --filter @openclaw/core build</pre>
<p>and restart the gateway (<code>openclaw gateway</code>). Or turn this page off with <code>gateway.controlUi.enabled: false</code>.</p>
<p>The control API (WebSocket) and <code>/health</code> work meanwhile.</p>
</body></html>
`;
