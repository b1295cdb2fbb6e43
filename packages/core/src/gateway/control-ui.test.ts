// The Control UI's files over HTTP, as a browser fetches them from a running gateway.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./__fixtures__/harness.js";
import { normalizeBasePath } from "./control-ui.js";

let h: Harness | undefined;
let ui: string;
let outside: string;
const APP_JS = `console.log(${JSON.stringify("control ui ".repeat(200))});\n`;
const INDEX = '<!doctype html><html><head><script type="module" src="./assets/app-3f9a1c.js"></script></head><body></body></html>\n';

beforeEach(() => {
  ui = mkdtempSync(path.join(tmpdir(), "openclaw-ui-"));
  mkdirSync(path.join(ui, "assets"));
  writeFileSync(path.join(ui, "index.html"), INDEX);
  writeFileSync(path.join(ui, "assets", "app-3f9a1c.js"), APP_JS);
  writeFileSync(path.join(ui, "assets", "app-3f9a1c.css"), "body{margin:0}\n");
  writeFileSync(path.join(ui, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  outside = mkdtempSync(path.join(tmpdir(), "openclaw-secret-"));
  writeFileSync(path.join(outside, "secret.txt"), "do not serve me");
  symlinkSync(path.join(outside, "secret.txt"), path.join(ui, "assets", "link.js"));
});
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
  rmSync(ui, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

/** A raw GET (the path is sent exactly as given, unlike fetch, which normalises it). */
function get(port: number, rawPath: string, headers: Record<string, string> = {}, method = "GET") {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: rawPath, method, headers }, (res) => {
      const parts: Buffer[] = [];
      res.on("data", (c: Buffer) => parts.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("serving the Control UI", () => {
  it("answers / with index.html under a strict CSP and no caching, and hashed assets as immutable", async () => {
    h = await startHarness({ controlUiDir: ui });
    const port = h.gateway.port;
    expect(h.gateway.controlUiUrl).toBe(`http://127.0.0.1:${port}/`);

    const page = await get(port, "/", { host: `localhost:${port}` });
    expect(page.status).toBe(200);
    expect(page.body.toString()).toBe(INDEX);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.headers["cache-control"]).toBe("no-cache");
    expect(page.headers["x-content-type-options"]).toBe("nosniff");
    expect(page.headers["referrer-policy"]).toBe("no-referrer");
    const csp = String(page.headers["content-security-policy"]);
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data:",
      "frame-ancestors 'none'",
      "base-uri 'none'",
      "form-action 'none'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`);
    expect(csp).not.toContain("unsafe-inline");

    const js = await get(port, "/assets/app-3f9a1c.js");
    expect(js.status).toBe(200);
    expect(js.body.toString()).toBe(APP_JS);
    expect(js.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(js.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(js.headers["content-encoding"]).toBeUndefined();
    const css = await get(port, "/assets/app-3f9a1c.css");
    expect(css.headers["content-type"]).toBe("text/css; charset=utf-8");
    const icon = await get(port, "/favicon.svg");
    expect([icon.status, icon.headers["content-type"], icon.headers["cache-control"]]).toEqual([200, "image/svg+xml", "no-cache"]);

    // The app's own routes load the app; a missing asset is a 404, not the page.
    expect((await get(port, "/sessions")).body.toString()).toBe(INDEX);
    expect((await get(port, "/assets/missing-123.js")).status).toBe(404);
    // /health and the WebSocket path are unchanged.
    expect((await get(port, "/health")).body.toString()).toBe('{"ok":true}');
    expect((await get(port, "/ws")).status).toBe(426);
    expect((await get(port, "/", {}, "POST")).status).toBe(405);
  });

  it("gzips when the client accepts it, and answers a matching ETag with 304", async () => {
    h = await startHarness({ controlUiDir: ui });
    const port = h.gateway.port;
    const zipped = await get(port, "/assets/app-3f9a1c.js", { "accept-encoding": "br, gzip;q=0.8" });
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(zipped.headers.vary).toBe("Accept-Encoding");
    expect(zipped.body.length).toBeLessThan(APP_JS.length / 4);
    expect(gunzipSync(zipped.body).toString()).toBe(APP_JS);
    expect((await get(port, "/assets/app-3f9a1c.js", { "accept-encoding": "gzip;q=0" })).headers["content-encoding"]).toBeUndefined();

    const etag = String(zipped.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await get(port, "/assets/app-3f9a1c.js", { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const head = await get(port, "/assets/app-3f9a1c.js", {}, "HEAD");
    expect([head.status, head.headers["content-length"], head.body.length]).toEqual([200, String(APP_JS.length), 0]);
  });

  it("never serves a file outside its folder, however the path is spelled", async () => {
    h = await startHarness({ controlUiDir: ui });
    const port = h.gateway.port;
    writeFileSync(path.join(h.dir, "probe.txt"), "state dir file");
    const rel = path.relative(ui, path.join(h.dir, "probe.txt"));
    for (const attempt of [
      `/assets/../../${rel}`,
      `/assets/%2e%2e/%2e%2e/${rel}`,
      `/assets/..%2f..%2f${rel.replace(/\//g, "%2f")}`,
      `/..%5c..%5c${rel}`,
      "/assets/link.js",
      "/assets/%00.js",
      `/${encodeURIComponent(path.join(h.dir, "probe.txt"))}`,
    ]) {
      const res = await get(port, attempt);
      expect(res.body.toString(), attempt).not.toContain("state dir file");
      expect(res.body.toString(), attempt).not.toContain("do not serve me");
    }
    expect((await get(port, "/assets/link.js")).status).toBe(404);
  });

  it("serves under gateway.controlUi.basePath, redirecting the bare path", async () => {
    h = await startHarness({ controlUiDir: ui, config: { gateway: { controlUi: { basePath: "/openclaw" } } } });
    const port = h.gateway.port;
    expect(h.gateway.controlUiUrl).toBe(`http://127.0.0.1:${port}/openclaw/`);
    const bare = await get(port, "/openclaw");
    expect([bare.status, bare.headers.location]).toEqual([308, "/openclaw/"]);
    expect((await get(port, "/openclaw/")).body.toString()).toBe(INDEX);
    expect((await get(port, "/openclaw/assets/app-3f9a1c.js")).status).toBe(200);
    expect((await get(port, "/assets/app-3f9a1c.js")).status).toBe(404);
    expect((await get(port, "/")).status).toBe(426);
  });

  it("says how to build the UI when the folder is missing, and logs it once", async () => {
    h = await startHarness({ controlUiDir: path.join(ui, "not-built") });
    const page = await get(h.gateway.port, "/");
    expect(page.status).toBe(200);
    expect(page.body.toString()).toContain("pnpm --filter @openclaw/control-ui build");
    expect(page.headers["content-security-policy"]).toContain("default-src 'self'");
    await get(h.gateway.port, "/again");
    expect(h.logs.filter((l) => l.includes("has no index.html"))).toHaveLength(1);
  });

  it("serves nothing with gateway.controlUi.enabled false", async () => {
    h = await startHarness({ controlUiDir: ui, config: { gateway: { controlUi: { enabled: false } } } });
    expect(h.gateway.controlUiUrl).toBeUndefined();
    expect((await get(h.gateway.port, "/")).status).toBe(426);
    expect((await get(h.gateway.port, "/assets/app-3f9a1c.js")).status).toBe(404);
  });
});

describe("normalizeBasePath", () => {
  it("puts one slash on each end", () => {
    expect([undefined, "", "/", "openclaw", "/openclaw/", "//a//b/"].map(normalizeBasePath)).toEqual([
      "/",
      "/",
      "/",
      "/openclaw/",
      "/openclaw/",
      "/a/b/",
    ]);
  });
});
