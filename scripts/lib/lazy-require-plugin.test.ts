// scripts/lib/lazy-require-plugin.mjs (`bundle-extension.mjs --lazy`): a bundled library's
// require() of a lazy package returns a stand-in; the package's code runs at its first use.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the build scripts, without types
import { lazyRequirePlugin } from "./lazy-require-plugin.mjs";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A folder with node_modules/<name>/index.js for each package, and entry.cjs. */
function project(packages: Record<string, string>, entry: string): string {
  dir = mkdtempSync(path.join(tmpdir(), "lazy-require-"));
  for (const [name, source] of Object.entries(packages)) {
    mkdirSync(path.join(dir, "node_modules", name), { recursive: true });
    writeFileSync(path.join(dir, "node_modules", name, "index.js"), source);
  }
  writeFileSync(path.join(dir, "entry.cjs"), entry);
  return dir;
}

async function bundle(root: string, lazy: string[]): Promise<string> {
  const out = path.join(root, "out.cjs");
  await build({
    absWorkingDir: root,
    entryPoints: ["entry.cjs"],
    outfile: out,
    bundle: true,
    format: "cjs",
    platform: "node",
    plugins: [lazyRequirePlugin(lazy)],
    logLevel: "silent",
  });
  return out;
}

const HEAVY = `globalThis.heavyLoads = (globalThis.heavyLoads ?? 0) + 1;
function heavy(x) { return "called " + x; }
heavy.get = (url) => "got " + url;
heavy.Client = class Client { constructor(name) { this.name = name; } };
module.exports = heavy;`;

describe("lazy-require plugin", () => {
  it("runs a lazy package's code at its first use, not when the requiring module loads", async () => {
    const root = project(
      { heavy: HEAVY },
      `const heavy_1 = __importDefault(require("heavy"));
function __importDefault(mod) { return mod && mod.__esModule ? mod : { default: mod }; }
exports.loadsAtRequire = globalThis.heavyLoads ?? 0;
exports.use = () => [heavy_1.default.get("/x"), heavy_1.default("y"), new heavy_1.default.Client("c").name, "get" in heavy_1.default];`,
    );
    const out = await bundle(root, ["heavy"]);
    const g = globalThis as { heavyLoads?: number };
    delete g.heavyLoads;
    const mod = createRequire(import.meta.url)(out) as { loadsAtRequire: number; use(): unknown[] };
    expect(mod.loadsAtRequire).toBe(0);
    expect(g.heavyLoads ?? 0).toBe(0);
    expect(mod.use()).toEqual(["got /x", "called y", "c", true]);
    expect(mod.use()).toEqual(["got /x", "called y", "c", true]);
    expect(g.heavyLoads).toBe(1);
    delete g.heavyLoads;
  });

  it("answers node-fetch's interop check (`'default' in`) without loading", async () => {
    const root = project(
      { plain: `globalThis.plainLoads = (globalThis.plainLoads ?? 0) + 1; exports.URL = "whatwg";` },
      `function _interopDefault(ex) { return ex && typeof ex === "object" && "default" in ex ? ex["default"] : ex; }
const plain = _interopDefault(require("plain"));
exports.loadsAtRequire = globalThis.plainLoads ?? 0;
exports.url = () => plain.URL;`,
    );
    const out = await bundle(root, ["plain"]);
    const g = globalThis as { plainLoads?: number };
    delete g.plainLoads;
    const mod = createRequire(import.meta.url)(out) as { loadsAtRequire: number; url(): string };
    expect(mod.loadsAtRequire).toBe(0);
    expect(mod.url()).toBe("whatwg");
    expect(g.plainLoads).toBe(1);
    delete g.plainLoads;
  });

  it("refuses a package that sets __esModule, naming the fix", async () => {
    const root = project(
      { transpiled: `Object.defineProperty(exports, "__esModule", { value: true }); exports.default = 1;` },
      `exports.value = require("transpiled").default;`,
    );
    await expect(bundle(root, ["transpiled"])).rejects.toThrow(/--lazy transpiled: .* sets __esModule; .*Drop the --lazy/);
  });

  it("leaves imports and packages not named alone", async () => {
    const root = project({ heavy: HEAVY }, `exports.loadsAtRequire = (require("heavy"), globalThis.heavyLoads);`);
    const out = await bundle(root, ["other"]);
    const g = globalThis as { heavyLoads?: number };
    delete g.heavyLoads;
    expect((createRequire(import.meta.url)(out) as { loadsAtRequire: number }).loadsAtRequire).toBe(1);
    delete g.heavyLoads;
  });
});
