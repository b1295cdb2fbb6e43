// Five channels connected (issue 19): `openclaw gateway` (the bin, the esbuild bundle) with one
// account each of telegram, matrix, feishu, qqbot and whatsapp, the extensions of this repository
// on their real client libraries (grammY-less Bot API client, matrix-js-sdk, the Lark SDK's long
// connection, QQ's WebSocket gateway; WhatsApp with its socket replaced by @openclaw/testkit's
// fake behind its relay, the only WhatsApp there is without a phone), against the fakes of
// @openclaw/testkit on 127.0.0.1 (no Synapse). The channels are installed as users install them
// (`openclaw plugins install <id>` into the bench's state folder, so they share the gateway's zod
// and plugin SDK); the WhatsApp fixture plugin is loaded by path and runs the installed WhatsApp
// package. `--by-path` loads the repository's extensions by path instead (each then brings the
// workspace's own zod and SDK: a developer's set-up, slower and larger).
// Timed from spawning the process until every account reports "connected" through the control
// API (`channels.status` and `channels.changed`, what `openclaw channels status` shows); the port
// accepting a TCP connection is printed beside it. Then the idle RSS with the five accounts, 12 s
// after they connected (V8's memory reducer returns the start-up garbage about 8 s after
// allocation stops), in the last `--idle-runs` runs (default 3). Their median is the figure: one
// build's idle RSS moves by ~10 MB between starts, with how much of a V8 worker thread's malloc
// arena stays resident.
// Environment: the inherited one minus OPENCLAW_* (see bench/README.md), HOME a temp folder, the
// fake WhatsApp's URL for the fixture plugin.
// Targets: all five connected within 1 s of the spawn; idle RSS < 90 MB.
// Usage: node bench/channels-connect.mjs [--runs 5] [--only telegram,matrix] [--cpu-prof-dir <dir>] [--by-path] [--idle-runs 3] [--node-flags "<flags>"] [--hold <s>]   (needs `pnpm build`)
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { freePort } from "./lib/free-port.mjs";

const { values: args } = parseArgs({
  options: {
    runs: { type: "string", default: "5" },
    json: { type: "boolean", default: false },
    // e.g. --cpu-prof-dir /tmp/prof: the gateway runs with `node --cpu-prof` (a profile per start).
    "cpu-prof-dir": { type: "string" },
    // e.g. --only whatsapp,matrix: configure only these channels (for a breakdown; the targets are for all five).
    only: { type: "string" },
    // The extensions by path (plugins.load.paths), with the workspace's zod and SDK, instead of installed.
    "by-path": { type: "boolean", default: false },
    // How many of the runs (the last ones) also measure the idle RSS (12 s each).
    "idle-runs": { type: "string", default: "3" },
    // e.g. --node-flags "--max-semi-space-size=1": node flags for the gateway (experiments).
    "node-flags": { type: "string" },
    // e.g. --hold 600: after the last idle reading, print the gateway's pid and keep it running
    // this many seconds (to inspect /proc/<pid>/smaps or attach a debugger).
    hold: { type: "string" },
  },
});
const ALL_CHANNELS = ["telegram", "matrix", "feishu", "qqbot", "whatsapp"];
const CHANNELS = args.only ? args.only.split(",").filter((c) => ALL_CHANNELS.includes(c)) : ALL_CHANNELS;
const NODE_ARGS = [
  ...(args["cpu-prof-dir"] ? ["--cpu-prof", `--cpu-prof-dir=${args["cpu-prof-dir"]}`] : []),
  ...(args["node-flags"]?.split(/\s+/).filter(Boolean) ?? []),
];
const RUNS = Number(args.runs);
const IDLE_RUNS = Math.max(1, Math.min(RUNS, Number(args["idle-runs"])));
const TARGET = { connectedMs: 1000, rssMb: 90 };
const IDLE_AFTER_MS = 12_000;
const TOKEN = "bench-channels-connect-token-0123456789";
const WA_NUMBER = "+15550001111";

const root = new URL("../", import.meta.url);
const file = (p) => fileURLToPath(new URL(p, root));
const corePackage = JSON.parse(readFileSync(new URL("packages/core/package.json", root), "utf8"));
const CLI = file(`packages/core/${corePackage.bin.openclaw}`);
const load = (p) =>
  import(new URL(p, root)).catch((err) => {
    console.error(`bench/channels-connect: build first (pnpm build): ${err.message}`);
    process.exit(1);
  });
const [testkit, matrixKit, feishuKit, whatsappKit, { GatewayClient }] = await Promise.all([
  load("packages/testkit/dist/index.js"),
  load("packages/testkit/dist/matrix/index.js"),
  load("packages/testkit/dist/feishu/index.js"),
  load("packages/testkit/dist/whatsapp/index.js"),
  load("packages/core/dist/gateway/client.js"),
]);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Resolves once 127.0.0.1:`port` accepts a TCP connection (tried every 2 ms). */
async function accepted(port, child) {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the process exited (${child.exitCode}) before its port accepted`);
    const ok = await new Promise((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      socket.once("connect", () => (socket.destroy(), resolve(true)));
      socket.once("error", () => resolve(false));
    });
    if (ok) return;
    await sleep(2);
  }
}

// ---- the fakes, the home and the config ----
await matrixKit.quietMatrixSdkLogs?.();
const tg = await testkit.startFakeTelegram();
const hs = await matrixKit.startFakeHomeserver();
const matrixBot = await hs.registerUser("bot", { displayName: "Claw" });
const feishu = await feishuKit.startFakeFeishu({});
const qq = await testkit.startFakeQQBot({});
const wa = await whatsappKit.startFakeWhatsAppServer({ linkedNumber: WA_NUMBER });

const home = mkdtempSync(path.join(tmpdir(), "openclaw-bench-channels-"));
const stateDir = path.join(home, ".openclaw");
mkdirSync(stateDir);
writeFileSync(
  path.join(stateDir, "openclaw.json"),
  JSON.stringify({
    agents: { defaults: { model: "local/llama", skipBootstrap: true } },
    models: { providers: { local: { baseUrl: "http://127.0.0.1:9/v1", apiKey: "sk-bench", models: [{ id: "llama" }] } } },
    gateway: { auth: { token: TOKEN } },
    plugins: {
      load: {
        paths: CHANNELS.filter((c) => c === "whatsapp" || args["by-path"]).map((c) =>
          file(`${c === "whatsapp" ? "packages/testkit/whatsapp-fixture-plugin" : `extensions/${c}`}/`),
        ),
      },
    },
    channels: Object.fromEntries(
      Object.entries({
        telegram: { botToken: tg.token, apiRoot: tg.apiRoot },
        matrix: { homeserver: hs.baseUrl, accessToken: matrixBot.accessToken },
        feishu: { appId: feishu.appId, appSecret: feishu.appSecret, domain: feishu.baseUrl },
        qqbot: { appId: qq.appId, clientSecret: qq.clientSecret, apiBase: qq.apiBase, tokenUrl: qq.tokenUrl },
        whatsapp: {},
      }).filter(([c]) => CHANNELS.includes(c)),
    ),
  }),
);
const env = { HOME: home, OPENCLAW_FAKE_WHATSAPP_URL: wa.url };
// The fixture runs the installed WhatsApp package (see the header).
if (!args["by-path"]) env.OPENCLAW_FAKE_WHATSAPP_CHANNEL = path.join(stateDir, "extensions", "node_modules", "@openclaw", "whatsapp");
for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("OPENCLAW_")) env[k] ??= v;

// Installed as users install them (from this checkout's folders, packed and installed with npm).
if (!args["by-path"]) {
  for (const c of CHANNELS) {
    const r = spawnSync(process.execPath, [CLI, "plugins", "install", c], { env, cwd: home, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`openclaw plugins install ${c} failed (${r.status}):\n${r.stdout}${r.stderr}`);
  }
}

// WhatsApp links once, as a user does (`channels login`, the phone scans the QR code); every
// start after that connects with the saved auth state.
if (CHANNELS.includes("whatsapp")) {
  const login = spawn(process.execPath, [CLI, "channels", "login", "whatsapp"], { env, cwd: home, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  for (const s of [login.stdout, login.stderr]) s.on("data", (d) => (output += d));
  const exited = new Promise((resolve) => login.once("exit", resolve));
  await wa.fake.phone.waitFor(() => wa.fake.phone.currentQr !== undefined, 30_000);
  wa.fake.phone.scanQr();
  const code = await exited;
  if (code !== 0) throw new Error(`openclaw channels login whatsapp failed (${code}):\n${output}`);
}

/** One start: spawn -> port accepts -> all five accounts connected; optionally the idle RSS. */
async function startOnce({ idle = false, hold = 0 } = {}) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [...NODE_ARGS, CLI, "gateway", "--port", String(port)], {
    env,
    cwd: home,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d) => (stderr += d));
  try {
    await accepted(port, child);
    const acceptMs = performance.now() - started;
    // Connecting early is fine: the gateway answers once it has started.
    const client = await GatewayClient.connect(`ws://127.0.0.1:${port}/`, { token: TOKEN, timeoutMs: 30_000 });
    // When each account first reported "connected" (ms after spawn).
    const connectedAt = new Map();
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not all connected after 30 s:\n${stderr}`)), 30_000);
      const check = (channels) => {
        for (const c of channels)
          for (const a of c.accounts)
            if (a.state === "connected" && !connectedAt.has(c.channel)) connectedAt.set(c.channel, performance.now() - started);
        if (connectedAt.size === CHANNELS.length) {
          clearTimeout(timer);
          resolve();
        }
      };
      client.onEvent((frame) => frame.event === "channels.changed" && check(frame.payload.channels));
      client.request("channels.status").then((r) => check(r.channels), reject);
    });
    const connectedMs = Math.max(...connectedAt.values());
    // The gateway's CPU time (user + system, all threads) when the last account reported connected:
    // steadier than wall time on a shared machine. /proc/<pid>/stat fields 14 and 15, in clock ticks (1/100 s).
    const stat = readFileSync(`/proc/${child.pid}/stat`, "utf8");
    const [utime, stime] = stat
      .slice(stat.lastIndexOf(")") + 2)
      .split(" ")
      .slice(11, 13)
      .map(Number);
    const cpuMs = (utime + stime) * 10;
    await client.close();
    const status = () => readFileSync(`/proc/${child.pid}/status`, "utf8");
    const field = (text, name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(text)?.[1] ?? Number.NaN) / 1024;
    const rss = () => field(status(), "VmRSS");
    let idleRssMb;
    let idleParts;
    if (idle) {
      await sleep(IDLE_AFTER_MS);
      idleRssMb = rss();
      // Where the RSS is: anonymous memory (the JS heap, malloc), file-backed pages (node's binary,
      // add-ons), shared memory.
      const text = status();
      idleParts = { anon: field(text, "RssAnon"), file: field(text, "RssFile"), shmem: field(text, "RssShmem") };
    }
    if (hold > 0) {
      console.error(`bench/channels-connect: gateway pid ${child.pid} (port ${port}), held for ${hold} s`);
      await sleep(hold * 1000);
    }
    return { acceptMs, connectedMs, cpuMs, idleRssMb, idleParts, perChannel: Object.fromEntries(connectedAt) };
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    if (child.exitCode === null) child.kill("SIGTERM");
    await exited;
  }
}

/** `node -e 0` timed the same way (spawn -> exit), for scale. */
function nodeBaseline() {
  const t0 = performance.now();
  spawnSync(process.execPath, ["-e", "0"], { env });
  return performance.now() - t0;
}

try {
  await startOnce(); // warm-up: creates the state files and the sync stores
  const runs = [];
  const baseline = [];
  for (let i = 0; i < RUNS; i++) {
    baseline.push(nodeBaseline());
    runs.push(await startOnce({ idle: i >= RUNS - IDLE_RUNS, hold: i === RUNS - 1 ? Number(args.hold ?? 0) : 0 }));
  }
  const idle = runs.filter((r) => r.idleRssMb !== undefined);
  const idleMedian = idle.find((r) => r.idleRssMb === median(idle.map((x) => x.idleRssMb)));
  const result = {
    nodeMs: median(baseline),
    acceptMs: median(runs.map((r) => r.acceptMs)),
    connectedMs: median(runs.map((r) => r.connectedMs)),
    cpuMs: median(runs.map((r) => r.cpuMs)),
    idleRssMb: idleMedian.idleRssMb,
    idleRangeMb: [Math.min(...idle.map((r) => r.idleRssMb)), Math.max(...idle.map((r) => r.idleRssMb))],
    idleParts: idleMedian.idleParts,
    perChannelMs: Object.fromEntries(CHANNELS.map((c) => [c, Math.round(median(runs.map((r) => r.perChannel[c])))])),
  };
  const verdicts = [
    {
      name: "five channels connected",
      ok: result.connectedMs < TARGET.connectedMs,
      detail: `${result.connectedMs.toFixed(0)} ms after spawn < ${TARGET.connectedMs} ms`,
    },
    {
      name: "idle RSS, five channels",
      ok: result.idleRssMb < TARGET.rssMb,
      detail: `${result.idleRssMb.toFixed(1)} MB < ${TARGET.rssMb} MB`,
    },
  ];
  if (args.json) console.log(JSON.stringify({ result, verdicts }, null, 2));
  else {
    const how = args["by-path"] ? "loaded by path" : "installed";
    console.log(`openclaw gateway with one account of each of ${CHANNELS.join(", ")}, ${how} (median of ${RUNS} after a warm-up):`);
    console.log(
      `  node -e 0 ${result.nodeMs.toFixed(0)} ms; port accepts ${result.acceptMs.toFixed(0)} ms; all five connected ${result.connectedMs.toFixed(0)} ms after spawn (gateway CPU by then ${result.cpuMs.toFixed(0)} ms); idle RSS ${result.idleRssMb.toFixed(1)} MB (median of ${idle.length}: ${result.idleRangeMb.map((v) => v.toFixed(1)).join("-")}; anonymous ${result.idleParts.anon.toFixed(1)}, file-backed ${result.idleParts.file.toFixed(1)})`,
    );
    console.log(
      `  each connected (ms after spawn, medians): ${Object.entries(result.perChannelMs)
        .map(([c, ms]) => `${c} ${ms}`)
        .join(", ")}`,
    );
    for (const v of verdicts) console.log(`${v.ok ? "PASS" : "FAIL"}  ${v.name}: ${v.detail}`);
  }
  if (verdicts.some((v) => !v.ok)) process.exitCode = 1;
} finally {
  await Promise.allSettled([tg.close(), hs.close(), feishu.close(), qq.close(), wa.close()]);
  rmSync(home, { recursive: true, force: true });
}
