// Bundled into extension bundles by scripts/bundle-extension.mjs (`--code-cache <module>`): loads
// one of the bundle's CommonJS files (dist/bundle/<name>.cjs, a platform library bundled alone)
// through a V8 code cache. Node 20 has no compile cache of its own (`module.enableCompileCache` is
// Node 22), and compiling a multi-megabyte library (Baileys, the Lark SDK) was the largest single
// cost of a channel's start; with a cache, V8 skips parsing and compiling what the last start ran.
//
// The cache is the one the `openclaw` bin uses: `$OPENCLAW_CODE_CACHE` when it names a folder
// (`off` or `0` turns it off), else `$XDG_CACHE_HOME/openclaw/v8` (default `~/.cache/openclaw/v8`).
// One file per library file, named after its path, size and modification time and V8's version
// tag (its version and flags), so a rebuilt or upgraded plugin never meets an old cache; the files
// of older builds of the same path are removed when a new one is written. The first load writes it,
// right after the library's code ran. A cache V8 rejects anyway is rewritten; one that cannot be
// read or written costs only the speed-up; one that is not the user's own, or that others may
// write, is ignored, since V8 runs what it holds. With `--enable-source-maps` the file is required
// normally (Node then maps stack traces through its source map). `NODE_DEBUG=openclaw` prints what
// the loader does.
import { createHash } from "node:crypto";
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { homedir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { debuglog } from "node:util";
import v8 from "node:v8";
import vm from "node:vm";
// Large reads that, freed, would raise glibc's mmap threshold (see that file).
import { readOutsideMalloc } from "./read-outside-malloc.cjs";

const debug = debuglog("openclaw");
const loaded = new Map();

/** The fetch API's globals: Node loads undici (~1 MB of JavaScript) when any of them is first read. */
const FETCH_GLOBALS = ["fetch", "Request", "Response", "Headers", "FormData"];

/**
 * Runs `load` with the fetch API's globals reading as undefined, then puts them back as they were
 * (still lazy). For libraries that only feature-detect them when they load (axios does, and then
 * sends over node:http in Node anyway): loading such a library no longer loads undici. The load is
 * synchronous, so no other code sees the globals missing.
 */
function withoutFetchGlobals(load) {
  const saved = FETCH_GLOBALS.map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)]).filter(([, d]) => d?.configurable);
  for (const [name, d] of saved)
    Object.defineProperty(globalThis, name, { value: undefined, writable: true, configurable: true, enumerable: d.enumerable });
  try {
    return load();
  } finally {
    for (const [name, d] of saved) Object.defineProperty(globalThis, name, d);
  }
}

/** The cache folder, or undefined when the cache is off. */
function cacheDir() {
  const setting = process.env.OPENCLAW_CODE_CACHE;
  if (setting === "off" || setting === "0") return undefined;
  if (setting) return path.resolve(setting);
  const base = process.env.XDG_CACHE_HOME || path.join(process.env.HOME || homedir(), ".cache");
  return path.join(base, "openclaw", "v8");
}

/** The cache file's bytes; undefined when there is none or it is not trusted (see above). */
function readCache(file) {
  let fd;
  try {
    fd = openSync(file, "r");
  } catch {
    return undefined;
  }
  try {
    const info = fstatSync(fd);
    if (typeof process.getuid === "function" && (info.uid !== process.getuid() || (info.mode & 0o022) !== 0)) {
      debug("code cache %s: not the user's own or writable by others, ignored", file);
      return undefined;
    }
    return readOutsideMalloc(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * The cache file for `file` under the V8 flags in force now, and the prefix of every cache file of
 * that path. V8 rejects a cache made under other flags (its version tag covers the V8 version, the
 * flags and the CPU's features), and the gateway and the CLI run with different flags, so each gets
 * its own file instead of rewriting one the other then rejects.
 */
function cacheFileOf(dir, file) {
  const info = statSync(file);
  const prefix = `lib-${createHash("sha256").update(file).digest("hex").slice(0, 16)}-`;
  const build = `${prefix}${info.size}-${Math.trunc(info.mtimeMs)}-`;
  return { file: path.join(dir, `${build}${v8.cachedDataVersionTag()}-${process.arch}.bin`), prefix, build };
}

/** Writes `data` atomically as `file` and removes the caches of other builds of the same library path. */
function writeCache(dir, cache, data) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temp = `${cache.file}.${process.pid}.tmp`;
  writeFileSync(temp, data, { mode: 0o600 });
  renameSync(temp, cache.file);
  for (const name of readdirSync(dir)) {
    if (name.startsWith(cache.prefix) && !name.startsWith(cache.build) && !name.endsWith(".tmp"))
      rmSync(path.join(dir, name), { force: true });
  }
}

/** Compiles and runs `file` as Node runs a CommonJS module, through the code cache; returns its exports. */
function compileCached(file) {
  // UTF-8: esbuild escapes non-ASCII text, but not all of it (a "©" in one of Baileys' regular
  // expressions stays), so latin1 would change such a character.
  const fd = openSync(file, "r");
  let source;
  try {
    source = readOutsideMalloc(fd).toString("utf8");
  } finally {
    closeSync(fd);
  }
  const dir = cacheDir();
  const cache = dir && cacheFileOf(dir, file);
  const cachedData = cache && readCache(cache.file);
  // Node's own CommonJS wrapper, on the file's first line so that its line numbers hold.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n})`, {
    filename: file,
    cachedData,
  });
  debug("code cache %s: %s", cache?.file ?? "off", cachedData ? (script.cachedDataRejected ? "rejected" : "used") : "none");
  const module = new Module(file);
  module.filename = file;
  module.paths = Module._nodeModulePaths(path.dirname(file));
  script.runInThisContext().call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
  module.loaded = true;
  // Written now, under the flags it was read with (the gateway changes some while it starts):
  // the code the module ran at load time, most of its compile time.
  if (cache && (!cachedData || script.cachedDataRejected)) {
    try {
      writeCache(dir, cache, script.createCachedData());
      debug("code cache written: %s", cache.file);
    } catch (err) {
      debug("code cache not written: %s", err?.message);
    }
  }
  return module.exports;
}

/**
 * The exports of the CommonJS file at `url` (once per process, like `require`). The module
 * namespace `import()` would give for it: its exports as `default`. `hideFetchGlobals`: the file's
 * top-level code runs with `fetch`, `Request`, `Response`, `Headers` and `FormData` undefined
 * (bundle-extension.mjs `--hide-fetch-globals`).
 */
export function codeCachedRequire(url, options = {}) {
  const file = fileURLToPath(url);
  let exports = loaded.get(file);
  if (exports === undefined) {
    const load = () => (process.sourceMapsEnabled ? createRequire(file)(file) : compileCached(file));
    exports = options.hideFetchGlobals ? withoutFetchGlobals(load) : load();
    loaded.set(file, exports);
  }
  return exports;
}
