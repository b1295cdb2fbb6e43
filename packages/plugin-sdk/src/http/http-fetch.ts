// A `fetch` for plugins' API calls, over node:http and node:https.
//
// Node's global `fetch` is undici: its first call loads undici's ~1 MB of JavaScript and compiles
// its WebAssembly HTTP parser, about 150 ms of CPU and 10-20 MB of memory measured in a plain
// process (bench/README.md, round 7). A channel that only exchanges JSON and media with its
// platform does not need it. `httpFetch` takes the part of the fetch API those calls use and
// answers with a response that has the same members (status, headers, text/json/arrayBuffer), so
// a library with a `fetch` option (matrix-js-sdk's `fetchFn`) can take it as is.
//
// Bodies are read whole into memory (no streaming `body`); request bodies are strings, bytes or
// URLSearchParams. Redirects are followed (at most 20) unless `redirect` says otherwise;
// responses are not decompressed (no `accept-encoding` is sent unless the caller sets one). A
// connection that stays silent for 300 s fails the request, as undici's default timeouts do.
import type http from "node:http";

/** The request options `httpFetch` reads; the other `RequestInit` members (mode, cache, ...) are browser-only and ignored. */
export interface HttpFetchInit {
  method?: string;
  headers?: Record<string, string> | readonly (readonly [string, string])[] | { forEach(fn: (value: string, key: string) => void): void };
  body?: string | Uint8Array | ArrayBuffer | URLSearchParams | null;
  signal?: AbortSignal | null;
  /** `follow` (default), `error` (a redirect rejects) or `manual` (the 3xx response is returned). */
  redirect?: "follow" | "error" | "manual";
  /** Not in fetch: how long the connection may stay silent before the request fails; default 300 s (undici's). */
  idleTimeoutMs?: number;
}

/** A response header list with the fetch `Headers` reading methods. */
export interface HttpFetchHeaders extends Iterable<[string, string]> {
  get(name: string): string | null;
  has(name: string): boolean;
  forEach(fn: (value: string, key: string) => void): void;
  entries(): IterableIterator<[string, string]>;
}

/** The response: the members of a fetch `Response` that API clients read. */
export interface HttpFetchResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  /** The URL that answered (after redirects). */
  readonly url: string;
  readonly redirected: boolean;
  readonly headers: HttpFetchHeaders;
  readonly bodyUsed: boolean;
  text(): Promise<string>;
  json(): Promise<unknown>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

const MAX_REDIRECTS = 20;
/** A connection silent this long fails the request (undici's default for headers and body alike). */
const IDLE_TIMEOUT_MS = 300_000;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function requestHeaders(init: HttpFetchInit["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  if (!init) return out;
  if (typeof (init as { forEach?: unknown }).forEach === "function" && !Array.isArray(init)) {
    (init as { forEach(fn: (value: string, key: string) => void): void }).forEach((value, key) => {
      out[key.toLowerCase()] = value;
    });
    return out;
  }
  const pairs = Array.isArray(init) ? init : Object.entries(init as Record<string, string>);
  for (const [key, value] of pairs) out[key.toLowerCase()] = String(value);
  return out;
}

function requestBody(body: HttpFetchInit["body"], headers: Record<string, string>): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") {
    headers["content-type"] ??= "text/plain;charset=UTF-8";
    return Buffer.from(body);
  }
  if (body instanceof URLSearchParams) {
    headers["content-type"] ??= "application/x-www-form-urlencoded;charset=UTF-8";
    return Buffer.from(body.toString());
  }
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  throw new TypeError("httpFetch: the body must be a string, bytes or URLSearchParams (no streams or Blobs)");
}

function responseHeaders(raw: http.IncomingHttpHeaders): HttpFetchHeaders {
  const map = new Map<string, string>();
  for (const [key, value] of Object.entries(raw)) {
    if (value !== undefined) map.set(key, Array.isArray(value) ? value.join(", ") : value);
  }
  return {
    get: (name) => map.get(name.toLowerCase()) ?? null,
    has: (name) => map.has(name.toLowerCase()),
    forEach: (fn) => map.forEach((value, key) => fn(value, key)),
    entries: () => map.entries(),
    [Symbol.iterator]: () => map.entries(),
  };
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

/** One request/response exchange; resolves with the status, headers and whole body. */
function exchange(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  signal: AbortSignal | undefined,
  idleTimeoutMs: number,
  transport: { request: typeof http.request },
): Promise<{ res: http.IncomingMessage; data: Buffer }> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    const req = transport.request(url, { method, headers: body ? { ...headers, "content-length": String(body.byteLength) } : headers });
    req.setTimeout(idleTimeoutMs, () => req.destroy(new Error(`no data from ${url.host} for ${idleTimeoutMs / 1000} s`)));
    const onAbort = () => req.destroy(abortError(signal!) as Error);
    signal?.addEventListener("abort", onAbort, { once: true });
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener("abort", onAbort);
      // fetch's contract: an abort rejects with the signal's reason, any other failure with a TypeError.
      reject(signal?.aborted ? abortError(signal) : new TypeError(`fetch failed: ${err.message}`, { cause: err }));
    };
    req.on("error", fail);
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", fail);
      res.on("aborted", () => fail(new Error("the connection closed before the response ended")));
      res.on("end", () => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener("abort", onAbort);
        resolve({ res, data: Buffer.concat(chunks) });
      });
    });
    req.end(body);
  });
}

/**
 * Fetches `input` over node:http/node:https, without loading undici. Rejects like `fetch`: with
 * the signal's reason when aborted, with a `TypeError` ("fetch failed: ...", the cause attached)
 * when the connection fails. Supports http: and https: URLs only.
 */
export async function httpFetch(input: string | URL | { url: string }, init: HttpFetchInit = {}): Promise<HttpFetchResponse> {
  let url = new URL(typeof input === "string" || input instanceof URL ? input : input.url);
  let method = (init.method ?? "GET").toUpperCase();
  const headers = requestHeaders(init.headers);
  let body = requestBody(init.body, headers);
  const signal = init.signal ?? undefined;
  const redirect = init.redirect ?? "follow";
  for (let hops = 0; ; hops++) {
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new TypeError(`fetch failed: ${url.protocol} URLs are not supported`);
    // Loaded at the first request, not with the SDK: a CLI command that imports the SDK and makes
    // no request does not pay for node:http, node:https and tls.
    const transport = url.protocol === "https:" ? await import("node:https") : await import("node:http");
    const { res, data } = await exchange(url, method, headers, body, signal, init.idleTimeoutMs ?? IDLE_TIMEOUT_MS, transport);
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (REDIRECTS.has(status) && location && redirect !== "manual") {
      if (redirect === "error") throw new TypeError(`fetch failed: redirected to ${location}`);
      if (hops >= MAX_REDIRECTS) throw new TypeError("fetch failed: too many redirects");
      const next = new URL(location, url);
      if (next.origin !== url.origin) delete headers.authorization;
      // 303 (and 301/302 after a POST) continue as a GET without the body, as browsers do.
      if (status === 303 || ((status === 301 || status === 302) && method === "POST")) {
        method = method === "HEAD" ? "HEAD" : "GET";
        body = undefined;
        delete headers["content-type"];
      }
      url = next;
      continue;
    }
    return response(res, data, url, hops > 0);
  }
}

function response(res: http.IncomingMessage, data: Buffer, url: URL, redirected: boolean): HttpFetchResponse {
  const status = res.statusCode ?? 0;
  let used = false;
  const take = () => {
    if (used) return Promise.reject(new TypeError("Body is unusable: Body has already been read"));
    used = true;
    return Promise.resolve(data);
  };
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText: res.statusMessage ?? "",
    url: url.href,
    redirected,
    headers: responseHeaders(res.headers),
    get bodyUsed() {
      return used;
    },
    text: () => take().then((b) => b.toString("utf8")),
    json: () => take().then((b) => JSON.parse(b.toString("utf8")) as unknown),
    arrayBuffer: () => take().then((b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer),
  };
}
