import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { httpFetch } from "./http-fetch.js";

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let server: http.Server;
let base: string;
let seen: Seen[];
let handler: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

beforeEach(async () => {
  seen = [];
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      handler(req, res, body);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  server.closeAllConnections();
  server.close();
});

describe("httpFetch", () => {
  it("sends the method, headers and body, and answers with status, headers and a JSON body", async () => {
    handler = (_req, res, body) => {
      res.writeHead(201, "Created", { "content-type": "application/json", "x-echo": "yes" });
      res.end(JSON.stringify({ got: JSON.parse(body) }));
    };
    const res = await httpFetch(`${base}/v1/things?x=1`, {
      method: "post",
      headers: { Authorization: "Bearer t0k", "Content-Type": "application/json" },
      body: JSON.stringify({ a: 1 }),
    });
    expect(seen[0]).toMatchObject({ method: "POST", url: "/v1/things?x=1", body: '{"a":1}' });
    expect(seen[0]!.headers).toMatchObject({ authorization: "Bearer t0k", "content-type": "application/json", "content-length": "7" });
    expect(res).toMatchObject({ ok: true, status: 201, statusText: "Created", url: `${base}/v1/things?x=1`, redirected: false });
    expect(res.headers.get("Content-Type")).toBe("application/json");
    expect(res.headers.has("x-echo")).toBe(true);
    expect(res.headers.get("x-missing")).toBeNull();
    expect(await res.json()).toEqual({ got: { a: 1 } });
    expect(res.bodyUsed).toBe(true);
    await expect(res.text()).rejects.toThrow(/already been read/);
  });

  it("takes headers as pairs or a Headers-like object, and bytes or URLSearchParams as the body", async () => {
    handler = (_req, res) => res.end("ok");
    await httpFetch(`${base}/a`, { method: "PUT", headers: [["X-One", "1"]], body: new Uint8Array([104, 105]) });
    const pairs = new Map([["x-two", "2"]]);
    await httpFetch(`${base}/b`, {
      method: "POST",
      headers: { forEach: (fn: (value: string, key: string) => void) => pairs.forEach((v, k) => fn(v, k)) },
      body: new URLSearchParams({ q: "a b" }),
    });
    expect(seen[0]).toMatchObject({ method: "PUT", body: "hi" });
    expect(seen[0]!.headers["x-one"]).toBe("1");
    expect(seen[1]!.headers).toMatchObject({ "x-two": "2", "content-type": "application/x-www-form-urlencoded;charset=UTF-8" });
    expect(seen[1]!.body).toBe("q=a+b");
  });

  it("fails a request whose server stays silent longer than idleTimeoutMs, with a TypeError", async () => {
    handler = () => undefined; // never answers
    const failure = await httpFetch(`${base}/silent`, { idleTimeoutMs: 50 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as Error).message).toMatch(/^fetch failed: no data from 127\.0\.0\.1:\d+ for 0\.05 s$/);
  });

  it("returns error statuses as responses, with their body as text or bytes", async () => {
    handler = (_req, res) => {
      res.writeHead(429, { "retry-after": "3" });
      res.end("slow down");
    };
    const res = await httpFetch(`${base}/limited`);
    expect(res.ok).toBe(false);
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("3");
    expect(Buffer.from(await res.arrayBuffer()).toString()).toBe("slow down");
  });

  it("follows redirects (a 303 as a GET without the body), and drops the authorization header across origins", async () => {
    handler = (req, res) => {
      if (req.url === "/start") {
        res.writeHead(303, { location: "/next" });
        res.end();
      } else if (req.url === "/next") {
        res.writeHead(302, { location: `http://localhost:${(server.address() as AddressInfo).port}/final` });
        res.end();
      } else res.end("done");
    };
    const res = await httpFetch(`${base}/start`, { method: "POST", headers: { authorization: "secret" }, body: "x" });
    expect(seen.map((s) => `${s.method} ${s.url} ${s.body} ${s.headers.authorization ?? "-"}`)).toEqual([
      "POST /start x secret",
      "GET /next  secret",
      "GET /final  -",
    ]);
    expect(res.redirected).toBe(true);
    expect(res.url).toMatch(/^http:\/\/localhost:\d+\/final$/);
    expect(await res.text()).toBe("done");
    const manual = await httpFetch(`${base}/start`, { redirect: "manual" });
    expect(manual.status).toBe(303);
    await expect(httpFetch(`${base}/start`, { redirect: "error" })).rejects.toThrow(/redirected to \/next/);
  });

  it("rejects with the signal's reason when aborted, before or while waiting for the answer", async () => {
    let answer: (() => void) | undefined;
    handler = (_req, res) => {
      answer = () => res.end("late");
    };
    const before = new AbortController();
    before.abort();
    await expect(httpFetch(`${base}/x`, { signal: before.signal })).rejects.toMatchObject({ name: "AbortError" });
    const during = new AbortController();
    const pending = httpFetch(`${base}/slow`, { signal: during.signal });
    while (seen.length === 0) await new Promise((r) => setImmediate(r));
    during.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    answer?.();
  });

  it("rejects with a TypeError naming the failure when nothing listens", async () => {
    const closed = http.createServer();
    closed.listen(0, "127.0.0.1");
    await once(closed, "listening");
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    await once(closed, "close");
    const failure = await httpFetch(`http://127.0.0.1:${port}/`).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as Error).message).toMatch(/^fetch failed: .*ECONNREFUSED/);
    await expect(httpFetch("ftp://example.invalid/")).rejects.toThrow(/ftp: URLs are not supported/);
  });

  it("does not load undici (Node's fetch)", async () => {
    handler = (_req, res) => res.end("{}");
    const { execFile } = await import("node:child_process");
    const { promisify } = await import("node:util");
    // The built module (the package's own export), in a fresh process.
    const built = new URL("../../dist/http/http-fetch.js", import.meta.url).href;
    const script = `import(${JSON.stringify(built)}).then(async ({ httpFetch }) => {
      await (await httpFetch(process.argv[1])).json();
      console.log(process.moduleLoadList.some((m) => m.includes("undici")));
    })`;
    const { stdout: out } = await promisify(execFile)(process.execPath, ["-e", script, `${base}/`], { encoding: "utf8" });
    expect(out.trim()).toBe("false");
  });
});
