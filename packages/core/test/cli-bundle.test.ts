// The `openclaw` bin is the esbuild bundle (scripts/bundle.mjs), not tsc's dist/cli/main.js that
// the other CLI tests run. These run the bin that package.json names and compare what a user sees.
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempHome, runCli } from "./helpers/cli.js";

const PACKAGE_DIR = fileURLToPath(new URL("../", import.meta.url));
const pkg = JSON.parse(readFileSync(path.join(PACKAGE_DIR, "package.json"), "utf8")) as { version: string; bin: { openclaw: string } };
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
});
