import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeConfig, makeCtx, makeSandbox, type TestSandbox } from "../__fixtures__/context.js";
import { BrowserManager, createBrowserTool, findChromiumOnPath, type IdleTimers, type ToolContext } from "../index.js";

// Chromium comes from scripts/install-chromium.sh (Debian's chromium). Under CI a missing
// browser fails the run; locally the tests skip and say how to install it.
const chromium = process.env.CHROMIUM_PATH ?? findChromiumOnPath();
if (!chromium && process.env.CI) {
  describe("browser tool", () => {
    it("needs Chromium under CI", () => {
      throw new Error("Chromium is not installed: run scripts/install-chromium.sh (CI installs it in .ci/run).");
    });
  });
} else if (!chromium) {
  console.warn("browser tests skipped: Chromium is not installed; run scripts/install-chromium.sh");
}
const describeBrowser = chromium ? describe : describe.skip;

const PAGE = `<!doctype html><html><head><title>Test page</title></head><body>
<h1>Browser test page</h1>
<button onclick="document.getElementById('count').textContent = 'clicked ' + (++window.n)">Add one</button>
<p id="count">not clicked</p>
<form action="/search"><input name="q" aria-label="Search words"><button>Go</button></form>
<label>Colour <select aria-label="Colour"><option value="red">Red</option><option value="blue">Blue</option></select></label>
<a href="/second" target="_blank">Second page</a>
<script>window.n = 0</script></body></html>`;

function serve(
  host: string,
  handler: (url: string) => { status?: number; type?: string; body?: string; location?: string; hold?: boolean },
) {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? "");
    const r = handler(req.url ?? "/");
    if (r.hold) return; // never answers
    res.writeHead(r.status ?? 200, {
      "content-type": r.type ?? "text/html; charset=utf-8",
      ...(r.location ? { location: r.location } : {}),
    });
    res.end(r.body ?? "");
  });
  return {
    hits,
    base: "",
    async start() {
      await new Promise<void>((resolve) => server.listen(0, host, resolve));
      this.base = `http://${host}:${(server.address() as AddressInfo).port}`;
    },
    stop() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Idle timers the test fires by hand. */
function manualTimers() {
  const pending = new Map<number, { fn: () => void; ms: number }>();
  let next = 1;
  const timers: IdleTimers = {
    set(fn, ms) {
      pending.set(next, { fn, ms });
      return next++;
    },
    clear(handle) {
      pending.delete(handle as number);
    },
  };
  return {
    timers,
    pending,
    fireAll() {
      const due = [...pending.values()];
      pending.clear();
      for (const t of due) t.fn();
    },
  };
}

/** The ref of the first snapshot line matching `pattern`. */
function refOf(snapshot: string, pattern: RegExp): string {
  const line = snapshot.split("\n").find((l) => pattern.test(l));
  const ref = line && /\[ref=(\w+)\]/.exec(line)?.[1];
  if (!ref) throw new Error(`no ref for ${pattern} in:\n${snapshot}`);
  return ref;
}

/** Polls `check` until it holds (10 s at most): the browser closes asynchronously. */
async function waitUntil(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

let onSlow = () => {};
const site = serve("127.0.0.1", (url) => {
  if (url === "/") return { body: PAGE };
  if (url === "/slow") {
    onSlow();
    return { hold: true };
  }
  if (url.startsWith("/search?"))
    return { body: `<title>Results</title><p>You searched ${new URL(url, "http://x").searchParams.get("q")}</p>` };
  if (url === "/second") return { body: "<title>Second</title><h2>The second page</h2>" };
  return { status: 404, body: "<p>missing</p>" };
});

describeBrowser("browser tool (private network allowed for the local test server)", { timeout: 60_000 }, () => {
  let box: TestSandbox;
  let ctx: ToolContext;
  const clock = manualTimers();
  const manager = new BrowserManager({ timers: clock.timers });
  const tool = createBrowserTool({ manager });
  const call = (args: Record<string, unknown>) => tool.execute(args, ctx);

  beforeAll(async () => {
    await site.start();
    box = makeSandbox();
    ctx = makeCtx(box, {
      config: makeConfig({ tools: { browser: { allowPrivateNetwork: true, idleTimeoutSeconds: 42, executablePath: chromium } } }),
    });
  });
  afterAll(async () => {
    await manager.closeAll();
    await site.stop();
    box.cleanup();
  });

  it("opens a page on first use and snapshots it with element refs", async () => {
    expect(manager.isRunning("main")).toBe(false);
    const opened = await call({ action: "open", url: `${site.base}/` });
    expect(opened.isError).toBeFalsy();
    expect(opened.content).toContain(`Test page — ${site.base}/`);
    expect(opened.details?.launchMs).toEqual(expect.any(Number));
    expect(opened.content).toMatch(/^Started the browser \(\d+\.\d s\)\./);
    expect(manager.isRunning("main")).toBe(true);

    const reload = await call({ action: "navigate", url: "reload" });
    expect(reload.details).not.toHaveProperty("launchMs");
    const snap = await call({ action: "snapshot" });
    expect(snap.isError, snap.content).toBeFalsy();
    expect(snap.content).toMatch(/heading "Browser test page" \[level=1\] \[ref=(f\d+)?e\d+\]/);
    expect(snap.content).toMatch(/button "Add one" \[ref=(f\d+)?e\d+\]/);
    expect(snap.content).toMatch(/textbox "Search words" \[ref=(f\d+)?e\d+\]/);
  });

  it("clicks, selects and types by ref", async () => {
    let snap = (await call({ action: "snapshot" })).content;
    expect((await call({ action: "click", ref: refOf(snap, /button "Add one"/) })).isError).toBeFalsy();
    await call({ action: "click", ref: refOf(snap, /button "Add one"/) });
    snap = (await call({ action: "snapshot" })).content;
    expect(snap).toContain("clicked 2");

    const selected = await call({ action: "select", ref: refOf(snap, /combobox "Colour"/), values: ["Blue"] });
    expect(selected.content).toContain("Selected blue");
    snap = (await call({ action: "snapshot" })).content;
    expect(snap).toMatch(/option "Blue" \[selected\]/);

    const typed = await call({ action: "type", ref: refOf(snap, /textbox "Search words"/), text: "sea otters", submit: true });
    expect(typed.isError).toBeFalsy();
    expect(site.hits).toContain("/search?q=sea+otters");
    expect((await call({ action: "snapshot" })).content).toContain("You searched sea otters");

    const stale = await call({ action: "click", ref: "e999" });
    expect(stale.isError).toBe(true);
    expect(stale.content).toContain("e999");
  });

  it("saves a screenshot and a PDF in the workspace", async () => {
    await call({ action: "navigate", url: `${site.base}/` });
    const shot = await call({ action: "screenshot" });
    expect(shot.isError).toBeFalsy();
    const rel = shot.details?.path as string;
    expect(rel).toMatch(/^browser\/screenshot-.*\.png$/);
    expect(shot.content).toContain(rel);
    const saved = readFileSync(path.join(box.ws, rel));
    expect(saved.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
    // The same PNG comes back as an image part, for models that accept images.
    expect(shot.images).toEqual([{ mimeType: "image/png", data: saved.toString("base64") }]);

    const pdf = await call({ action: "pdf", path: "out/page.pdf" });
    expect(pdf.isError).toBeFalsy();
    expect(readFileSync(path.join(box.ws, "out/page.pdf")).subarray(0, 5).toString("latin1")).toBe("%PDF-");

    const outside = await call({ action: "screenshot", path: "../outside.png" });
    expect(outside.isError).toBe(true);
  });

  it("lists, opens, switches and closes tabs", async () => {
    const before = (await call({ action: "tabs" })).details?.tabs as Array<{ id: string; current: boolean }>;
    const snap = (await call({ action: "snapshot" })).content;
    await call({ action: "click", ref: refOf(snap, /link "Second page"/) });
    const listed = await call({ action: "tabs" });
    const tabs = listed.details?.tabs as Array<{ id: string; url: string; current: boolean }>;
    expect(tabs).toHaveLength(before.length + 1);
    const popup = tabs.find((t) => t.url.endsWith("/second"))!;
    expect(popup.current).toBe(true);
    expect(listed.content).toContain(`* ${popup.id}: Second — ${site.base}/second`);

    const first = tabs.find((t) => t.url === `${site.base}/`)!;
    const switched = await call({ action: "switch_tab", tabId: first.id });
    expect(switched.content).toContain(`Tab ${first.id}: Test page`);
    expect((await call({ action: "snapshot" })).content).toContain("Browser test page");

    const closed = await call({ action: "close_tab", tabId: popup.id });
    expect(closed.content).toContain(`Closed tab ${popup.id}`);
    const after = (await call({ action: "tabs" })).details?.tabs as Array<{ id: string }>;
    expect(after.map((t) => t.id)).not.toContain(popup.id);
    expect((await call({ action: "switch_tab", tabId: popup.id })).isError).toBe(true);
  });

  it("stops a navigation when the run is aborted", async () => {
    const controller = new AbortController();
    onSlow = () => controller.abort();
    const res = await tool.execute({ action: "navigate", url: `${site.base}/slow` }, { ...ctx, signal: controller.signal });
    expect(res).toMatchObject({ isError: true, content: "browser was aborted." });
    expect((await call({ action: "navigate", url: `${site.base}/` })).isError).toBeFalsy();
  });

  it("closes the browser after tools.browser.idleTimeoutSeconds without a call", async () => {
    await call({ action: "tabs" });
    expect([...clock.pending.values()].map((t) => t.ms)).toEqual([42_000]);
    clock.fireAll();
    await waitUntil(() => !manager.isRunning("main"), "the idle close");
    expect((await call({ action: "tabs" })).content).toContain("not running");

    const again = await call({ action: "open", url: `${site.base}/second` });
    expect(again.details?.launchMs).toEqual(expect.any(Number));
    expect(manager.isRunning("main")).toBe(true);
  });
});

describeBrowser("browser tool private-network guard", { timeout: 60_000 }, () => {
  let box: TestSandbox;
  const inner = serve("127.0.0.2", () => ({ body: "<title>Internal</title><p>secret admin page</p>" }));
  const outer = serve("127.0.0.1", (url) => {
    if (url === "/embeds") return { body: `<title>Embeds</title><img src="${inner.base}/pixel.png" alt="pixel"><p>outer page</p>` };
    if (url === "/to-inner") return { status: 302, location: `${inner.base}/admin` };
    return { body: "<title>Outer</title>" };
  });
  // 127.0.0.1 plays a public address, 127.0.0.2 a private one.
  const manager = new BrowserManager({ classifyAddress: (a) => (a === "127.0.0.2" ? "private" : undefined) });
  const tool = createBrowserTool({ manager });
  const strictManager = new BrowserManager();
  const strictTool = createBrowserTool({ manager: strictManager });
  let ctx: ToolContext;

  beforeAll(async () => {
    await Promise.all([inner.start(), outer.start()]);
    box = makeSandbox();
    ctx = makeCtx(box, { config: makeConfig({ tools: { browser: { executablePath: chromium } } }) });
  });
  afterAll(async () => {
    await Promise.all([manager.closeAll(), strictManager.closeAll()]);
    await Promise.all([inner.stop(), outer.stop()]);
    box.cleanup();
  });

  it("refuses loopback and non-http URLs before starting a browser", async () => {
    const res = await strictTool.execute({ action: "open", url: `${outer.base}/` }, ctx);
    expect(res.isError).toBe(true);
    expect(res.content).toContain("127.0.0.1 is a loopback address");
    expect(res.content).toContain("tools.browser.allowPrivateNetwork");
    const file = await strictTool.execute({ action: "navigate", url: "file:///etc/passwd" }, ctx);
    expect(file.isError).toBe(true);
    expect(file.content).toContain("http and https URLs only");
    expect(strictManager.isRunning("main")).toBe(false);
    expect(outer.hits).toEqual([]);
  });

  it("a config change closes the running browser, so a stricter guard applies at once", async () => {
    const lax = { ...ctx, config: makeConfig({ tools: { browser: { executablePath: chromium, allowPrivateNetwork: true } } }) };
    expect((await strictTool.execute({ action: "open", url: `${outer.base}/` }, lax)).isError).toBeFalsy();
    expect(strictManager.isRunning("main")).toBe(true);
    const refused = await strictTool.execute({ action: "navigate", url: `${outer.base}/again` }, ctx);
    expect(refused.content).toContain("127.0.0.1 is a loopback address");
    expect(strictManager.isRunning("main")).toBe(false);
    expect(outer.hits).toContain("/");
    expect(outer.hits).not.toContain("/again");
  });

  it("blocks requests and redirects of a public page to private addresses", async () => {
    const page = await tool.execute({ action: "open", url: `${outer.base}/embeds` }, ctx);
    expect(page.isError).toBeFalsy();
    expect(page.content, page.content).toMatch(/\d request\(s\) to non-public addresses were blocked/);
    expect(page.details?.blocked).toContain(`${inner.base}/pixel.png`);
    const redirect = await tool.execute({ action: "navigate", url: `${outer.base}/to-inner` }, ctx);
    expect(redirect.isError).toBe(true);
    expect((await tool.execute({ action: "snapshot" }, ctx)).content).not.toContain("secret admin page");
    expect(inner.hits).toEqual([]);
  });
});
