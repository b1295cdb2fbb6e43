// The `openclaw` bin is the esbuild bundle (scripts/bundle.mjs), not tsc's dist/cli/main.js that
// the other CLI tests run. These run the bin that package.json names and compare what a user sees.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempHome, runCli } from "./helpers/cli.js";

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
    expect(pkg.bin.openclaw).toBe("./dist/bundle/openclaw.js");
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
    for (const file of readdirSync(bundleDir).filter((name) => name.endsWith(".js"))) {
      const code = readFileSync(path.join(bundleDir, file), "utf8");
      for (const match of code.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*"((?:@[\w.-]+\/)?[\w-][\w.-]*)(?:\/[^"]*)?"/g)) {
        imported.add(match[1] as string);
      }
    }
    const declared = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies ?? {})]);
    const builtins = new Set(builtinModules);
    const undeclared = [...imported].filter((name) => !name.startsWith("node:") && !builtins.has(name) && !declared.has(name));
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
