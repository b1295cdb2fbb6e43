// The `openclaw` bin is the esbuild bundle (scripts/bundle.mjs), not tsc's dist/cli/main.js that
// the other CLI tests run. These run the bin that package.json names and compare what a user sees.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openAgentStore } from "../src/sessions/index.js";
import { makeTempHome, runCli } from "./helpers/cli.js";
import { makeCliHome } from "./plugins/cli-home.js";
import { authorFolder, hostInstanceofHolds, resolvedFrom } from "./plugins/helpers.js";

const PACKAGE_DIR = fileURLToPath(new URL("../", import.meta.url));
const pkg = JSON.parse(readFileSync(path.join(PACKAGE_DIR, "package.json"), "utf8")) as {
  version: string;
  bin: { openclaw: string };
  exports: { ".": { import: string } };
  files: string[];
  dependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
};
const BIN = path.join(PACKAGE_DIR, pkg.bin.openclaw);

let home: string;
let cleanup: () => void;
beforeEach(() => ({ home, cleanup } = makeTempHome()));
afterEach(() => cleanup());

describe("the openclaw bin (bundle)", () => {
  it("is the bundle, and prints the package version", async () => {
    expect(pkg.bin.openclaw).toBe("./dist/bundle/openclaw.cjs");
    const result = await runCli(["--version"], { home, entry: BIN });
    expect(result).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
  });

  it("validates a config and reports a problem with the file and key, like the unbundled CLI", async () => {
    mkdirSync(path.join(home, ".openclaw"), { mode: 0o700 });
    const file = path.join(home, ".openclaw", "openclaw.json");
    writeFileSync(file, JSON.stringify({ session: { dmScope: "per-planet" } }), { mode: 0o600 });
    const bundled = await runCli(["config", "validate"], { home, entry: BIN });
    const unbundled = await runCli(["config", "validate"], { home });
    expect(bundled.code).toBe(1);
    expect(bundled.stderr).toContain(file);
    expect(bundled.stderr).toContain("session.dmScope");
    expect(bundled).toEqual(unbundled);
  });

  it("finds its assets and the plugin SDK from the bundle's folder (doctor on an empty home)", async () => {
    const result = await runCli(["doctor"], { home, entry: BIN });
    expect(result.code, result.stderr).toBe(0);
  });

  it("imports at run time only packages the published package depends on (the rest is bundled)", () => {
    const bundleDir = path.join(PACKAGE_DIR, "dist/bundle");
    const imported = new Set<string>();
    for (const file of readdirSync(bundleDir).filter((name) => /\.c?js$/.test(name))) {
      const code = readFileSync(path.join(bundleDir, file), "utf8");
      for (const match of code.matchAll(
        /(?:\bfrom|\bimport|\b__load|\brequire|\b__require|(?:import\.meta\.url|__openclaw_import_meta_url)\))\s*\(?\s*"((?:@[\w.-]+\/)?[\w-][\w.-]*)(?:\/[^"]*)?"/g,
      )) {
        imported.add(match[1] as string);
      }
    }
    const declared = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies ?? {})]);
    const builtins = new Set(builtinModules);
    // Optional add-ons their libraries require inside try/catch, falling back to plain JavaScript:
    // ws's bufferutil and utf-8-validate, linkedom's canvas.
    const optional = new Set(["bufferutil", "utf-8-validate", "canvas"]);
    const undeclared = [...imported].filter(
      (name) => !name.startsWith("node:") && !builtins.has(name) && !declared.has(name) && !optional.has(name),
    );
    expect(undeclared).toEqual([]);
    expect(imported).toContain("better-sqlite3"); // the scan sees bare imports at all
  });

  it("publishes the bundle as the library entry and the bin, without tsc's JavaScript", async () => {
    expect(pkg.exports["."].import).toBe("./dist/bundle/index.js");
    expect(pkg.files).not.toContain("dist");
    const library = (await import(path.join(PACKAGE_DIR, pkg.exports["."].import))) as Record<string, unknown>;
    expect(Object.keys(library).sort()).toEqual(["UserError", "resolvePaths"]);
  });
});

describe("the bin's plugin SDK version", () => {
  it("is the SDK's own, not the version of the core package the bundle sits in", async () => {
    // A copy of the bundle in a core package of another version (core and the SDK are released apart).
    const copy = path.join(home, "core-copy");
    cpSync(path.join(PACKAGE_DIR, "dist", "bundle"), path.join(copy, "dist", "bundle"), { recursive: true });
    writeFileSync(path.join(copy, "package.json"), JSON.stringify({ ...pkg, version: "9.9.9" }));
    symlinkSync(path.join(PACKAGE_DIR, "node_modules"), path.join(copy, "node_modules"), "dir");
    const sdk = JSON.parse(readFileSync(path.join(PACKAGE_DIR, "node_modules", "@openclaw", "plugin-sdk", "package.json"), "utf8"));
    const listed = await runCli(["plugins", "list", "--json"], { home, entry: path.join(copy, "dist", "bundle", "openclaw.cjs") });
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).hostSdkVersion).toBe(sdk.version);
    const version = await runCli(["--version"], { home, entry: path.join(copy, "dist", "bundle", "openclaw.cjs") });
    expect(version.stdout.trim()).toBe("9.9.9"); // the copy is really read as that core
  });
});

describe("plugins installed by the bin share the bin's bundled @openclaw/plugin-sdk and zod", () => {
  const SHIMS = path.join(PACKAGE_DIR, "dist", "bundle", "host");

  it("links the bin's shim packages beside the plugin, whose SDK errors are the bin's, and validates its channel", async () => {
    const h = makeCliHome({ entry: BIN });
    try {
      const author = authorFolder(h.home);
      const installed = await h.cli("plugins", "install", author);
      expect(installed.code, installed.stderr).toBe(0);
      const pluginDir = path.join(h.ext, "node_modules", "openclaw-zodchat");

      // One SDK and one zod: the bin's (the shims re-export the bin's own chunks), not the author's copies.
      expect(resolvedFrom(pluginDir, "@openclaw/plugin-sdk")).toBe(realpathSync(path.join(SHIMS, "plugin-sdk")));
      expect(resolvedFrom(pluginDir, "zod")).toBe(realpathSync(path.join(SHIMS, "zod")));
      expect(hostInstanceofHolds(pluginDir, path.join(SHIMS, "plugin-sdk", "index.js"))).toBe(true);
      // The author's own SDK copy is another instance: the check above can fail.
      expect(hostInstanceofHolds(pluginDir, path.join(author, "node_modules", "@openclaw", "plugin-sdk", "dist", "index.js"))).toBe(false);

      // The plugin's config entry (the SDK's config helpers and `z` from zod) loads in the bin and validates.
      writeFileSync(h.configPath, JSON.stringify({ channels: { zodchat: { token: "t" } } }));
      const ok = await h.cli("config", "validate");
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stderr).toBe("");
      writeFileSync(h.configPath, JSON.stringify({ channels: { zodchat: { token: "" } } }));
      const bad = await h.cli("config", "validate");
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain(h.configPath);
      expect(bad.stderr).toContain("channels.zodchat.token");
    } finally {
      h.cleanup();
    }
  });
});

describe("the bin's zod as plugins get it (dist/bundle/host/zod)", () => {
  it("resolves zod's subpaths, offers its locales (loaded on first use; English by default), and require() still works", () => {
    // A plugin folder whose node_modules/zod is the shim, as `plugins install` links it.
    mkdirSync(path.join(home, "plugin", "node_modules"), { recursive: true });
    symlinkSync(path.join(PACKAGE_DIR, "dist", "bundle", "host", "zod"), path.join(home, "plugin", "node_modules", "zod"), "dir");
    writeFileSync(path.join(home, "plugin", "package.json"), JSON.stringify({ name: "p", type: "module" }));
    const script = `
      import { createRequire } from "node:module";
      const { z } = await import("zod");
      const english = z.string().safeParse(1).error.issues[0].message;
      z.config(z.locales.de());
      const german = z.string().safeParse(1).error.issues[0].message;
      const { default: fr } = await import("zod/v4/locales/fr.js");
      const core = await import("zod/v4/core");
      const mini = await import("zod/v4-mini");
      const commonjs = createRequire(import.meta.url)("zod");
      process.stdout.write(JSON.stringify({
        english, german, fr: typeof fr, sameCore: z.string() instanceof core.$ZodType, mini: typeof mini.object,
        commonjs: commonjs.z.number().safeParse(2).success,
      }));`;
    writeFileSync(path.join(home, "plugin", "check.js"), script);
    const out = JSON.parse(execFileSync(process.execPath, [path.join(home, "plugin", "check.js")], { encoding: "utf8" }));
    expect(out).toEqual({
      english: "Invalid input: expected string, received number",
      german: "Ungültige Eingabe: erwartet string, erhalten Zahl",
      fr: "function",
      sameCore: true,
      mini: "function",
      commonjs: true,
    });
  });
});

describe("the bin opens SQLite databases (better-sqlite3 loads on first use)", () => {
  it("lists the sessions of an agent's database, and doctor names a damaged state database", async () => {
    const stateDir = path.join(home, ".openclaw");
    const store = openAgentStore({ stateDir, agentId: "main" });
    try {
      store.getOrCreateSession("agent:main:main");
    } finally {
      store.close();
    }
    const list = await runCli(["sessions", "list", "--json"], { home, entry: BIN });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain("agent:main:main");

    const stateDb = path.join(stateDir, "state", "openclaw.sqlite");
    mkdirSync(path.dirname(stateDb), { recursive: true });
    writeFileSync(stateDb, "not a database, just text that is long enough to be read as a header by SQLite".repeat(20));
    const doctor = await runCli(["doctor"], { home, entry: BIN });
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain(`${stateDb} is damaged`);
  });
});
