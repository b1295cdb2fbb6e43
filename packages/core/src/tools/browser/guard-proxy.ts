import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import type { HostResolver } from "../web/http-get.js";
import { inspectHost } from "./guard.js";

export interface GuardProxyOptions {
  resolveHost?: HostResolver;
  classify?: (address: string) => string | undefined;
  /** Called with each refused target (`http://host/path` or `host:port` for a tunnel). */
  onBlocked(target: string): void;
}

/** A running guard proxy: Chromium sends every request through `server`. */
export interface GuardProxy {
  /** `http://127.0.0.1:<port>`, for `--proxy-server`. */
  server: string;
  close(): Promise<void>;
}

/**
 * The address to connect to for `host`, or undefined when any of its addresses is not public.
 * The connection goes to the address that was checked, so a second DNS answer cannot differ.
 */
async function publicAddress(host: string, options: GuardProxyOptions): Promise<string | undefined> {
  try {
    const verdict = await inspectHost(host, options);
    return verdict.blocked ? undefined : verdict.addresses[0];
  } catch {
    return undefined;
  }
}

function refuse(socket: Duplex): void {
  socket.end(
    "HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\nBlocked by OpenClaw: not a public address (tools.browser.allowPrivateNetwork).\n",
  );
}

/**
 * Starts an HTTP proxy on 127.0.0.1 that forwards only to public addresses: plain requests are
 * relayed, CONNECT tunnels (https, wss) are opened, and anything whose host resolves to a
 * loopback, private, link-local or unique-local address gets 403. Because every request of the
 * browser, redirect hops and WebSockets included, goes through it, a page cannot reach the
 * private network by redirecting or embedding.
 */
export async function startGuardProxy(options: GuardProxyOptions): Promise<GuardProxy> {
  const sockets = new Set<net.Socket>();
  const server = http.createServer(async (req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? "");
    } catch {
      res.writeHead(400).end();
      return;
    }
    const address = url.protocol === "http:" ? await publicAddress(url.hostname, options) : undefined;
    if (!address) {
      options.onBlocked(url.href);
      res
        .writeHead(403, { "content-type": "text/plain" })
        .end("Blocked by OpenClaw: not a public address (tools.browser.allowPrivateNetwork).\n");
      return;
    }
    const headers = { ...req.headers };
    delete headers["proxy-connection"];
    delete headers["proxy-authorization"];
    const upstream = http.request(
      { host: address, port: url.port || 80, path: `${url.pathname}${url.search}`, method: req.method, headers, setHost: false },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.rawHeaders);
        up.pipe(res);
      },
    );
    upstream.on("error", () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    req.pipe(upstream);
  });
  server.on("connect", async (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    client.on("error", () => {});
    const target = req.url ?? "";
    const split = target.lastIndexOf(":");
    const host = target.slice(0, split);
    const port = Number(target.slice(split + 1));
    const address = split > 0 && port > 0 ? await publicAddress(host, options) : undefined;
    if (!address) {
      options.onBlocked(target);
      refuse(client);
      return;
    }
    const upstream = net.connect(port, address, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
  });
  server.on("connection", (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  return {
    server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
