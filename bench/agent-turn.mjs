// Per-turn overhead of the agent runtime against a zero-latency in-process model.
// Baseline (same run): draining the same provider stream directly, with no runtime around it.
// Overhead per turn = runTurn wall time - time spent inside the model stream.
// Target: median overhead < 2 ms. Usage: node bench/agent-turn.mjs [--turns 400] [--json]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";

const core = new URL("../packages/core/dist/", import.meta.url);
const { AgentRuntime } = await import(new URL("agent/index.js", core));
const { createConfigRegistry, validateConfig } = await import(new URL("config/index.js", core));

const args = process.argv.slice(2);
const turns = Number(args[args.indexOf("--turns") + 1] ?? 0) || 400;
const asJson = args.includes("--json");

let modelMs = 0;
/** A provider that answers instantly with a short streamed reply. */
const zeroLatency = {
  id: "zero",
  api: "openai-completions",
  async *stream() {
    const t0 = performance.now();
    for (const piece of ["Sure, ", "here is ", "the answer."]) yield { type: "text_delta", text: piece };
    yield { type: "text_end" };
    yield { type: "usage", inputTokens: 10, outputTokens: 5 };
    yield { type: "done", stopReason: "stop" };
    modelMs += performance.now() - t0;
  },
};

const stateDir = mkdtempSync(path.join(tmpdir(), "openclaw-bench-turn-"));
const result = validateConfig(
  { agents: { defaults: { model: "zero/model", workspace: path.join(stateDir, "ws") } } },
  createConfigRegistry(),
);
if (!result.ok) throw new Error(JSON.stringify(result.problems));
const runtime = new AgentRuntime({
  config: result.config,
  paths: { stateDir, configPath: path.join(stateDir, "openclaw.json") },
  env: { HOME: stateDir },
  createProvider: () => zeroLatency,
});

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

// Baseline: drain the provider stream directly.
const baseline = [];
for (let i = 0; i < turns; i++) {
  const t0 = performance.now();
  for await (const _ of zeroLatency.stream()) void _;
  baseline.push(performance.now() - t0);
}

// Warm up (workspace creation, first SQLite open, JIT).
for (let i = 0; i < 20; i++) await runtime.runTurn({ message: `warm ${i}`, sessionKey: `agent:main:direct:warm${i % 5}` });

const overhead = [];
const total = [];
for (let i = 0; i < turns; i++) {
  modelMs = 0;
  const t0 = performance.now();
  const r = await runtime.runTurn({ message: `question ${i}`, sessionKey: `agent:main:direct:user${i % 50}` });
  const dt = performance.now() - t0;
  if (r.status !== "ok") throw new Error(`turn failed: ${JSON.stringify(r.error)}`);
  total.push(dt);
  overhead.push(dt - modelMs);
}
await runtime.close();
rmSync(stateDir, { recursive: true, force: true });

const report = {
  turns,
  baselineMedianMs: quantile(baseline, 0.5),
  turnMedianMs: quantile(total, 0.5),
  overheadMedianMs: quantile(overhead, 0.5),
  overheadP90Ms: quantile(overhead, 0.9),
  overheadP99Ms: quantile(overhead, 0.99),
};
report.ratioToBaseline = report.turnMedianMs / Math.max(report.baselineMedianMs, 1e-6);
report.pass = report.overheadMedianMs < 2;
if (asJson) console.log(JSON.stringify(report, null, 2));
else {
  console.log(`agent turn overhead over ${turns} turns (50 sessions, zero-latency in-process model)`);
  console.log(`  baseline: drain the model stream directly  median ${report.baselineMedianMs.toFixed(3)} ms`);
  console.log(
    `  full runTurn                               median ${report.turnMedianMs.toFixed(3)} ms (${report.ratioToBaseline.toFixed(0)}x baseline)`,
  );
  console.log(
    `  overhead (runTurn - model time)            median ${report.overheadMedianMs.toFixed(3)} ms, p90 ${report.overheadP90Ms.toFixed(3)} ms, p99 ${report.overheadP99Ms.toFixed(3)} ms`,
  );
  console.log(`  target median < 2 ms: ${report.pass ? "PASS" : "FAIL"}`);
}
