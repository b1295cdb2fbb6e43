import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { startHarness, type Harness } from "./__fixtures__/harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

/** Opens the control socket with the given headers; resolves with the HTTP status of a refusal, or "open". */
function open(url: string, headers: Record<string, string>): Promise<number | "open"> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.on("open", () => {
      ws.close();
      resolve("open");
    });
    ws.on("unexpected-response", (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on("error", (err) => {
      if (!/Unexpected server response/.test(String(err))) reject(err);
    });
  });
}

describe("the control API refuses what a hostile web page can send (reference: any page could drive the agent)", () => {
  it("refuses a foreign browser origin, accepts the gateway's own and programs without an Origin", async () => {
    h = await startHarness({ config: {} });
    const { url, port } = h.gateway;
    expect(await open(url, { Origin: "http://evil.example.com" })).toBe(403);
    expect(await open(url, { Origin: "null" })).toBe(403);
    expect(await open(url, { Origin: `http://localhost:${port + 1}` })).toBe(403);
    expect(await open(url, { Origin: `http://127.0.0.1:${port}` })).toBe("open");
    expect(await open(url, { Origin: `http://localhost:${port}` })).toBe("open");
    expect(await open(url, {})).toBe("open");
    expect(h.logs.some((l) => l.includes('browser origin "http://evil.example.com" is not allowed'))).toBe(true);
  });

  it('refuses every browser origin, its own and the allowed ones too, when gateway.auth.mode is "none"', async () => {
    h = await startHarness({
      config: { gateway: { auth: { mode: "none" }, controlUi: { allowedOrigins: ["https://admin.example.com"] } } },
    });
    const { url, port } = h.gateway;
    expect(await open(url, { Origin: `http://127.0.0.1:${port}` })).toBe(403);
    expect(await open(url, { Origin: "https://admin.example.com" })).toBe(403);
    expect(await open(url, {})).toBe("open");
    expect(
      h.logs.some((l) => l.includes('gateway.auth.mode is "none", and browser pages may only use a gateway that requires a token')),
    ).toBe(true);
  });

  it("refuses a Host that is not a loopback name (DNS rebinding onto 127.0.0.1)", async () => {
    h = await startHarness({ config: { gateway: { auth: { mode: "none" } } } });
    const { url, port } = h.gateway;
    expect(await open(url, { Host: `rebind.evil.example.com:${port}` })).toBe(403);
    expect(await open(url, { Host: `rebind.evil.example.com:${port}`, Origin: `http://rebind.evil.example.com:${port}` })).toBe(403);
    expect(await open(url, { Host: `localhost:${port}` })).toBe("open");
  });

  it("accepts the origins listed in gateway.controlUi.allowedOrigins", async () => {
    h = await startHarness({ config: { gateway: { controlUi: { allowedOrigins: ["https://admin.example.com"] } } } });
    expect(await open(h.gateway.url, { Origin: "https://admin.example.com" })).toBe("open");
    expect(await open(h.gateway.url, { Origin: "https://other.example.com" })).toBe(403);
  });
});
