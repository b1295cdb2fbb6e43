#!/usr/bin/env node
// Writes docs/configuration-reference.md from the config schema of the BUILT core
// (packages/core/dist) and the built config entries of the channel packages in extensions/, so
// run `pnpm build` first after changing a schema.
//   node scripts/gen-config-reference.mjs          write the file (only when it changed)
//   node scripts/gen-config-reference.mjs --check  exit 1 when the file is stale; write nothing
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const entry = path.join(repoRoot, "packages/core/dist/config/reference/index.js");
const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== "--check");
if (unknown.length > 0 || args.includes("--help")) {
  process.stderr.write("usage: node scripts/gen-config-reference.mjs [--check]\n");
  process.exit(2);
}
const check = args.includes("--check");

let reference;
try {
  reference = await import(pathToFileURL(entry).href);
} catch (err) {
  if (err?.code === "ERR_MODULE_NOT_FOUND") {
    process.stderr.write(`Cannot load ${path.relative(repoRoot, entry)}: build the packages first with \`pnpm build\`.\n`);
    process.exit(2);
  }
  throw err;
}

/** The light config entries of the channel packages in extensions/ (built), in folder order. */
async function channelDefinitions() {
  const dir = path.join(repoRoot, "extensions");
  const defs = [];
  for (const name of readdirSync(dir).sort()) {
    const pkgFile = path.join(dir, name, "package.json");
    if (!existsSync(pkgFile)) continue;
    const manifest = JSON.parse(readFileSync(pkgFile, "utf8")).openclaw?.plugin;
    if (!manifest?.configEntry) continue;
    const mod = await import(pathToFileURL(path.join(dir, name, manifest.configEntry)).href);
    defs.push(mod.default);
  }
  return defs;
}

const target = path.join(repoRoot, reference.CONFIG_REFERENCE_FILE);
const text = reference.renderBuiltinConfigReference(await channelDefinitions());
let current;
try {
  current = await readFile(target, "utf8");
} catch (err) {
  if (err?.code !== "ENOENT") throw err;
}

if (check) {
  if (current !== text) {
    process.stderr.write(
      `${reference.CONFIG_REFERENCE_FILE} is ${current === undefined ? "missing" : "out of date with the config schema"}. ` +
        "Regenerate it with `pnpm build && pnpm docs:gen` and commit the result.\n",
    );
    process.exit(1);
  }
  process.stdout.write(`${reference.CONFIG_REFERENCE_FILE} is up to date.\n`);
} else if (current === text) {
  process.stdout.write(`${reference.CONFIG_REFERENCE_FILE} is already up to date.\n`);
} else {
  await writeFile(target, text, "utf8");
  process.stdout.write(`Wrote ${reference.CONFIG_REFERENCE_FILE} (${text.split("\n").length - 1} lines).\n`);
}
