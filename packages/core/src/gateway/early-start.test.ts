import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { type AddressInfo, createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { EarlyListener } from "./early-listener.js";
import { bindControlPortEarly } from "./early-start.js";

const opened: (EarlyListener | Server)[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const item of opened.splice(0)) {
    if ("adopt" in item) await item.close();
    else await new Promise((resolve) => item.close(resolve));
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A config folder whose openclaw.json has `text`; returns the paths. */
function configWith(text: string | undefined) {
  const dir = mkdtempSync(path.join(tmpdir(), "openclaw-early-start-"));
  dirs.push(dir);
  const paths = { stateDir: dir, configPath: path.join(dir, "openclaw.json") };
  if (text !== undefined) writeFileSync(paths.configPath, text);
  return paths;
}

async function busyPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  opened.push(server);
  return (server.address() as AddressInfo).port;
}

describe("bindControlPortEarly", () => {
  it("binds the port the raw config names (JSON5, ${VAR}) on the bind it names", async () => {
    const free = createServer();
    await new Promise<void>((resolve) => free.listen(0, "127.0.0.1", resolve));
    const port = (free.address() as AddressInfo).port;
    await new Promise((resolve) => free.close(resolve));
    const paths = configWith(`{ gateway: { port: ${port}, bind: "\${GW_BIND}" } } // comment`);
    const listener = await bindControlPortEarly({ paths, env: { GW_BIND: "loopback" } });
    if (listener) opened.push(listener);
    expect(listener).toMatchObject({ host: "127.0.0.1", port });
  });

  it("lets the flags win, like the gateway does", async () => {
    const paths = configWith(JSON.stringify({ gateway: { port: 1, bind: "lan" } }));
    const listener = await bindControlPortEarly({ paths, env: {}, port: 0, bind: "loopback" });
    expect(listener?.host).toBe("127.0.0.1");
    expect(listener?.port).toBeGreaterThan(1);
    if (listener) opened.push(listener);
  });

  it("binds nothing when the config cannot be read or names no usable port, or the port is taken", async () => {
    expect(await bindControlPortEarly({ paths: configWith("{ gateway: "), env: {} })).toBeUndefined();
    expect(
      await bindControlPortEarly({ paths: configWith(JSON.stringify({ gateway: { port: "/tmp/x.sock" } })), env: {} }),
    ).toBeUndefined();
    expect(await bindControlPortEarly({ paths: configWith(undefined), env: {}, port: await busyPort() })).toBeUndefined();
  });
});
