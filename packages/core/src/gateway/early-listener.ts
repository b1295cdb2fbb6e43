// The control port, bound before the gateway has loaded its config schemas, databases and
// runtime, so clients (and supervisors probing the port) can connect at once. Nothing is served
// until the gateway adopts the listener: requests and WebSocket upgrades that arrive earlier wait,
// and are handled once the gateway is ready (after every start-up check), or dropped when it fails.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Duplex } from "node:stream";

/** What the gateway's control server handles once it adopts the listener. */
export interface ListenerHandlers {
  request(req: IncomingMessage, res: ServerResponse): void;
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  connection(socket: Socket): void;
}

/** A bound HTTP server whose connections wait for `adopt`. */
export interface EarlyListener {
  readonly server: Server;
  readonly host: string;
  /** The port actually bound (the system's pick for port 0). */
  readonly port: number;
  /** Attaches the real handlers and hands them every connection and request that waited. */
  adopt(handlers: ListenerHandlers): void;
  /** Stops listening and drops whatever waited (the gateway did not start, or listens elsewhere). */
  close(): Promise<void>;
}

type Held =
  | { kind: "request"; req: IncomingMessage; res: ServerResponse }
  | { kind: "upgrade"; req: IncomingMessage; socket: Duplex; head: Buffer };

/**
 * Binds `host:port` and holds every request until `adopt`. Rejects with the listen error (e.g.
 * `EADDRINUSE`), leaving nothing open.
 */
export function listenEarly(host: string, port: number): Promise<EarlyListener> {
  const server = createServer();
  const sockets = new Set<Socket>();
  const held: Held[] = [];
  const onConnection = (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  };
  const onRequest = (req: IncomingMessage, res: ServerResponse) => void held.push({ kind: "request", req, res });
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => void held.push({ kind: "upgrade", req, socket, head });
  server.on("connection", onConnection);
  server.on("request", onRequest);
  server.on("upgrade", onUpgrade);
  let adopted = false;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve({
        server,
        host,
        port: (server.address() as AddressInfo).port,
        adopt(handlers) {
          if (adopted) throw new Error("the early listener was already adopted");
          adopted = true;
          server.off("connection", onConnection);
          server.off("request", onRequest);
          server.off("upgrade", onUpgrade);
          server.on("connection", handlers.connection);
          server.on("request", handlers.request);
          server.on("upgrade", handlers.upgrade);
          for (const socket of sockets) if (!socket.destroyed) handlers.connection(socket);
          sockets.clear();
          for (const item of held.splice(0)) {
            if (item.kind === "request") handlers.request(item.req, item.res);
            else if (!item.socket.destroyed) handlers.upgrade(item.req, item.socket, item.head);
          }
        },
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            held.length = 0;
            server.closeAllConnections();
            for (const socket of sockets) socket.destroy();
          }),
      });
    });
  });
}
