// scripts/lib/code-cached-require.mjs (bundled into extensions by `bundle-extension.mjs
// --code-cache`): a CommonJS library file loaded through a V8 code cache. Each load runs in a fresh
// node process, as a gateway start does; `NODE_DEBUG=openclaw` shows what the loader did.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const RUNTIME = fileURLToPath(new URL("code-cached-require.mjs", import.meta.url));

let dir: string;
let cache: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "code-cached-require-"));
  cache = path.join(dir, "cache");
  mkdirSync(path.join(dir, "node_modules", "dep"), { recursive: true });
  writeFileSync(path.join(dir, "node_modules", "dep", "index.js"), "module.exports = { dep: 'from node_modules' };\n");
  writeLibrary("v1");
  // The module that loads the library, as the extension's stub does.
  writeFileSync(
    path.join(dir, "main.mjs"),
    `import { codeCachedRequire } from ${JSON.stringify(RUNTIME)};
const lib = codeCachedRequire(new URL("./lib.cjs", import.meta.url));
const again = codeCachedRequire(new URL("./lib.cjs", import.meta.url));
console.log(JSON.stringify({ ...(await lib.describe()), once: lib === again }));
`,
  );
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The library: uses require (a builtin, a package beside it), __dirname, module and a dynamic import made a require by the build. */
function writeLibrary(version: string) {
  writeFileSync(
    path.join(dir, "lib.cjs"),
    `"use strict";
const path = require("node:path");
let loads = (globalThis.__libLoads ?? 0) + 1;
globalThis.__libLoads = loads;
async function describe() {
  const os = await Promise.resolve().then(() => require("node:os"));
  return { nonAscii: /^[a-z©é]+$/.test("©é") && "©é".length, version: ${JSON.stringify(version)}, dep: require("dep").dep, dir: path.basename(__dirname), file: path.basename(__filename), moduleFile: path.basename(module.filename), loads, hasCpus: typeof os.cpus === "function" };
}
module.exports = { describe };
`,
  );
}

function run(env: Record<string, string> = {}, nodeArgs: string[] = []) {
  const result = spawnSync(process.execPath, [...nodeArgs, path.join(dir, "main.mjs")], {
    env: { ...process.env, OPENCLAW_CODE_CACHE: cache, NODE_DEBUG: "openclaw", ...env },
    encoding: "utf8",
  });
  expect(result.status, result.stderr).toBe(0);
  const debug = result.stderr
    .split("\n")
    .filter((l) => l.includes("code cache"))
    .map((l) => l.replace(/^OPENCLAW \d+: /, "").replace(cache, "<cache>"));
  return { output: JSON.parse(result.stdout), debug };
}

const cacheFiles = () => (statSync(cache, { throwIfNoEntry: false }) ? readdirSync(cache).sort() : []);

describe("codeCachedRequire", () => {
  it("runs the file as Node runs a CommonJS module, once per process", () => {
    const { output } = run();
    expect(output).toEqual({
      nonAscii: 2, // UTF-8 text (a regular expression and a string) kept as written
      version: "v1",
      dep: "from node_modules",
      dir: path.basename(dir),
      file: "lib.cjs",
      moduleFile: "lib.cjs",
      loads: 1,
      hasCpus: true,
      once: true,
    });
  });

  it("reads the file and its cache into ordinary buffers where WebAssembly memory cannot be reserved (a virtual memory limit)", () => {
    // The loader reads both into a WebAssembly.Memory (V8 maps it; it never raises glibc's mmap
    // threshold when freed); under `ulimit -v` that reservation fails and it falls back.
    const limited = () => {
      const result = spawnSync("bash", ["-c", `ulimit -v 3000000 && exec "$0" "$1"`, process.execPath, path.join(dir, "main.mjs")], {
        env: { ...process.env, OPENCLAW_CODE_CACHE: cache, NODE_DEBUG: "openclaw" },
        encoding: "utf8",
      });
      expect(result.status, result.stderr).toBe(0);
      expect(spawnSync(process.execPath, ["-e", "new WebAssembly.Memory({ initial: 1 })"]).status).toBe(0); // without the limit it can
      return { output: JSON.parse(result.stdout), debug: result.stderr.split("\n").filter((l) => l.includes("code cache")) };
    };
    const first = limited();
    expect(first.output).toMatchObject({ nonAscii: 2, version: "v1", loads: 1, once: true });
    expect(first.debug.join("\n")).toMatch(/: none[\s\S]*code cache written/);
    const second = limited();
    expect(second.output).toEqual(first.output);
    expect(second.debug.join("\n")).toMatch(/: used$/);
    // The cache written under the limit is the same one an unlimited process uses.
    expect(run().debug).toEqual([expect.stringMatching(/: used$/)]);
  });

  it("writes the cache at the first load (only the user may read or write it) and uses it at the next", () => {
    const first = run();
    expect(first.debug[0]).toMatch(/^code cache <cache>\/lib-[0-9a-f]{16}-\d+-\d+-\d+-\w+\.bin: none$/);
    expect(first.debug[1]).toMatch(/^code cache written: /);
    const [file] = cacheFiles();
    expect(cacheFiles()).toHaveLength(1);
    expect(statSync(path.join(cache, file!)).mode & 0o777).toBe(0o600);
    expect(statSync(cache).mode & 0o777).toBe(0o700);

    const second = run();
    expect(second.debug).toEqual([`code cache <cache>/${file}: used`]);
    expect(second.output).toEqual(first.output);
  });

  it("starts a new cache when the library file changes, and removes the old build's", () => {
    run();
    const [old] = cacheFiles();
    writeLibrary("v2, a rebuilt library");
    const after = run();
    expect(after.output.version).toBe("v2, a rebuilt library");
    expect(after.debug[0]).toMatch(/: none$/);
    expect(cacheFiles()).toHaveLength(1);
    expect(cacheFiles()[0]).not.toBe(old);
  });

  it("keeps one cache per set of V8 flags (the CLI's and the gateway's differ) instead of rewriting one", () => {
    run();
    const other = run({}, ["--no-opt"]);
    expect(other.debug[0]).toMatch(/: none$/);
    expect(cacheFiles()).toHaveLength(2);
    expect(run().debug).toEqual([expect.stringMatching(/: used$/)]);
    expect(run({}, ["--no-opt"]).debug).toEqual([expect.stringMatching(/: used$/)]);
  });

  it("rewrites a cache V8 rejects", () => {
    run();
    const [file] = cacheFiles();
    writeFileSync(path.join(cache, file!), Buffer.alloc(4096, 7), { mode: 0o600 });
    const { output, debug } = run();
    expect(output.version).toBe("v1");
    expect(debug).toEqual([`code cache <cache>/${file}: rejected`, `code cache written: <cache>/${file}`]);
    expect(run().debug).toEqual([`code cache <cache>/${file}: used`]);
  });

  it.skipIf(typeof process.getuid !== "function")("ignores a cache that others may write (V8 runs what it holds)", () => {
    run();
    const [file] = cacheFiles();
    chmodSync(path.join(cache, file!), 0o666);
    const { output, debug } = run();
    expect(output.version).toBe("v1");
    expect(debug[0]).toBe(`code cache <cache>/${file}: not the user's own or writable by others, ignored`);
    expect(debug[1]).toBe(`code cache <cache>/${file}: none`);
  });

  it("is off with OPENCLAW_CODE_CACHE=off, and under --enable-source-maps (Node's loader maps the stack traces)", () => {
    expect(run({ OPENCLAW_CODE_CACHE: "off" }).debug).toEqual(["code cache off: none"]);
    const mapped = run({}, ["--enable-source-maps"]);
    expect(mapped.output.version).toBe("v1");
    expect(mapped.debug).toEqual([]);
    expect(cacheFiles()).toEqual([]);
  });

  it("goes on without a cache when its folder cannot be written", () => {
    writeFileSync(cache, "a file where the folder should be");
    const { output, debug } = run();
    expect(output.version).toBe("v1");
    expect(debug[1]).toMatch(/^code cache not written: /);
  });

  it("with hideFetchGlobals, the file's top-level code sees no fetch API, and loading it does not load undici", () => {
    writeFileSync(
      path.join(dir, "lib.cjs"),
      `"use strict";
const seen = ["fetch", "Request", "Response", "Headers", "FormData"].map((n) => typeof globalThis[n]);
module.exports = { seen, later: () => typeof fetch };
`,
    );
    const load = (options: string) => {
      writeFileSync(
        path.join(dir, "main.mjs"),
        `import { codeCachedRequire } from ${JSON.stringify(RUNTIME)};
const lib = codeCachedRequire(new URL("./lib.cjs", import.meta.url)${options});
const undici = process.moduleLoadList.some((m) => m.includes("undici"));
console.log(JSON.stringify({ seen: lib.seen, undici, later: lib.later(), global: typeof Response }));
`,
      );
      return run().output;
    };
    expect(load(", { hideFetchGlobals: true }")).toEqual({
      seen: ["undefined", "undefined", "undefined", "undefined", "undefined"],
      undici: false,
      later: "function", // put back after the load, still Node's own
      global: "function",
    });
    expect(load("")).toEqual({
      seen: ["function", "function", "function", "function", "function"],
      undici: true,
      later: "function",
      global: "function",
    });
  });
});
