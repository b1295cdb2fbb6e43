// Gateway benchmark, each figure beside a baseline measured in the same run:
// 1. Whole process: `openclaw gateway --port <free port>` from spawn until the port accepts a TCP
//    connection (the baseline: a bare node that listens on a port, timed the same way), each
//    case interleaved with the others, in the inherited environment minus OPENCLAW_* (--clean-env:
//    PATH and HOME only; see bench/README.md), and its RSS
//    (VmRSS) 0.5 s after that and idle, 12 s after it (V8's memory reducer returns the startup
//    garbage about 8 s after allocation stops), with no channel and with 5 loopback accounts (the
//    loopback plugin folder through plugins.load.paths). Five real channels: channels-connect.mjs.
// 2. In process: turns through the loopback channel (default streaming: partial preview) with a
//    zero-latency in-process model, 50 sessions (one DM user each):
//    - sustained load: 10k turns offered at the target rate (300 turns/s, each session sending
//      its next message a fixed interval after its previous one, unless its answer is late);
//      added latency = user message -> whole reply visible in the chat, minus time in the model;
//      RSS after the first 1k turns vs after all 10k;
//    - saturation: every session sends its next message as soon as its run ended: the most
//      turns/s the gateway can do, beside raw `runtime.runTurn` with the same model, the same
//      number of sessions and turns per session (the cost of the channel pipeline).
// Targets (issue 19): start within 3x of the node baseline (timed the same way, spawn -> port
// accepts), idle RSS < 60 MB with no channel and < 90 MB with the five accounts (of the bin, the
// esbuild bundle; "before" is tsc's unbundled dist/cli/main.js, started beside it); >= 300 turns/s; p99 added latency < 20 ms at 300 turns/s;
// RSS(10k) within 20% of RSS(1k). Needs the built packages (`pnpm build`).
// Usage: node bench/gateway.mjs [--turns 10000] [--sessions 50] [--rate 300] [--runs 5]
//                               [--only process|turns] [--clean-env] [--before <bin>] [--json]
import { spawn } from "node:child_process";
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
    turns: { type: "string", default: "10000" },
    sessions: { type: "string", default: "50" },
    rate: { type: "string", default: "300" },
    runs: { type: "string", default: "5" },
    only: { type: "string" },
    "clean-env": { type: "boolean", default: false },
    before: { type: "string" },
    json: { type: "boolean", default: false },
  },
});
const TURNS = Number(args.turns);
const SESSIONS = Number(args.sessions);
const RATE = Number(args.rate);
const RUNS = Number(args.runs);
const SATURATION_TURNS = 3000;
const IDLE_AFTER_MS = 12_000;
const TARGET = { startRatio: 3, rssMb: 60, rssFiveMb: 90, turnsPerSec: 300, p99Ms: 20, rssGrowth: 0.2 };

const root = new URL("../", import.meta.url);
const corePackage = JSON.parse(readFileSync(new URL("packages/core/package.json", root), "utf8"));
const CLI = fileURLToPath(new URL(`packages/core/${corePackage.bin.openclaw}`, root));
// The "before" row: `--before <bin>` (e.g. a bundle built from an older commit), else tsc's unbundled dist.
const BEFORE = args.before ? path.resolve(args.before) : fileURLToPath(new URL("packages/core/dist/cli/main.js", root));
const PLUGIN_DIR = fileURLToPath(new URL("packages/testkit/loopback-plugin/", root));

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const median = (xs) => quantile(xs, 0.5);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const verdicts = [];
const check = (name, ok, detail) => verdicts.push({ name, ok, detail });

// RSS comparisons need a collected heap; re-run with --expose-gc when it is missing.
if (typeof globalThis.gc !== "function") {
  const child = spawn(process.execPath, ["--expose-gc", fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: "inherit" });
  child.on("exit", (code) => process.exit(code ?? 1));
} else {
  const results = {};
  if (args.only !== "turns") results.process = await measureStartup();
  if (args.only !== "process") results.turns = await measureTurns();
  report(results);
  if (verdicts.some((v) => !v.ok)) process.exitCode = 1;
}

// ---- 1. whole process ----------------------------------------------------------------------

/** Resolves once 127.0.0.1:`port` accepts a TCP connection (tried every 2 ms). */
async function accepted(port, child) {
  for (;;) {
    if (child.exitCode !== null) return false;
    const ok = await new Promise((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      socket.once("connect", () => (socket.destroy(), resolve(true)));
      socket.once("error", () => resolve(false));
    });
    if (ok) return true;
    await sleep(2);
  }
}

/**
 * The environment of every process started here: this one's (so Node loads NODE_EXTRA_CA_CERTS
 * as a user's would) without OPENCLAW_* variables, HOME at `home`; with --clean-env only PATH and HOME.
 */
function childEnv(home) {
  if (args["clean-env"]) return { HOME: home, PATH: process.env.PATH ?? "" };
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("OPENCLAW_")) env[k] = v;
  return { ...env, HOME: home };
}

/**
 * Spawns node with `argv(port)` in `home`; resolves when the port accepts a TCP connection (and
 * `alsoWait` lines were printed), then reads RSS.
 */
async function measureProcess(argv, { home, alsoWait, idle = false }) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, argv(port), { cwd: home, env: childEnv(home), stdio: ["ignore", "pipe", "pipe"] });
  let seen = 0;
  let output = "";
  let linesDone;
  const lines = new Promise((resolve) => (linesDone = resolve));
  if (!alsoWait) linesDone();
  for (const stream of [child.stdout, child.stderr]) {
    let buffer = "";
    stream.setEncoding("utf8").on("data", (data) => {
      output += data;
      buffer += data;
      for (let i = buffer.indexOf("\n"); i >= 0; i = buffer.indexOf("\n")) {
        if (alsoWait?.pattern.test(buffer.slice(0, i)) && (seen += 1) >= alsoWait.count) linesDone();
        buffer = buffer.slice(i + 1);
      }
    });
  }
  if (!(await accepted(port, child)))
    throw new Error(`${argv(port).join(" ")} exited (${child.exitCode}) before its port accepted:\n${output}`);
  const readyMs = performance.now() - started;
  await lines;
  const allUpMs = performance.now() - started;
  const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))[1]) / 1024;
  await sleep(500); // settle: timers armed, lazy imports done
  const rssMb = rss();
  // Idle: about 8 s after allocation stops, V8's memory reducer collects the startup garbage and
  // returns its pages; an idle gateway spends its life at the RSS after that.
  let idleRssMb;
  if (idle) {
    await sleep(IDLE_AFTER_MS - 500);
    idleRssMb = rss();
  }
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
  return { readyMs, allUpMs, rssMb, idleRssMb };
}

/**
 * Every case started `RUNS` times (after one warm-up start each, which creates the state files),
 * interleaved (case a, b, c, a, b, c, ...) so that the machine's load hits them alike; medians.
 */
async function startupCases(cases) {
  const homes = {};
  for (const [name, { config }] of Object.entries(cases)) {
    homes[name] = mkdtempSync(path.join(tmpdir(), `openclaw-bench-gw-${name}-`));
    mkdirSync(path.join(homes[name], ".openclaw"));
    if (config) writeFileSync(path.join(homes[name], ".openclaw", "openclaw.json"), JSON.stringify(config));
  }
  try {
    const runs = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
    for (const [name, c] of Object.entries(cases)) await measureProcess(c.argv, { home: homes[name], ...c });
    for (let i = 0; i < RUNS; i++)
      for (const [name, c] of Object.entries(cases))
        runs[name].push(await measureProcess(c.argv, { home: homes[name], ...c, idle: i === RUNS - 1 }));
    return Object.fromEntries(
      Object.entries(runs).map(([name, r]) => [
        name,
        {
          startMs: median(r.map((x) => x.readyMs)),
          allUpMs: median(r.map((x) => x.allUpMs)),
          rssMb: median(r.map((x) => x.rssMb)),
          idleRssMb: r[RUNS - 1].idleRssMb,
        },
      ]),
    );
  } finally {
    for (const home of Object.values(homes)) rmSync(home, { recursive: true, force: true });
  }
}

async function measureStartup() {
  const base = {
    agents: { defaults: { model: "local/llama", skipBootstrap: true } },
    models: { providers: { local: { baseUrl: "http://127.0.0.1:9/v1", apiKey: "sk-bench", models: [{ id: "llama" }] } } },
  };
  const five = {
    ...base,
    plugins: { load: { paths: [PLUGIN_DIR] } },
    channels: { loopback: { dmPolicy: "open", allowFrom: ["*"], accounts: { a: {}, b: {}, c: {}, d: {}, e: {} } } },
  };
  const gateway = (entry) => (port) => [entry, "gateway", "--port", String(port)];
  const result = await startupCases({
    // A bare node that listens on a port and idles, timed the same way.
    baseline: { argv: (port) => ["-e", `require("node:net").createServer().listen(${port}, "127.0.0.1")`], config: null },
    zero: { argv: gateway(CLI), config: base },
    before: { argv: gateway(BEFORE), config: base },
    five: { argv: gateway(CLI), config: five, alsoWait: { pattern: /account loopback:\w+ connected/, count: 5 } },
  });
  for (const [label, r, rssTarget] of [
    ["0 accounts", result.zero, TARGET.rssMb],
    ["5 accounts", result.five, TARGET.rssFiveMb],
  ]) {
    const ratio = r.startMs / result.baseline.startMs;
    check(
      `start (spawn -> port accepts), ${label}`,
      ratio < TARGET.startRatio,
      `${r.startMs.toFixed(0)} ms = ${ratio.toFixed(2)}x node (${result.baseline.startMs.toFixed(0)} ms) < ${TARGET.startRatio}x`,
    );
    // The figure is the idle RSS (the reference: 763 MB idle); the reading 0.5 s after
    // listening, before V8 returns the start-up garbage, is printed beside it.
    check(
      `RSS idle (12 s after listening), ${label}`,
      r.idleRssMb < rssTarget,
      `${r.idleRssMb.toFixed(1)} MB < ${rssTarget} MB (0.5 s after listening: ${r.rssMb.toFixed(1)} MB)`,
    );
  }
  return result;
}

// ---- 2. turns in process -------------------------------------------------------------------

async function measureTurns() {
  let core;
  let testkit;
  try {
    // The composition root wires the gateway to the channels runtime.
    const app = await import(new URL("packages/core/dist/app/index.js", root));
    core = { startGateway: app.startGatewayProcess };
    testkit = await import(new URL("packages/testkit/dist/loopback/index.js", root));
  } catch (err) {
    console.error("bench/gateway: build first (pnpm build):", err.message);
    process.exit(1);
  }

  const REPLY = "Sure, here is the answer you asked for, in one go.";
  const modelMs = new Map();
  /** Answers at once; records the time spent in it per turn id ("turn <id>" in the user message). */
  const zeroLatency = {
    id: "zero",
    api: "openai-completions",
    async *stream(req) {
      const t0 = performance.now();
      yield { type: "text_delta", text: REPLY };
      yield { type: "text_end" };
      yield { type: "usage", inputTokens: 10, outputTokens: 12 };
      yield { type: "done", stopReason: "stop" };
      const last = req.messages[req.messages.length - 1];
      const id = /^(?:raw )?turn (\S+)/.exec(typeof last?.content === "string" ? last.content : "")?.[1];
      if (id) modelMs.set(id, (modelMs.get(id) ?? 0) + (performance.now() - t0));
    },
  };

  const home = mkdtempSync(path.join(tmpdir(), "openclaw-bench-gw-turns-"));
  const stateDir = path.join(home, ".openclaw");
  mkdirSync(stateDir);
  const paths = { stateDir, configPath: path.join(stateDir, "openclaw.json") };
  const config = {
    agents: { defaults: { model: "zero/model", skipBootstrap: true } },
    session: { dmScope: "per-channel-peer" },
    channels: { loopback: { dmPolicy: "open", allowFrom: ["*"] } },
  };
  writeFileSync(paths.configPath, JSON.stringify(config));
  // The fake keeps only the last messages of each chat and no call log, so it does not grow.
  const platform = testkit.createLoopbackPlatform({ retainMessages: 4, recordCalls: false });
  const gateway = await core.startGateway({
    paths,
    port: 0,
    env: { HOME: home },
    plugins: [testkit.createLoopbackPlugin(platform)],
    createProvider: () => zeroLatency,
    log: { info() {}, warn: (m) => console.error(`[gateway] ${m}`), error: (m) => console.error(`[gateway] ${m}`) },
  });
  await platform.waitFor(() => platform.connectedBots().includes("default"), { what: "the loopback account" });

  // A reply is delivered when its chat shows the whole text (with an instant model the preview's
  // first send already holds it all, and finalize has nothing left to change).
  const visible = new Map();
  platform.subscribe((event) => {
    if (event.type !== "call" || !event.call.ok || event.call.text !== REPLY) return;
    const waiter = visible.get(event.call.chatId);
    visible.delete(event.call.chatId);
    waiter?.(performance.now());
  });
  // A session's next message waits for its run to end (runTurn resolved, plus one macrotask for the
  // queue to free the lane): a person answers a reply, not a run still writing its transcript.
  const runEnded = new Map();
  const runTurn = gateway.runtime.runTurn.bind(gateway.runtime);
  gateway.runtime.runTurn = async (request) => {
    try {
      return await runTurn(request);
    } finally {
      const waiter = runEnded.get(request.sessionKey);
      runEnded.delete(request.sessionKey);
      if (waiter) setImmediate(waiter);
    }
  };

  let counter = 0;
  /** One turn of user `chat`; resolves with the added latency once its run ended. */
  const turn = async (chat) => {
    const id = String(counter++);
    const shown = new Promise((resolve) => visible.set(chat, resolve));
    const ended = new Promise((resolve) => runEnded.set(`agent:main:loopback:direct:${chat}`, resolve));
    const sent = performance.now();
    await platform.userSays({ sender: chat, text: `turn ${id}`, bot: "default" });
    const at = await shown;
    await ended;
    const added = at - sent - (modelMs.get(id) ?? 0);
    modelMs.delete(id);
    return added;
  };

  /**
   * Runs `count` turns over the sessions `prefix-0..n`. With `rate`, session s sends at
   * s/rate and then every SESSIONS/rate seconds (later if its previous turn is not done).
   */
  const load = async (prefix, count, rate) => {
    const latencies = [];
    const interval = rate ? (SESSIONS / rate) * 1000 : 0;
    const t0 = performance.now();
    let issued = 0;
    await Promise.all(
      Array.from({ length: SESSIONS }, async (_, s) => {
        let due = rate ? t0 + (s / rate) * 1000 : 0;
        while (issued < count) {
          issued += 1;
          const wait = due - performance.now();
          if (wait > 1) await sleep(wait);
          latencies.push(await turn(`${prefix}-${s}`));
          due += interval;
        }
      }),
    );
    return { ms: performance.now() - t0, latencies };
  };
  const rss = () => {
    globalThis.gc();
    globalThis.gc();
    return process.memoryUsage().rss / 1024 / 1024;
  };

  await load("warm", 500); // JIT, SQLite pages, workspace, session rows

  // Sustained load at the target rate.
  const firstK = Math.min(1000, TURNS);
  const first = await load("user", firstK, RATE);
  const rss1k = rss();
  const rest = await load("user", TURNS - firstK, RATE);
  await gateway.queue.idle();
  const rss10k = rss();
  const latencies = [...first.latencies, ...rest.latencies];
  const sustainedTps = (TURNS / (first.ms + rest.ms)) * 1000;

  // Saturation, on fresh sessions, and the raw runtime on as many fresh sessions and turns.
  const saturated = await load("sat", SATURATION_TURNS);
  const saturationTps = (SATURATION_TURNS / saturated.ms) * 1000;
  let rawIssued = 0;
  const rawT0 = performance.now();
  await Promise.all(
    Array.from({ length: SESSIONS }, async (_, s) => {
      while (rawIssued < SATURATION_TURNS) {
        rawIssued += 1;
        // The same kind of session (a loopback DM) and origin as the channel's turns.
        await runTurn({
          sessionKey: `agent:main:loopback:direct:raw-${s}`,
          message: `raw turn r${rawIssued}`,
          origin: { channel: "loopback", chatType: "direct" },
        });
      }
    }),
  );
  const rawTps = (SATURATION_TURNS / (performance.now() - rawT0)) * 1000;
  await gateway.stop({ timeoutMs: 5000 });
  rmSync(home, { recursive: true, force: true });

  const result = {
    turns: TURNS,
    sessions: SESSIONS,
    offeredRate: RATE,
    sustainedTps,
    addedMs: { p50: quantile(latencies, 0.5), p90: quantile(latencies, 0.9), p99: quantile(latencies, 0.99), max: Math.max(...latencies) },
    saturationTps,
    saturationAddedMs: { p50: quantile(saturated.latencies, 0.5), p99: quantile(saturated.latencies, 0.99) },
    rawRunTurnTps: rawTps,
    rss1kMb: rss1k,
    rss10kMb: rss10k,
  };
  check("turns/s (saturation)", saturationTps >= TARGET.turnsPerSec, `${saturationTps.toFixed(0)} >= ${TARGET.turnsPerSec}`);
  check(`sustained ${RATE} turns/s`, sustainedTps >= RATE * 0.95, `${sustainedTps.toFixed(0)} turns/s delivered of ${RATE} offered`);
  check(
    `p99 added latency at ${RATE} turns/s`,
    result.addedMs.p99 < TARGET.p99Ms,
    `${result.addedMs.p99.toFixed(2)} ms < ${TARGET.p99Ms} ms`,
  );
  const growth = rss10k / rss1k - 1;
  check(`RSS after ${TURNS} vs 1k turns`, growth <= TARGET.rssGrowth, `${(growth * 100).toFixed(1)}% <= ${TARGET.rssGrowth * 100}%`);
  return result;
}

// ---- report --------------------------------------------------------------------------------

function report(results) {
  if (args.json) {
    console.log(JSON.stringify({ results, verdicts }, null, 2));
    return;
  }
  const p = results.process;
  if (p) {
    console.log(
      `gateway start, spawn -> port accepts a TCP connection (median of ${RUNS} interleaved starts after a first one${args["clean-env"] ? ", --clean-env" : ", inherited env"}):`,
    );
    const b = p.baseline;
    console.log(
      `  node baseline     ${b.startMs.toFixed(0).padStart(5)} ms   RSS ${b.rssMb.toFixed(1)} MB after 0.5 s, ${b.idleRssMb.toFixed(1)} MB idle`,
    );
    for (const [label, r] of [
      ["0 accounts", p.zero],
      [args.before ? "0, --before" : "unbundled (tsc)", p.before],
      ["5 loopback", p.five],
    ]) {
      console.log(
        `  ${label.padEnd(16)} ${r.startMs.toFixed(0).padStart(5)} ms (${(r.startMs / b.startMs).toFixed(1)}x node; all accounts up ${r.allUpMs.toFixed(0)} ms)   RSS ${r.rssMb.toFixed(1)} MB after 0.5 s, ${r.idleRssMb.toFixed(1)} MB idle (${(r.idleRssMb / b.idleRssMb).toFixed(1)}x node)`,
      );
    }
  }
  const t = results.turns;
  if (t) {
    const f = (n) => n.toFixed(2);
    console.log(`turns through the loopback channel (${t.sessions} sessions, partial preview, zero-latency model):`);
    console.log(
      `  sustained: ${t.turns} turns offered at ${t.offeredRate}/s, delivered ${t.sustainedTps.toFixed(0)}/s; added latency p50 ${f(t.addedMs.p50)} ms, p90 ${f(t.addedMs.p90)} ms, p99 ${f(t.addedMs.p99)} ms, max ${f(t.addedMs.max)} ms`,
    );
    console.log(
      `  saturation: ${t.saturationTps.toFixed(0)} turns/s (p50 ${f(t.saturationAddedMs.p50)} ms, p99 ${f(t.saturationAddedMs.p99)} ms: a queue of ${t.sessions} users); raw runtime.runTurn ${t.rawRunTurnTps.toFixed(0)} turns/s -> channel at ${((t.saturationTps / t.rawRunTurnTps) * 100).toFixed(0)}% of raw`,
    );
    console.log(
      `  RSS after 1k turns ${t.rss1kMb.toFixed(1)} MB, after ${t.turns} ${t.rss10kMb.toFixed(1)} MB (${((t.rss10kMb / t.rss1kMb - 1) * 100).toFixed(1)}%)`,
    );
  }
  for (const v of verdicts) console.log(`${v.ok ? "PASS" : "FAIL"}  ${v.name}: ${v.detail}`);
}
