import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import type { Readable } from "node:stream";
import zlib from "node:zlib";
import { classifyAddress, PrivateAddressError } from "./ip-guard.js";

/** Redirects followed before giving up. */
export const MAX_REDIRECTS = 5;

const USER_AGENT = "Mozilla/5.0 (compatible; OpenClaw web_fetch; +https://github.com/openclaw)";
const ACCEPT = "text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.9,application/json;q=0.8,*/*;q=0.5";

/** Resolves a host name to addresses; `dns.lookup` unless a test supplies another. */
export type HostResolver = (host: string) => Promise<LookupAddress[]>;

export interface GuardedGetOptions {
  maxBytes: number;
  allowPrivateNetwork: boolean;
  signal: AbortSignal;
  resolveHost?: HostResolver;
  /** Address classification (default {@link classifyAddress}); tests swap it to reach a loopback server as if it were public. */
  classify?: (address: string) => string | undefined;
}

export interface GuardedResponse {
  finalUrl: string;
  status: number;
  contentType: string;
  body: Buffer;
  /** The body was longer than maxBytes and was cut. */
  truncated: boolean;
  redirects: number;
}

/** A request web_fetch will not make (bad scheme, too many redirects, ...). */
export class FetchRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FetchRefusedError";
  }
}

const systemResolver: HostResolver = (host) =>
  new Promise((resolve, reject) => dnsLookup(host, { all: true, verbatim: true }, (err, addrs) => (err ? reject(err) : resolve(addrs))));

/**
 * The lookup used for the socket itself, so the address that was checked is the address that is
 * connected to (no second resolution an attacker could answer differently).
 */
function guardedLookup(
  resolveHost: HostResolver,
  allowPrivate: boolean,
  classify: (address: string) => string | undefined,
): LookupFunction {
  return (hostname, options, callback) => {
    resolveHost(hostname).then(
      (addresses) => {
        const family = typeof options.family === "number" ? options.family : 0;
        const usable = family === 0 ? addresses : addresses.filter((a) => a.family === family);
        if (usable.length === 0)
          return callback(Object.assign(new Error(`${hostname} has no usable address`), { code: "ENOTFOUND" }), "", 0);
        if (!allowPrivate) {
          for (const a of usable) {
            const kind = classify(a.address);
            if (kind) return callback(new PrivateAddressError(hostname, a.address, kind), "", 0);
          }
        }
        if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
        else callback(null, usable[0]!.address, usable[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, "", 0),
    );
  };
}

function checkTarget(url: URL, allowPrivate: boolean, classify: (address: string) => string | undefined): void {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new FetchRefusedError(`web_fetch only fetches http and https URLs, not ${url.protocol.replace(/:$/, "")}: (${url.href}).`);
  }
  if (url.username || url.password) throw new FetchRefusedError("web_fetch refuses URLs with credentials in them.");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!allowPrivate && isIP(host) !== 0) {
    const kind = classify(host);
    if (kind) throw new PrivateAddressError(host, host, kind);
  }
}

function request(url: URL, options: GuardedGetOptions): Promise<IncomingMessage> {
  const resolveHost = options.resolveHost ?? systemResolver;
  const mod = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.request(
      url,
      {
        method: "GET",
        headers: { "user-agent": USER_AGENT, accept: ACCEPT, "accept-encoding": "gzip, deflate, br" },
        lookup: guardedLookup(resolveHost, options.allowPrivateNetwork, options.classify ?? classifyAddress),
        signal: options.signal,
      },
      resolve,
    );
    req.on("error", reject);
    req.end();
  });
}

function decoded(res: IncomingMessage): Readable {
  const encoding = String(res.headers["content-encoding"] ?? "")
    .trim()
    .toLowerCase();
  if (encoding === "gzip" || encoding === "x-gzip") return res.pipe(zlib.createGunzip());
  if (encoding === "deflate") return res.pipe(zlib.createInflate());
  if (encoding === "br") return res.pipe(zlib.createBrotliDecompress());
  return res;
}

async function readCapped(res: IncomingMessage, maxBytes: number): Promise<{ body: Buffer; truncated: boolean }> {
  const stream = decoded(res);
  const parts: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const room = maxBytes - size;
      if (chunk.length > room) {
        parts.push(chunk.subarray(0, room));
        size += room;
        truncated = true;
        break;
      }
      parts.push(chunk);
      size += chunk.length;
    }
  } finally {
    if (truncated) {
      stream.destroy();
      res.destroy();
    }
  }
  return { body: Buffer.concat(parts, size), truncated };
}

/**
 * GETs `url`, following up to {@link MAX_REDIRECTS} redirects. Every hop is checked: http(s)
 * only, no credentials, and (unless allowPrivateNetwork) an IP literal or every address the host
 * resolves to must be public — the socket connects to the address that was checked. The
 * decompressed body is cut at `maxBytes`.
 */
export async function guardedGet(url: URL, options: GuardedGetOptions): Promise<GuardedResponse> {
  let current = url;
  for (let redirects = 0; ; redirects++) {
    checkTarget(current, options.allowPrivateNetwork, options.classify ?? classifyAddress);
    const res = await request(current, options);
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if ([301, 302, 303, 307, 308].includes(status) && location) {
      res.resume();
      if (redirects >= MAX_REDIRECTS)
        throw new FetchRefusedError(`stopped after ${MAX_REDIRECTS} redirects (last: ${current.href} -> ${location}).`);
      current = new URL(location, current);
      continue;
    }
    const { body, truncated } = await readCapped(res, options.maxBytes);
    return { finalUrl: current.href, status, contentType: String(res.headers["content-type"] ?? ""), body, truncated, redirects };
  }
}
