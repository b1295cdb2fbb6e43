import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { makeConfig, makeCtx, makeSandbox, type TestSandbox } from "../__fixtures__/context.js";
import { classifyAddress, createWebFetchTool, type ToolContext } from "../index.js";

const ARTICLE = `<!doctype html><html><head><title>Otters | River News</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>Otters hold hands while sleeping</h1>
<p>${"Sea otters are known to hold hands while they sleep so that they do not drift apart in the current. ".repeat(6)}</p>
<p>Read the <a href="/study">full study</a> for the details on raft behaviour and tidal drift.</p>
<ul><li>Raft size: up to 100</li><li>Diet: urchins</li></ul>
<pre><code>otters.sleep({ holdHands: true });</code></pre>
</article>
<footer>Copyright footer text</footer><script>window.tracking = 1;</script></body></html>`;

let server: http.Server;
let base: string;
let port: number;
let hits: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(req.url ?? "");
    const url = req.url ?? "/";
    const send = (status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": type, ...headers });
      res.end(body);
    };
    if (url === "/article") return send(200, "text/html; charset=utf-8", ARTICLE);
    if (url === "/text") return send(200, "text/plain", "plain words\nline two");
    if (url === "/md") return send(200, "text/markdown", "# Heading\n\n- item");
    if (url === "/json") return send(200, "application/json", JSON.stringify({ ok: true, n: 1 }));
    if (url === "/latin1") return send(200, "text/plain; charset=iso-8859-1", Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    if (url === "/big") return send(200, "text/plain", "x".repeat(300_000));
    if (url === "/gzip") return send(200, "text/plain", zlib.gzipSync("compressed hello"), { "content-encoding": "gzip" });
    if (url === "/bin") return send(200, "application/octet-stream", Buffer.from([0, 1, 2, 3]));
    if (url === "/missing") return send(404, "text/plain", "no such page");
    if (url === "/redirect") return send(302, "text/plain", "", { location: "/text" });
    if (url === "/loop") return send(302, "text/plain", "", { location: "/loop" });
    if (url === "/to-private") return send(302, "text/plain", "", { location: "http://10.0.0.1/admin" });
    if (url === "/to-internal") return send(302, "text/plain", "", { location: `http://internal.test:${port}/text` });
    if (url === "/slow") {
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("first bytes");
      return; // never finishes
    }
    return send(404, "text/plain", "unknown");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

let box: TestSandbox;
let open: ToolContext;
let strict: ToolContext;
const tool = createWebFetchTool();

beforeEach(() => {
  box = makeSandbox();
  hits = [];
  open = makeCtx(box, { config: makeConfig({ tools: { web: { fetch: { allowPrivateNetwork: true } } } }) });
  strict = makeCtx(box);
});
afterEach(() => box.cleanup());

describe("web_fetch (private network allowed for the local test server)", () => {
  it("turns an HTML page into readable text with its title", async () => {
    const res = await tool.execute({ url: `${base}/article` }, open);
    expect(res.isError).toBeFalsy();
    expect(res.content).toMatch(/^Title: Otters/);
    expect(res.content).toContain(`URL: ${base}/article`);
    expect(res.content).toContain("Sea otters are known to hold hands");
    expect(res.content).toContain(`[full study](${base}/study)`);
    expect(res.content).toContain("- Raft size: up to 100");
    expect(res.content).toContain("```\notters.sleep({ holdHands: true });\n```");
    expect(res.content).not.toContain("window.tracking");
    expect(res.content).not.toContain("<p>");
    expect(res.details).toMatchObject({ status: 200, contentType: "text/html", extractor: "readability" });
  });

  it("passes text, Markdown and JSON through, decoding the charset", async () => {
    expect((await tool.execute({ url: `${base}/text` }, open)).content).toBe(`URL: ${base}/text\n\nplain words\nline two`);
    expect((await tool.execute({ url: `${base}/md` }, open)).content).toContain("# Heading\n\n- item");
    expect((await tool.execute({ url: `${base}/json` }, open)).content).toContain('{"ok":true,"n":1}');
    expect((await tool.execute({ url: `${base}/latin1` }, open)).content).toContain("café");
    expect((await tool.execute({ url: `${base}/gzip` }, open)).content).toContain("compressed hello");
  });

  it("follows redirects and reports the final URL", async () => {
    const res = await tool.execute({ url: `${base}/redirect` }, open);
    expect(res.content).toContain(`URL: ${base}/text`);
    expect(res.details).toMatchObject({ redirects: 1, finalUrl: `${base}/text` });
    const loop = await tool.execute({ url: `${base}/loop` }, open);
    expect(loop.isError).toBe(true);
    expect(loop.content).toContain("stopped after 5 redirects");
  });

  it("caps the body at maxBytes and the text at maxChars, with notices", async () => {
    const capped = { ...open, config: makeConfig({ tools: { web: { fetch: { allowPrivateNetwork: true, maxBytes: 1000 } } } }) };
    const res = await tool.execute({ url: `${base}/big` }, capped);
    expect(res.details).toMatchObject({ bytes: 1000, truncatedBytes: true });
    expect(res.content).toContain("larger than 1000 bytes (tools.web.fetch.maxBytes)");
    const chars = await tool.execute({ url: `${base}/big`, maxChars: 50 }, open);
    expect(chars.content).toContain(`${"x".repeat(50)}\n\n[Text cut at 50 of 300000 characters.]`);
  });

  it("gives up after tools.web.fetch.timeoutSeconds", async () => {
    const quick = { ...open, config: makeConfig({ tools: { web: { fetch: { allowPrivateNetwork: true, timeoutSeconds: 0.3 } } } }) };
    const res = await tool.execute({ url: `${base}/slow` }, quick);
    expect(res.isError).toBe(true);
    expect(res.content).toContain("timed out after 0.3s (tools.web.fetch.timeoutSeconds)");
  });

  it("stops when the run is aborted", async () => {
    const controller = new AbortController();
    const pending = tool.execute({ url: `${base}/slow` }, { ...open, signal: controller.signal });
    controller.abort();
    expect((await pending).content).toContain("was aborted");
  });

  it("refuses binary content and marks HTTP errors", async () => {
    const bin = await tool.execute({ url: `${base}/bin` }, open);
    expect(bin.isError).toBe(true);
    expect(bin.content).toContain("application/octet-stream");
    const missing = await tool.execute({ url: `${base}/missing` }, open);
    expect(missing.isError).toBe(true);
    expect(missing.content).toContain("Status: 404");
    expect(missing.content).toContain("no such page");
  });

  it("rejects non-http URLs and bad arguments", async () => {
    expect((await tool.execute({ url: "file:///etc/passwd" }, open)).content).toContain("only fetches http and https");
    expect((await tool.execute({ url: "not a url" }, open)).content).toContain("not a valid URL");
    expect((await tool.execute({}, open)).isError).toBe(true);
  });
});

describe("web_fetch private-network refusal (default config)", () => {
  it.each([
    ["loopback IPv4", () => `${base}/text`, "loopback"],
    ["private 10.x", () => "http://10.1.2.3/", "private"],
    ["link-local metadata", () => "http://169.254.169.254/latest/meta-data/", "link-local"],
    ["loopback IPv6", () => `http://[::1]:${port}/text`, "loopback"],
    ["IPv4-mapped IPv6", () => `http://[::ffff:127.0.0.1]:${port}/text`, "loopback"],
    ["unique-local IPv6", () => "http://[fd00::1]/", "unique-local"],
    ["hostname resolving to loopback", () => `http://localhost:${port}/text`, "loopback"],
  ])("refuses %s", async (_label, url, kind) => {
    const res = await tool.execute({ url: url() }, strict);
    expect(res.isError).toBe(true);
    expect(res.content).toContain("Refused to fetch");
    expect(res.content).toContain(`is a ${kind} address`);
    expect(res.content).toContain("tools.web.fetch.allowPrivateNetwork");
    expect(res.details).toMatchObject({ refused: true });
    expect(hits).toEqual([]);
  });

  it("checks every address a name resolves to", async () => {
    const sneaky = createWebFetchTool({
      resolveHost: async () => [
        { address: "8.8.8.8", family: 4 },
        { address: "192.168.1.10", family: 4 },
      ],
    });
    const res = await sneaky.execute({ url: "http://mixed.test/" }, strict);
    expect(res.content).toContain("mixed.test resolves to 192.168.1.10, which is a private address");
  });

  it("re-checks the target of every redirect", async () => {
    // Treat the test server's 127.0.0.1 as public so the first hop is allowed.
    const classify = (a: string) => (a === "127.0.0.1" ? undefined : classifyAddress(a));
    const resolveHost = async (host: string) =>
      host === "internal.test" ? [{ address: "192.168.0.7", family: 4 }] : [{ address: "127.0.0.1", family: 4 }];
    const fetcher = createWebFetchTool({ classifyAddress: classify, resolveHost });
    expect((await fetcher.execute({ url: `${base}/text` }, strict)).content).toContain("plain words");
    const toIp = await fetcher.execute({ url: `${base}/to-private` }, strict);
    expect(toIp.isError).toBe(true);
    expect(toIp.content).toContain("10.0.0.1 is a private address");
    const toName = await fetcher.execute({ url: `${base}/to-internal` }, strict);
    expect(toName.content).toContain("internal.test resolves to 192.168.0.7, which is a private address");
    expect(hits).toEqual(["/text", "/to-private", "/to-internal"]);
  });
});

describe("classifyAddress", () => {
  it("labels non-public addresses and passes public ones", () => {
    expect(classifyAddress("127.0.0.1")).toBe("loopback");
    expect(classifyAddress("10.255.0.1")).toBe("private");
    expect(classifyAddress("172.16.5.4")).toBe("private");
    expect(classifyAddress("192.168.1.1")).toBe("private");
    expect(classifyAddress("169.254.169.254")).toBe("link-local");
    expect(classifyAddress("100.64.0.1")).toBe("carrier-grade NAT");
    expect(classifyAddress("0.0.0.0")).toBe("unspecified");
    expect(classifyAddress("::1")).toBe("loopback");
    expect(classifyAddress("fe80::1")).toBe("link-local");
    expect(classifyAddress("fc00::1")).toBe("unique-local");
    expect(classifyAddress("::ffff:10.0.0.1")).toBe("private");
    expect(classifyAddress("64:ff9b::a9fe:a9fe")).toBe("link-local");
    expect(classifyAddress("2002:7f00:1::")).toBe("loopback");
    expect(classifyAddress("8.8.8.8")).toBeUndefined();
    expect(classifyAddress("172.32.0.1")).toBeUndefined();
    expect(classifyAddress("2606:4700:4700::1111")).toBeUndefined();
  });
});
