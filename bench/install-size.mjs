// Install size: what npm leaves on disk when a user installs @openclaw/core alone, and core with
// each channel in extensions/ (plus, for information, core with the optional provider/browser
// packages). Every workspace package is packed with `pnpm pack` (so only its published `files`
// count, `workspace:` ranges rewritten), then each combination is installed with npm into an
// empty folder from those tarballs; registry packages come from the npm registry (or npm's cache).
// The `@openclaw` scope is pinned to the tarballs (overrides) and its registry set to a dead
// address, so nothing of that scope is ever fetched from the public registry, whose `@openclaw`
// packages belong to another project. Install scripts are skipped (`--ignore-scripts`), so native
// add-ons count as shipped, without a compiled binary (better-sqlite3 adds ~2 MB once built).
// Sizes are the apparent sizes of the files under node_modules (MB = 2^20 bytes).
// Target: core + any one channel < 50 MB. Needs a build (`pnpm build`). Run: `node bench/install-size.mjs`
// (`--keep` keeps the temp folder; `--only telegram,qqbot` limits the channels; `--extras` also
// measures core + @openclaw/provider-anthropic and core + playwright-core, the optional pieces;
// `--before` adds to every combination the three packages core depended on before issue 19,
// openai, @anthropic-ai/sdk and playwright-core, to measure the "before" figures again).
import { execFileSync, spawn } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const TARGET_MB = 50;
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const keep = args.includes("--keep");
const BEFORE_ISSUE_19 = args.includes("--before") ? ["openai@6.30.1", "@anthropic-ai/sdk@1.14.0", "playwright-core@1.65.1"] : [];
const only = args.includes("--only") ? args[args.indexOf("--only") + 1].split(",") : undefined;

function workspacePackages() {
  const out = [];
  for (const group of ["packages", "extensions"]) {
    for (const entry of readdirSync(join(root, group), { withFileTypes: true })) {
      const dir = join(root, group, entry.name);
      if (!entry.isDirectory() || !existsSync(join(dir, "package.json"))) continue;
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      // control-ui is private because its assets ship inside core; private channels (feishu,
      // matrix) are installed from their folder (`openclaw plugins install <id>`), so they count.
      if (pkg.private && group === "packages") continue;
      out.push({ group, folder: entry.name, dir, name: pkg.name, pkg });
    }
  }
  return out;
}

/** Apparent size of every file below `dir` (symlinks count as themselves). */
function treeBytes(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const stat = lstatSync(path);
    total += stat.isDirectory() ? treeBytes(path) : stat.size;
  }
  return total;
}

/** Each installed package folder (hoisted or nested) with its own size, nested node_modules excluded. */
function installedPackages(nodeModules, out = []) {
  if (!existsSync(nodeModules)) return out;
  for (const entry of readdirSync(nodeModules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === ".bin" || entry.name.startsWith(".")) continue;
    const dirs = entry.name.startsWith("@")
      ? readdirSync(join(nodeModules, entry.name), { withFileTypes: true })
          .filter((e) => e.isDirectory())
          .map((e) => join(entry.name, e.name))
      : [entry.name];
    for (const name of dirs) {
      const dir = join(nodeModules, name);
      let bytes = 0;
      for (const child of readdirSync(dir, { withFileTypes: true })) {
        if (child.name === "node_modules") continue;
        const path = join(dir, child.name);
        bytes += lstatSync(path).isDirectory() ? treeBytes(path) : lstatSync(path).size;
      }
      out.push({ name, bytes });
      installedPackages(join(dir, "node_modules"), out);
    }
  }
  return out;
}

const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);

const work = mkdtempSync(join(tmpdir(), "openclaw-install-size-"));
const tarballs = join(work, "tarballs");
mkdirSync(tarballs);
const packages = workspacePackages();
const tarballOf = new Map();
for (const p of packages) {
  if (!existsSync(join(p.dir, "dist"))) {
    console.error(`${p.name} has no dist/: run \`pnpm build\` first.`);
    process.exit(2);
  }
  const out = execFileSync("pnpm", ["pack", "--pack-destination", tarballs], { cwd: p.dir, encoding: "utf8" });
  const file = out
    .trim()
    .split("\n")
    .map((l) => l.trim())
    .findLast((l) => l.endsWith(".tgz"));
  tarballOf.set(p.name, file.startsWith("/") ? file : join(tarballs, file));
}
/**
 * The workspace's own overrides (pnpm-workspace.yaml `overrides:`), which npm needs as well: e.g.
 * baileys declares git dependencies that cannot be fetched from here (no access to GitHub).
 */
function workspaceOverrides() {
  const text = readFileSync(join(root, "pnpm-workspace.yaml"), "utf8");
  const block = text.split(/^overrides:\s*$/m)[1]?.split(/^\S/m)[0] ?? "";
  const out = {};
  for (const line of block.split("\n")) {
    const m = /^\s+("?)([^"#:]+(?::[^"#:\s]+)?)\1:\s*(\S+)/.exec(line);
    if (m) out[m[2]] = m[3];
  }
  return out;
}
const overrides = {
  ...workspaceOverrides(),
  ...Object.fromEntries([...tarballOf].map(([name, file]) => [name, `file:${file}`])),
};

/** npm-installs `names` (tarballs) and `registryPackages` into a fresh folder; resolves to its size. */
async function install(label, names, registryPackages = BEFORE_ISSUE_19) {
  const dir = join(work, label.replace(/[^a-z0-9]+/gi, "-"));
  mkdirSync(dir);
  const dependencies = Object.fromEntries(names.map((n) => [n, `file:${tarballOf.get(n)}`]));
  for (const spec of registryPackages) {
    const at = spec.lastIndexOf("@");
    dependencies[spec.slice(0, at)] = spec.slice(at + 1);
  }
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "install-size-probe", private: true, dependencies, overrides }, null, 2));
  const started = performance.now();
  const r = await new Promise((resolve) => {
    const child = spawn(
      "npm",
      ["install", "--ignore-scripts", "--no-audit", "--no-fund", "--prefer-offline", "--@openclaw:registry=http://127.0.0.1:9/"],
      { cwd: dir },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
  if (r.status !== 0) {
    console.error(`npm install for ${label} failed:\n${r.stdout}\n${r.stderr}`);
    process.exit(2);
  }
  const list = installedPackages(join(dir, "node_modules"));
  const bytes = treeBytes(join(dir, "node_modules"));
  return { label, bytes, list, seconds: (performance.now() - started) / 1000 };
}

const combos = [["core", ["@openclaw/core"]]];
for (const p of packages.filter((p) => p.group === "extensions").sort((x, y) => x.folder.localeCompare(y.folder))) {
  combos.push([`core + ${p.folder}`, ["@openclaw/core", p.name]]);
}
// The optional pieces, with --extras: what a user of Anthropic or of the browser tool adds.
const extras = [
  ["core + provider-anthropic", ["@openclaw/core", "@openclaw/provider-anthropic"], []],
  ["core + playwright-core", ["@openclaw/core"], ["playwright-core@1.65.1"]],
];

const selected = (label) => label === "core" || !only || only.some((o) => label.endsWith(` ${o}`));
const jobs = [
  ...combos.filter(([label]) => selected(label)).map(([label, names]) => ({ label, names })),
  ...(args.includes("--extras") ? extras : []).map(([label, names, registryPackages]) => ({ label, names, registryPackages, extra: true })),
];
// Three npm installs at a time (they wait on the network and the disk more than on the CPU).
const results = new Map();
const queue = [...jobs];
await Promise.all(
  Array.from({ length: 3 }, async () => {
    for (let job = queue.shift(); job; job = queue.shift())
      results.set(job.label, await install(job.label, job.names, job.registryPackages));
  }),
);

let missed = 0;
const core = results.get("core");
const coreNames = new Set(core.list.map((p) => p.name));
for (const job of jobs) {
  const r = results.get(job.label);
  if (job.extra) {
    console.log(`${job.label} (optional): ${mb(r.bytes)} MB, adds ${mb(r.bytes - core.bytes)} MB  [npm ${r.seconds.toFixed(1)} s]`);
    continue;
  }
  const isChannel = job.label !== "core";
  const ok = !isChannel || r.bytes < TARGET_MB * 1024 * 1024;
  if (!ok) missed += 1;
  const added = isChannel ? `, the channel adds ${mb(r.bytes - core.bytes)} MB` : "";
  const target = isChannel ? ` (target < ${TARGET_MB} MB: ${ok ? "ok" : "MISSED"})` : "";
  console.log(`${job.label}: ${r.list.length} packages, ${mb(r.bytes)} MB${added}${target}  [npm ${r.seconds.toFixed(1)} s]`);
  const shown = (isChannel ? r.list.filter((p) => !coreNames.has(p.name)) : r.list).sort((a, b) => b.bytes - a.bytes).slice(0, 8);
  console.log(`    largest${isChannel ? " added" : ""}: ${shown.map((p) => `${p.name} ${mb(p.bytes)}`).join(", ")}`);
}
if (!keep) rmSync(work, { recursive: true, force: true });
else console.log(`kept ${work}`);
if (missed) {
  console.error(`${missed} combination(s) of core + one channel missed the ${TARGET_MB} MB target.`);
  process.exitCode = 1;
}
