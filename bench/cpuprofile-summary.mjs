// Sums a V8 .cpuprofile (node --cpu-prof) by function and by file: self time (samples whose top
// frame is it) and inclusive time (samples with it anywhere on the stack, counted once each).
// Usage: node bench/cpuprofile-summary.mjs <file.cpuprofile> [--top 40] [--by function|file]
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: "string", default: "40" }, by: { type: "string", default: "function" } },
});
if (positionals.length !== 1) {
  console.error("usage: node bench/cpuprofile-summary.mjs <file.cpuprofile> [--top 40] [--by function|file]");
  process.exit(2);
}
const profile = JSON.parse(readFileSync(positionals[0], "utf8"));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const short = (url) =>
  url
    .replace(/^file:\/\//, "")
    .replace(/^.*\/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?/, "~/")
    .replace(/^.*\/(packages|extensions)\//, "$1/");
const keyOf = (n) => {
  const { functionName, url, lineNumber } = n.callFrame;
  const file = url ? short(url) : `(${functionName || "native"})`;
  return args.by === "file" ? file : `${functionName || "(anonymous)"} ${file}${url ? `:${lineNumber + 1}` : ""}`;
};

// Time per sample: timeDeltas (µs) of the sample after it.
const deltas = profile.timeDeltas;
const self = new Map();
const incl = new Map();
let total = 0;
for (let i = 0; i < profile.samples.length; i++) {
  const dt = (deltas[i + 1] ?? 0) / 1000;
  total += dt;
  let id = profile.samples[i];
  const top = keyOf(byId.get(id));
  self.set(top, (self.get(top) ?? 0) + dt);
  const seen = new Set();
  while (id !== undefined) {
    const k = keyOf(byId.get(id));
    if (!seen.has(k)) {
      seen.add(k);
      incl.set(k, (incl.get(k) ?? 0) + dt);
    }
    id = parent.get(id);
  }
}
const idle = self.get(args.by === "file" ? "((idle))" : "(idle) ((idle))") ?? 0;
const busy = total - idle;
const pct = (ms) => `${((100 * ms) / busy).toFixed(1).padStart(5)} %`;
console.log(`total ${total.toFixed(0)} ms, idle ${idle.toFixed(0)} ms, busy ${busy.toFixed(0)} ms (percentages of busy)`);
const top = Number(args.top);
const print = (title, m) => {
  console.log(`\n${title}`);
  for (const [k, v] of [...m]
    .filter(([k]) => !k.includes("(idle)") && !k.startsWith("(root)"))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)) {
    console.log(`${v.toFixed(0).padStart(7)} ms ${pct(v)}  ${k}`);
  }
};
print("self", self);
print("inclusive", incl);
