// `pnpm bench`: runs every benchmark in this folder one after another (never part of `pnpm test`).
// Each prints its own ratios against a baseline measured in the same run. Pass names to run a
// subset: `pnpm bench chunker agent-turn`.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const all = readdirSync(here)
  .filter((f) => f.endsWith(".mjs") && f !== "run.mjs")
  .map((f) => f.replace(/\.mjs$/, ""))
  .sort();
const selected = wanted.length ? all.filter((n) => wanted.includes(n)) : all;
let failed = 0;
for (const name of selected) {
  console.log(`\n=== bench/${name}.mjs ===`);
  const r = spawnSync(process.execPath, [path.join(here, `${name}.mjs`)], { stdio: "inherit" });
  if (r.status !== 0) failed += 1;
}
if (failed) {
  console.error(`\n${failed} benchmark(s) failed or missed a target.`);
  process.exitCode = 1;
}
