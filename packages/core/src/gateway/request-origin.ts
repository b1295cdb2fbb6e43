// Who may open the control WebSocket: a page in a browser only from an allowed origin, and only
// through a Host name that points at this gateway (no DNS rebinding of an attacker's name onto
// 127.0.0.1). Programs that send no Origin (the CLI, scripts) are judged by the token alone.
import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";

/** What the upgrade check knows about the gateway. */
export interface OriginPolicy {
  /** The address the gateway listens on (`127.0.0.1`, or `0.0.0.0` for a lan bind). */
  host: string;
  /** The port actually bound. */
  port: () => number;
  /** `gateway.controlUi.allowedOrigins`, as written (e.g. `https://admin.example.com`). */
  allowedOrigins: readonly string[];
  /** False with `gateway.auth.mode: "none"`: then no browser page may connect at all. */
  tokenRequired: boolean;
}

/** True for `localhost`, `*.localhost`, 127.0.0.0/8 and ::1. */
export function isLoopbackName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  if (name === "localhost" || name.endsWith(".localhost")) return true;
  if (isIP(name) === 4) return name.startsWith("127.");
  return name === "::1";
}

/** The hostname of a Host header (`name:port`, `[v6]:port`), lowercased; undefined when malformed. */
function hostnameOf(hostHeader: string): string | undefined {
  try {
    return new URL(`http://${hostHeader}`).hostname.toLowerCase().replace(/^\[|\]$/g, "");
  } catch {
    return undefined;
  }
}

/** `scheme://host[:port]` of an origin, normalized; undefined when it is not a URL origin. */
function normalizeOrigin(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.origin === "null" ? undefined : url.origin.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * Why an upgrade request must be refused, or undefined when it may proceed to the token check.
 * - Host: on a loopback bind it must name a loopback address (`localhost`, 127.x, ::1); a name
 *   that merely resolves there (DNS rebinding) is refused. A lan bind accepts any Host (the
 *   token is required there).
 * - Origin (sent by browsers): the gateway's own origin (`http://<loopback name>:<port>`) or one
 *   of `gateway.controlUi.allowedOrigins`; anything else, `null` included, is refused. Without a
 *   token (`gateway.auth.mode: "none"`) every browser origin is refused: a page the user opens
 *   must never reach a gateway that asks for no proof at all.
 */
export function refusedUpgrade(req: IncomingMessage, policy: OriginPolicy): string | undefined {
  const loopbackBind = isLoopbackName(policy.host);
  const hostHeader = req.headers.host;
  if (loopbackBind) {
    const hostname = hostHeader === undefined ? undefined : hostnameOf(hostHeader);
    if (hostname === undefined || !isLoopbackName(hostname)) {
      return `Host ${JSON.stringify(hostHeader ?? "")} is not a loopback name; the gateway listens on ${policy.host} only`;
    }
  }
  const origin = req.headers.origin;
  if (origin === undefined) return undefined;
  if (!policy.tokenRequired) {
    return `browser origin ${JSON.stringify(origin)} refused: gateway.auth.mode is "none", and browser pages may only use a gateway that requires a token; set gateway.auth.mode to "token" to use the control API from a browser`;
  }
  const normalized = normalizeOrigin(origin);
  if (normalized !== undefined) {
    const url = new URL(normalized);
    const own =
      (url.protocol === "http:" || url.protocol === "https:") &&
      Number(url.port || (url.protocol === "https:" ? 443 : 80)) === policy.port();
    if (own && (isLoopbackName(url.hostname) || (!loopbackBind && url.hostname === hostnameOf(hostHeader ?? "")))) return undefined;
    if (policy.allowedOrigins.some((allowed) => normalizeOrigin(allowed) === normalized)) return undefined;
  }
  return `browser origin ${JSON.stringify(origin)} is not allowed; add it to gateway.controlUi.allowedOrigins to let its pages use the control API`;
}
