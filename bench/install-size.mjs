// Install size of @openclaw/core alone and with each channel in extensions/: the production dependency
// closure as an npm install would lay it out (workspace packages count only their published
// `files`; registry packages count their whole folder, nested node_modules excluded). Reads the
// pnpm-installed tree; no network. Run: `node bench/install-size.mjs`.
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

function dirSize(dir, skipNodeModules = true) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (skipNodeModules && entry.name === "node_modules") continue;
    const path = join(dir, entry.name);
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) continue;
    total += stat.isDirectory() ? dirSize(path, skipNodeModules) : stat.size;
  }
  return total;
}

function publishedSize(dir, pkg) {
  let total = statSync(join(dir, "package.json")).size;
  for (const entry of pkg.files ?? []) {
    const path = join(dir, entry);
    if (!existsSync(path)) continue;
    total += statSync(path).isDirectory() ? dirSize(path) : statSync(path).size;
  }
  return total;
}

/** Finds `name` as Node would from `dir` (pnpm symlinks resolved). */
function locate(name, fromDir) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return realpathSync(candidate);
    if (dirname(dir) === dir) return undefined;
  }
}

function closure(startDir) {
  const seen = new Map();
  const queue = [realpathSync(startDir)];
  while (queue.length > 0) {
    const dir = queue.pop();
    if (seen.has(dir)) continue;
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    const workspace = !dir.includes(`${join("node_modules", ".pnpm")}`);
    seen.set(dir, { name: pkg.name, bytes: workspace ? publishedSize(dir, pkg) : dirSize(dir) });
    const deps = { ...pkg.dependencies, ...pkg.optionalDependencies, ...(workspace ? pkg.peerDependencies : {}) };
    for (const name of Object.keys(deps)) {
      const found = locate(name, dir);
      if (found) queue.push(found);
    }
  }
  return seen;
}

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const sum = (map) => [...map.values()].reduce((n, p) => n + p.bytes, 0);

const core = closure(join(root, "packages/core"));
console.log(`@openclaw/core: ${core.size} packages, ${mb(sum(core))}`);
const channels = readdirSync(join(root, "extensions"), { withFileTypes: true })
  .filter((e) => e.isDirectory() && existsSync(join(root, "extensions", e.name, "package.json")))
  .map((e) => e.name)
  .sort();
for (const channel of channels) {
  const plugin = closure(join(root, "extensions", channel));
  const both = new Map([...core, ...plugin]);
  const added = [...plugin].filter(([dir]) => !core.has(dir));
  const name = JSON.parse(readFileSync(join(root, "extensions", channel, "package.json"), "utf8")).name;
  console.log(`@openclaw/core + ${name}: ${both.size} packages, ${mb(sum(both))}`);
  console.log(
    `  the channel adds ${added.length} packages, ${mb(added.reduce((n, [, p]) => n + p.bytes, 0))} (ratio to core ${(sum(both) / sum(core)).toFixed(3)}):`,
  );
  for (const [, p] of added.sort((a, b) => b[1].bytes - a[1].bytes)) console.log(`    ${p.name} ${(p.bytes / 1024).toFixed(0)} KB`);
}
