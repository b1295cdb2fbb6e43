// The browser tool's first use: time from the first `open` call to a loaded page (Chromium launch
// included), the launch alone, a second `open` in the running browser, and the resident memory
// (RSS) of all Chromium processes of the agent's profile, read from /proc. Needs Chromium
// (scripts/install-chromium.sh) and a built @openclaw/core. Run: `node bench/browser-start.mjs`.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";

const core = new URL("../packages/core/dist/", import.meta.url);
const { BrowserManager, browserProfileDir, createBrowserTool, findChromiumOnPath } = await import(new URL("tools/index.js", core));
const { createConfigRegistry, validateConfig } = await import(new URL("config/index.js", core));

if (!findChromiumOnPath()) {
  console.error("bench/browser-start: Chromium not found on PATH; run scripts/install-chromium.sh");
  process.exit(1);
}

const page = `<!doctype html><title>Bench</title><h1>Bench page</h1>${"<p>Some paragraph text for the page.</p>".repeat(50)}`;
const server = http.createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(page));
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const base = `http://127.0.0.1:${server.address().port}`;

const root = mkdtempSync(path.join(tmpdir(), "oc-bench-browser-"));
const workspaceDir = path.join(root, "workspace");
const stateDir = path.join(root, "state");
mkdirSync(workspaceDir, { recursive: true });
const result = validateConfig({ tools: { browser: { allowPrivateNetwork: true } } }, createConfigRegistry());
if (!result.ok) throw new Error(JSON.stringify(result.problems));
const ctx = {
  workspaceDir,
  stateDir,
  agentId: "main",
  sessionKey: "agent:main:main",
  signal: new AbortController().signal,
  config: result.config,
};

/** Sums of VmRSS and of PSS (shared pages split between sharers) over the processes whose command line names the profile folder. */
function browserRss(profileDir) {
  let kib = 0;
  let pssKib = 0;
  let count = 0;
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(profileDir)) continue;
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      if (rss) {
        kib += Number(rss[1]);
        count += 1;
      }
      const pss = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
      if (pss) pssKib += Number(pss[1]);
    } catch {}
  }
  return { mib: kib / 1024, pssMib: pssKib / 1024, count };
}

const manager = new BrowserManager();
const tool = createBrowserTool({ manager });
const t0 = performance.now();
const first = await tool.execute({ action: "open", url: `${base}/` }, ctx);
const firstMs = performance.now() - t0;
if (first.isError) throw new Error(first.content);
const t1 = performance.now();
await tool.execute({ action: "open", url: `${base}/again` }, ctx);
const secondMs = performance.now() - t1;
const t2 = performance.now();
const snap = await tool.execute({ action: "snapshot" }, ctx);
const snapMs = performance.now() - t2;
const rss = browserRss(browserProfileDir(stateDir, "main"));
console.log(`chromium: ${findChromiumOnPath()}`);
console.log(`first open (launch + page load): ${firstMs.toFixed(0)} ms (launch alone ${first.details.launchMs} ms)`);
console.log(
  `second open in the running browser: ${secondMs.toFixed(0)} ms; snapshot: ${snapMs.toFixed(0)} ms (${snap.content.length} chars)`,
);
console.log(
  `browser memory with 2 tabs over ${rss.count} processes: RSS ${rss.mib.toFixed(0)} MiB (sum of VmRSS, shared pages counted in each), PSS ${rss.pssMib.toFixed(0)} MiB`,
);
await manager.closeAll();
server.close();
rmSync(root, { recursive: true, force: true });
