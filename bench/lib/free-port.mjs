// A TCP port that was free on 127.0.0.1 a moment ago (listen on 0, read the port, close).
import net from "node:net";

export async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}
