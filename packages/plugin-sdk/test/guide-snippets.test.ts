// The plugin guide (docs/writing-a-channel-plugin.md) is followed literally by outside authors:
// its package.json, tsconfig.json, src/config.ts, src/index.ts and scripts/gen-manifest.mjs,
// written into the layout it shows, must build with `npm run build`'s two steps (tsc, then the
// manifest generator) against this SDK and zod.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";

const SDK = fileURLToPath(new URL("..", import.meta.url));
const REPO = path.resolve(SDK, "..", "..");
const GUIDE = readFileSync(path.join(REPO, "docs", "writing-a-channel-plugin.md"), "utf8");
const work = mkdtempSync(path.join(tmpdir(), "openclaw-guide-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Fenced blocks of the guide with the line just above each one. */
function blocks(): { lang: string; body: string; before: string }[] {
  const out: { lang: string; body: string; before: string }[] = [];
  const re = /(?:^|\n)([^\n]*)\n+```(\w*)\n([\s\S]*?)\n```/g;
  for (let m = re.exec(GUIDE); m; m = re.exec(GUIDE)) out.push({ before: m[1]!, lang: m[2]!, body: m[3]! });
  return out;
}

function block(what: string, test: (b: { lang: string; body: string; before: string }) => boolean): string {
  const found = blocks().filter(test);
  expect(found, `exactly one ${what} block in the guide`).toHaveLength(1);
  return found[0]!.body;
}

const packageDir = (name: string, from: string) => realpathSync(path.dirname(createRequire(from).resolve(`${name}/package.json`)));

it("the guide's files build in the layout it shows: tsc, then scripts/gen-manifest.mjs writes openclaw.plugin.json", () => {
  const files: Record<string, string> = {
    "package.json": block("package.json", (b) => b.lang === "json" && b.before.trim() === "`package.json`:"),
    "tsconfig.json": block("tsconfig.json", (b) => b.lang === "json" && b.before.includes("`tsconfig.json`")),
    "src/config.ts": block("src/config.ts", (b) => b.body.startsWith("// src/config.ts")),
    "src/index.ts": block("src/index.ts", (b) => b.body.startsWith("// src/index.ts")),
    "scripts/gen-manifest.mjs": block("scripts/gen-manifest.mjs", (b) => b.body.startsWith("// scripts/gen-manifest.mjs")),
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
    writeFileSync(path.join(work, file), `${text}\n`);
  }
  // What `npm install` of the guide's devDependencies provides: this SDK, its zod, Node's types.
  const modules = path.join(work, "node_modules");
  mkdirSync(path.join(modules, "@openclaw"), { recursive: true });
  mkdirSync(path.join(modules, "@types"), { recursive: true });
  symlinkSync(SDK, path.join(modules, "@openclaw", "plugin-sdk"), "dir");
  symlinkSync(packageDir("zod", path.join(SDK, "package.json")), path.join(modules, "zod"), "dir");
  symlinkSync(packageDir("@types/node", path.join(REPO, "package.json")), path.join(modules, "@types", "node"), "dir");

  const pkg = JSON.parse(files["package.json"]!);
  expect(pkg.scripts.build).toBe("tsc -p tsconfig.json && node scripts/gen-manifest.mjs");
  expect(Object.keys(pkg.peerDependencies).sort()).toEqual(["@openclaw/plugin-sdk", "zod"]);
  expect(pkg.dependencies?.zod ?? pkg.dependencies?.["@openclaw/plugin-sdk"]).toBeUndefined();

  const tsc = path.join(packageDir("typescript", path.join(REPO, "package.json")), "bin", "tsc");
  try {
    execFileSync(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: work, encoding: "utf8" });
  } catch (err) {
    throw new Error(`tsc failed on the guide's code:\n${(err as { stdout?: string }).stdout ?? String(err)}`);
  }
  execFileSync(process.execPath, ["scripts/gen-manifest.mjs"], { cwd: work });

  const manifest = JSON.parse(readFileSync(path.join(work, "openclaw.plugin.json"), "utf8"));
  expect(manifest).toMatchObject({ id: pkg.openclaw.plugin.id, channels: pkg.openclaw.plugin.channels });
  expect(Object.keys(manifest.configSchema.properties)).toEqual(expect.arrayContaining(["apiToken", "baseUrl", "streaming", "accounts"]));
}, 60_000);
