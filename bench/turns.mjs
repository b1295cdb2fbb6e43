// Turn-path benchmark: turns through the loopback channel (@openclaw/testkit) into the gateway,
// with a fake in-process model that answers at once. Every figure is printed beside a baseline
// measured in the same run: the fake model called directly (its stream drained with nothing
// around it), and raw `runtime.runTurn` (the agent runtime without the channel pipeline).
//   1. per-turn overhead: one turn in flight at a time; user message -> whole reply visible in
//      the chat, minus the time spent inside the model. Target: median < 1 ms.
//   2. open-loop load: messages arrive at 300 turns/s (Poisson arrivals, a fixed seed, each sent
//      at its time whether or not earlier turns are done, by a user with no turn in flight);
//      added latency = user message -> whole reply visible, minus time in the model.
//      Target: p99 < 10 ms, and every offered turn answered.
//   3. saturation: 50 users each send their next message as soon as their previous run ended.
//      Target: >= 1000 turns/s.
// Exits non-zero when a target is missed. Needs the built packages (`pnpm build`).
// Usage: node bench/turns.mjs [--turns 3000] [--rate 300] [--sessions 50] [--json]
//        (profile: node --cpu-prof --cpu-prof-dir=/tmp/prof bench/turns.mjs)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({
  options: {
    turns: { type: "string", default: "3000" },
    rate: { type: "string", default: "300" },
    sessions: { type: "string", default: "50" },
    json: { type: "boolean", default: false },
  },
});
const TURNS = Number(args.turns);
const RATE = Number(args.rate);
const SESSIONS = Number(args.sessions);
const SEQUENTIAL_TURNS = Math.min(1000, TURNS);
const TURN_TIMEOUT_MS = 30_000;
const TARGET = { overheadMedianMs: 1, p99Ms: 10, turnsPerSec: 1000 };

const root = new URL("../", import.meta.url);
let app;
let testkit;
try {
  app = await import(new URL("packages/core/dist/app/index.js", root));
  testkit = await import(new URL("packages/testkit/dist/loopback/index.js", root));
} catch (err) {
  console.error("bench/turns: build first (pnpm build):", err.message);
  process.exit(1);
}

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const median = (xs) => quantile(xs, 0.5);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---- the fake model ------------------------------------------------------------------------

const replyFor = (id) => `Sure, here is the answer to ${id}, in one go.`;
const idOf = (text) => /^(?:raw )?turn (\S+)/.exec(text)?.[1];
const modelMs = new Map();
/** Answers at once; records the time spent in it per turn id ("turn <id>" in the user message). */
const zeroLatency = {
  id: "zero",
  api: "openai-completions",
  async *stream(req) {
    const t0 = performance.now();
    const last = req.messages[req.messages.length - 1];
    const id = idOf(typeof last?.content === "string" ? last.content : "") ?? "?";
    yield { type: "text_delta", text: replyFor(id) };
    yield { type: "text_end" };
    yield { type: "usage", inputTokens: 10, outputTokens: 12 };
    yield { type: "done", stopReason: "stop" };
    modelMs.set(id, (modelMs.get(id) ?? 0) + (performance.now() - t0));
  },
};

// ---- the gateway ---------------------------------------------------------------------------

const home = mkdtempSync(path.join(tmpdir(), "openclaw-bench-turns-"));
const stateDir = path.join(home, ".openclaw");
mkdirSync(stateDir);
const paths = { stateDir, configPath: path.join(stateDir, "openclaw.json") };
writeFileSync(
  paths.configPath,
  JSON.stringify({
    agents: { defaults: { model: "zero/model", skipBootstrap: true } },
    session: { dmScope: "per-channel-peer" },
    channels: { loopback: { dmPolicy: "open", allowFrom: ["*"] } },
  }),
);
const platform = testkit.createLoopbackPlatform({ retainMessages: 4, recordCalls: false });
const gateway = await app.startGatewayProcess({
  paths,
  port: 0,
  env: { HOME: home },
  plugins: [testkit.createLoopbackPlugin(platform)],
  createProvider: () => zeroLatency,
  log: { info() {}, warn: (m) => console.error(`[gateway] ${m}`), error: (m) => console.error(`[gateway] ${m}`) },
});
await platform.waitFor(() => platform.connectedBots().includes("default"), { what: "the loopback account" });

// A reply is visible when its chat shows the whole text for its turn id.
const visible = new Map();
platform.subscribe((event) => {
  if (event.type !== "call" || !event.call.ok || typeof event.call.text !== "string") return;
  const id = /answer to (\S+), in one go\.$/.exec(event.call.text)?.[1];
  const waiter = id === undefined ? undefined : visible.get(id);
  if (!waiter) return;
  visible.delete(id);
  waiter(performance.now());
});
// A closed-loop user's next message waits for its run to end (runTurn resolved, plus one
// macrotask for the queue to free the lane).
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
/** Sends one message of user `chat`; resolves with its added latency once its reply is visible (and, with `waitRun`, its run ended). */
const turn = async (chat, waitRun = true) => {
  const id = `t${counter++}`;
  const shown = new Promise((resolve) => visible.set(id, resolve));
  const ended = waitRun ? new Promise((resolve) => runEnded.set(`agent:main:loopback:direct:${chat}`, resolve)) : undefined;
  const sent = performance.now();
  await platform.userSays({ sender: chat, text: `turn ${id}`, bot: "default" });
  const at = await Promise.race([shown, sleep(TURN_TIMEOUT_MS).then(() => Number.NaN)]);
  if (Number.isNaN(at)) throw new Error(`bench/turns: no reply to "turn ${id}" of ${chat} within ${TURN_TIMEOUT_MS / 1000} s`);
  if (ended) await ended;
  const added = at - sent - (modelMs.get(id) ?? 0);
  modelMs.delete(id);
  return added;
};

/** Closed loop: `sessions` users, each sending as soon as its previous run ended, `count` turns in all. */
const closedLoop = async (prefix, count, sessions) => {
  const latencies = [];
  let issued = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: sessions }, async (_, s) => {
      while (issued < count) {
        issued += 1;
        latencies.push(await turn(`${prefix}-${s}`));
      }
    }),
  );
  return { ms: performance.now() - t0, latencies };
};

/**
 * Open loop: `count` arrivals at `rate`/s (Poisson, seeded), each sent at its time whatever is
 * still running. Each arrival comes from the first of the users `prefix-0..` with no turn in
 * flight (a second message of a busy user would join its run as steering, not get its own reply).
 */
const openLoop = async (prefix, count, rate) => {
  let users = 0;
  let seed = 0x2545f491;
  const random = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 2 ** 32;
  };
  const pending = [];
  const idle = [];
  const t0 = performance.now();
  let due = t0;
  for (let i = 0; i < count; i++) {
    due += (-Math.log(1 - random()) / rate) * 1000;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    else if (wait > 0) await new Promise((r) => setImmediate(r));
    const user = idle.length > 0 ? idle.pop() : users++;
    pending.push(
      turn(`${prefix}-${user}`, true).finally(() => {
        idle.push(user);
      }),
    );
  }
  const latencies = await Promise.all(pending);
  return { ms: performance.now() - t0, latencies };
};

// Baseline: the fake model called directly.
const baseline = [];
for (let i = 0; i < 2000; i++) {
  const t0 = performance.now();
  for await (const _ of zeroLatency.stream({ messages: [{ role: "user", content: "turn b" }] })) void _;
  baseline.push(performance.now() - t0);
}
modelMs.clear();

await closedLoop("warm", 1000, SESSIONS); // JIT, SQLite pages, session rows

// 1. One turn at a time.
const sequential = [];
const cpu0 = process.cpuUsage();
for (let i = 0; i < SEQUENTIAL_TURNS; i++) sequential.push(await turn(`seq-${i % SESSIONS}`));
const cpu = process.cpuUsage(cpu0);
// CPU time (all threads, user + system) per turn: what a turn costs whatever else the machine runs.
const cpuPerTurnMs = (cpu.user + cpu.system) / 1000 / SEQUENTIAL_TURNS;

// 2. Open loop at the target rate (users seen before: their sessions exist).
for (let u = 0; u < 300; u++) await turn(`open-${u}`);
const open = await openLoop("open", TURNS, RATE);
await gateway.queue.idle();
const openTps = (TURNS / open.ms) * 1000;

// 3. Saturation, beside raw runtime.runTurn on as many sessions and turns.
const saturated = await closedLoop("sat", TURNS, SESSIONS);
const saturationTps = (TURNS / saturated.ms) * 1000;
let rawIssued = 0;
const rawT0 = performance.now();
await Promise.all(
  Array.from({ length: SESSIONS }, async (_, s) => {
    while (rawIssued < TURNS) {
      rawIssued += 1;
      await runTurn({
        sessionKey: `agent:main:loopback:direct:raw-${s}`,
        message: `raw turn r${rawIssued}`,
        origin: { channel: "loopback", chatType: "direct" },
      });
    }
  }),
);
const rawTps = (TURNS / (performance.now() - rawT0)) * 1000;
await gateway.stop({ timeoutMs: 5000 });
rmSync(home, { recursive: true, force: true });

// ---- report --------------------------------------------------------------------------------

const result = {
  baselineModelMs: { p50: median(baseline), p99: quantile(baseline, 0.99) },
  cpuPerTurnMs,
  overheadMs: { p50: median(sequential), p90: quantile(sequential, 0.9), p99: quantile(sequential, 0.99) },
  open: {
    offered: RATE,
    turns: TURNS,
    deliveredTps: openTps,
    addedMs: {
      p50: median(open.latencies),
      p90: quantile(open.latencies, 0.9),
      p99: quantile(open.latencies, 0.99),
      max: Math.max(...open.latencies),
    },
  },
  saturationTps,
  saturationAddedMs: { p50: median(saturated.latencies), p99: quantile(saturated.latencies, 0.99) },
  rawRunTurnTps: rawTps,
};
const verdicts = [
  [
    "per-turn overhead median",
    result.overheadMs.p50 < TARGET.overheadMedianMs,
    `${result.overheadMs.p50.toFixed(3)} ms < ${TARGET.overheadMedianMs} ms`,
  ],
  [
    `p99 added latency at ${RATE} turns/s (open loop)`,
    result.open.addedMs.p99 < TARGET.p99Ms,
    `${result.open.addedMs.p99.toFixed(2)} ms < ${TARGET.p99Ms} ms`,
  ],
  [`open loop keeps up with ${RATE} turns/s`, openTps >= RATE * 0.9, `${openTps.toFixed(0)} turns/s delivered (Poisson arrivals: +-10%)`],
  ["turns/s (saturation)", saturationTps >= TARGET.turnsPerSec, `${saturationTps.toFixed(0)} >= ${TARGET.turnsPerSec}`],
];
if (args.json) console.log(JSON.stringify({ result, verdicts }, null, 2));
else {
  const f = (n) => n.toFixed(3);
  console.log(`turns through the loopback channel (zero-latency in-process model, partial preview streaming):`);
  console.log(
    `  baseline: the fake model called directly      median ${f(result.baselineModelMs.p50)} ms, p99 ${f(result.baselineModelMs.p99)} ms`,
  );
  console.log(
    `  one turn at a time (${SEQUENTIAL_TURNS}): overhead          median ${f(result.overheadMs.p50)} ms, p90 ${f(result.overheadMs.p90)} ms, p99 ${f(result.overheadMs.p99)} ms (${(result.overheadMs.p50 / Math.max(result.baselineModelMs.p50, 1e-6)).toFixed(0)}x the model call)`,
  );
  console.log(`  CPU time per turn (process, user + system), one at a time: ${f(cpuPerTurnMs)} ms`);
  const o = result.open;
  console.log(
    `  open loop, ${o.turns} turns at ${o.offered}/s: delivered ${o.deliveredTps.toFixed(0)}/s; added p50 ${f(o.addedMs.p50)} ms, p90 ${f(o.addedMs.p90)} ms, p99 ${f(o.addedMs.p99)} ms, max ${f(o.addedMs.max)} ms`,
  );
  console.log(
    `  saturation, ${SESSIONS} users: ${saturationTps.toFixed(0)} turns/s (p50 ${f(result.saturationAddedMs.p50)} ms, p99 ${f(result.saturationAddedMs.p99)} ms); raw runtime.runTurn ${rawTps.toFixed(0)} turns/s -> channel at ${((saturationTps / rawTps) * 100).toFixed(0)}% of raw`,
  );
  for (const [name, ok, detail] of verdicts) console.log(`${ok ? "PASS" : "FAIL"}  ${name}: ${detail}`);
}
if (verdicts.some(([, ok]) => !ok)) process.exitCode = 1;
