// Prompt size over a long session: 1,000 turns through the agent runtime against the fake
// OpenAI server (127.0.0.1, zero latency), with a small context window so compaction runs
// many times. Measured on the wire: the JSON body of every conversation request (bytes, and
// tokens as the server reports them). Baseline (same run): the prompt the same turns would need
// without compaction (the sum of what they add). Target: the largest prompt stays under the
// context window. Usage: node bench/compaction.mjs [--turns 1000] [--window 8000] [--json]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";

const core = new URL("../packages/core/dist/", import.meta.url);
const { AgentRuntime } = await import(new URL("agent/index.js", core));
const { createConfigRegistry, validateConfig } = await import(new URL("config/index.js", core));
const { startFakeOpenAI, lastUserText } = await import(new URL("../packages/testkit/dist/index.js", import.meta.url));

const args = process.argv.slice(2);
const opt = (name, fallback) => Number(args[args.indexOf(name) + 1] ?? 0) || fallback;
const turns = args.includes("--turns") ? opt("--turns", 1000) : 1000;
const contextWindow = args.includes("--window") ? opt("--window", 8000) : 8000;
const asJson = args.includes("--json");

const isSummary = (r) => String(r.body.messages[0]?.content ?? "").startsWith("You maintain the running summary");
/** A model that obeys the summary length: it keeps the last 12 user lines as bullets. */
const fake = await startFakeOpenAI({
  responder: (r) => {
    const said = lastUserText(r);
    if (isSummary(r)) {
      const lines = [...said.matchAll(/^(?:- |User: )(.*)$/gm)].map((m) => `- ${m[1].slice(0, 120)}`);
      return [{ text: lines.slice(-12).join("\n") || "- nothing yet" }];
    }
    if (said.startsWith("[Memory flush")) return [{ text: "NO_REPLY" }];
    return [{ text: `Understood: ${said.slice(0, 40)}. ${"Here is a considered answer of moderate length. ".repeat(3)}` }];
  },
});

const stateDir = mkdtempSync(path.join(tmpdir(), "openclaw-bench-compaction-"));
const result = validateConfig(
  {
    agents: { defaults: { model: "local/fake-model", workspace: path.join(stateDir, "ws"), skipBootstrap: true } },
    tools: { allow: ["read", "write", "edit"] },
    models: {
      providers: {
        local: { api: "openai-completions", baseUrl: fake.baseUrl, apiKey: "k", models: [{ id: "fake-model", contextWindow }] },
      },
    },
  },
  createConfigRegistry(),
);
if (!result.ok) throw new Error(JSON.stringify(result.problems));
const runtime = new AgentRuntime({
  config: result.config,
  paths: { stateDir, configPath: path.join(stateDir, "openclaw.json") },
  env: { HOME: stateDir },
});

let compactions = 0;
let growth = 0;
const t0 = performance.now();
for (let i = 0; i < turns; i++) {
  const message = `Turn ${i}: ${"a fact, a question and some context ".repeat(2 + (i % 9))}`;
  const r = await runtime.runTurn({ message, onEvent: (e) => (e.type === "compaction" ? (compactions += 1) : undefined) });
  if (r.status !== "ok") throw new Error(`turn ${i} failed: ${JSON.stringify(r.error)}`);
  growth += Math.ceil((message.length + r.text.length) / 4);
}
const elapsedMs = performance.now() - t0;
await runtime.close();

const requests = fake.requests;
const conversation = requests.filter((r) => !isSummary(r));
const bytes = conversation.map((r) => Buffer.byteLength(JSON.stringify(r.body)));
// The fake reports input tokens as JSON characters / 4 of messages and tools.
const tokens = conversation.map((r) => Math.ceil((JSON.stringify(r.body.messages).length + JSON.stringify(r.body.tools ?? []).length) / 4));
const flushes = conversation.filter((r) => lastUserText(r).startsWith("[Memory flush")).length;
await fake.close();
rmSync(stateDir, { recursive: true, force: true });

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const tail = (xs) => xs.slice(-Math.max(1, Math.floor(xs.length / 10)));
const report = {
  turns,
  contextWindow,
  modelCalls: requests.length,
  summaryCalls: requests.length - conversation.length,
  compactions,
  memoryFlushes: flushes,
  promptTokens: {
    median: quantile(tokens, 0.5),
    p95: quantile(tokens, 0.95),
    max: Math.max(...tokens),
    lastTenthMedian: quantile(tail(tokens), 0.5),
  },
  promptBytes: { median: quantile(bytes, 0.5), p95: quantile(bytes, 0.95), max: Math.max(...bytes) },
  uncompactedTokensAtEnd: growth,
  msPerTurn: elapsedMs / turns,
};
report.pass = report.promptTokens.max <= contextWindow && compactions > 0;
if (asJson) console.log(JSON.stringify(report, null, 2));
else {
  console.log(`prompt size over ${turns} turns, context window ${contextWindow} tokens (fake OpenAI server, zero latency)`);
  console.log(`  baseline: history without compaction would reach about ${growth} tokens by the last turn`);
  console.log(
    `  prompt tokens  median ${report.promptTokens.median}, p95 ${report.promptTokens.p95}, max ${report.promptTokens.max} (last tenth of turns: median ${report.promptTokens.lastTenthMedian})`,
  );
  console.log(`  prompt bytes   median ${report.promptBytes.median}, p95 ${report.promptBytes.p95}, max ${report.promptBytes.max}`);
  console.log(
    `  compactions ${compactions}, memory flushes ${flushes}, summary calls ${report.summaryCalls}, ${report.modelCalls} model calls, ${report.msPerTurn.toFixed(1)} ms a turn`,
  );
  console.log(`  target max prompt <= context window: ${report.pass ? "PASS" : "FAIL"}`);
}
if (!report.pass) process.exitCode = 1;
