// kill -9 soak: the inbox's end-to-end test (packages/core/test/inbox/kill9.e2e.test.ts) run
// with many seeded scenarios in a row. Each scenario spawns the real gateway with the Telegram
// plugin against the fake Bot API and a slow fake model, SIGKILLs it at a random point of the
// turns, restarts it, and checks that every message was answered exactly once and recorded once.
// `pnpm test` runs 3 scenarios; the bar is 20 in a row.
// Usage: node bench/kill9-soak.mjs [--runs 20] [--seed <first seed>]
// Needs the built packages (`pnpm build`). Target: every run passes (prints the failing seed).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({
  options: { runs: { type: "string", default: "20" }, seed: { type: "string", default: String(Date.now() % 100_000) } },
});
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const started = performance.now();
const result = spawnSync(
  process.execPath,
  [path.join(root, "node_modules", "vitest", "vitest.mjs"), "run", "packages/core/test/inbox/kill9.e2e.test.ts"],
  {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, OPENCLAW_KILL9_RUNS: args.runs, OPENCLAW_KILL9_SEED: args.seed },
  },
);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
const last = Number(args.seed) + Number(args.runs) - 1;
if (result.status === 0) {
  console.log(`kill9 soak: ${args.runs} runs in a row passed (seeds ${args.seed}-${last}) in ${seconds} s`);
} else {
  console.error(`kill9 soak: FAILED (seeds ${args.seed}-${last}; the report above names the failing seed) after ${seconds} s`);
  process.exitCode = 1;
}
