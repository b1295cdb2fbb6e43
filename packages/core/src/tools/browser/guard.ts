import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import type { HostResolver } from "../web/http-get.js";
import { classifyAddress } from "../web/ip-guard.js";

/** How the browser decides whether a URL may be loaded. */
export interface BrowserGuardOptions {
  allowPrivateNetwork: boolean;
  /** Host name resolver (default `dns.lookup`, all addresses). */
  resolveHost?: HostResolver;
  /** Address classification (default {@link classifyAddress}); tests swap it. */
  classify?: (address: string) => string | undefined;
}

/** A URL the browser will not load (scheme, or a non-public address). */
export class BrowserRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BrowserRefusedError";
  }
}

const systemResolver: HostResolver = (host) => lookup(host, { all: true, verbatim: true });

/** A host's resolved addresses, and the first one that is not public (with why), if any. */
export interface HostVerdict {
  addresses: string[];
  blocked?: { address: string; kind: string };
}

/** Resolves `host` (an IP literal is taken as is, brackets allowed) and classifies each address. */
export async function inspectHost(host: string, options: Pick<BrowserGuardOptions, "resolveHost" | "classify">): Promise<HostVerdict> {
  const classify = options.classify ?? classifyAddress;
  const bare = host.replace(/^\[|\]$/g, "");
  const addresses = isIP(bare) ? [bare] : (await (options.resolveHost ?? systemResolver)(bare)).map((a) => a.address);
  for (const address of addresses) {
    const kind = classify(address);
    if (kind) return { addresses, blocked: { address, kind } };
  }
  return { addresses };
}

/** Why `url`'s host is not a public address (`"loopback"`, `"private"`, ...) with the address, or undefined. */
async function privateTarget(url: URL, options: BrowserGuardOptions): Promise<{ address: string; kind: string } | undefined> {
  return (await inspectHost(url.hostname, options)).blocked;
}

function refusal(url: URL, address: string, kind: string): BrowserRefusedError {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return new BrowserRefusedError(
    `Refused to open ${url.href}: ${host === address ? address : `${host} resolves to ${address}, which`} is a ${kind} address; the browser only reaches public addresses. ` +
      "Set tools.browser.allowPrivateNetwork: true in openclaw.json to allow private-network targets.",
  );
}

/**
 * Checks a page address before the browser goes there: only http and https (and about:blank),
 * and, unless `allowPrivateNetwork`, only hosts whose every resolved address is public.
 * Throws BrowserRefusedError with a message meant for the model.
 */
export async function assertNavigable(url: URL, options: BrowserGuardOptions): Promise<void> {
  if (url.href === "about:blank") return;
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new BrowserRefusedError(`The browser opens http and https URLs only, not ${url.protocol.replace(/:$/, "")}: (${url.href}).`);
  }
  if (options.allowPrivateNetwork) return;
  const hit = await privateTarget(url, options);
  if (hit) throw refusal(url, hit.address, hit.kind);
}

/**
 * Whether the browser may be at `rawUrl` (checked on the address a navigation ended at): true for
 * non-network schemes (data:, blob:, about:), false for file: and for hosts that resolve to a
 * non-public address when `allowPrivateNetwork` is off, or that do not resolve at all.
 */
export async function isRequestAllowed(rawUrl: string, options: BrowserGuardOptions): Promise<boolean> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return false;
  }
  if (url.protocol === "file:") return false;
  if (!["http:", "https:", "ws:", "wss:"].includes(url.protocol)) return true;
  if (options.allowPrivateNetwork) return true;
  try {
    return (await privateTarget(url, options)) === undefined;
  } catch {
    return false;
  }
}
