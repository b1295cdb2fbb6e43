#!/usr/bin/env node
// The `openclaw` bin (scripts/bundle.mjs copies this file to dist/bundle/openclaw.cjs, with the
// build's id in place of __OPENCLAW_BUILD_ID__). Every command runs the CommonJS bundle of the CLI
// (cli.cjs, one file) compiled with a V8 code cache. Node 20 has no compile cache of its own
// (`module.enableCompileCache` is Node 22), and compiling the CLI's code was a large part of a short
// command's time, and of the gateway's start (there as ES modules: ~1 MB of chunks, each compiled
// and resolved at every start). The first run of a command writes the cache (the bytecode of every
// function it ran): a short command when it exits; `openclaw gateway` once it has started, before
// it changes V8's flags back from its start-up hold (startup-memory.cjs, which the bin starts
// before the bundle compiles: V8 accepts a cache only under the flags it was written with). Later
// runs of that command skip parsing and compiling. A cache V8 rejects (another Node, other flags)
// is rewritten; one that cannot be read or written costs nothing but the speed-up.
//
// The cache lives in `$OPENCLAW_CODE_CACHE` when that names a folder, else in
// `$XDG_CACHE_HOME/openclaw/v8` (default `~/.cache/openclaw/v8`); `OPENCLAW_CODE_CACHE=off` turns it
// off. One file per build, Node version, architecture and command; files of older builds are
// removed when a new one is written. `NODE_DEBUG=openclaw` prints what the loader does.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");
const Module = require("node:module");
const debug = require("node:util").debuglog("openclaw");
// Reads the bundle and its cache outside malloc (a freed 1-2 MB buffer would raise glibc's mmap
// threshold for the whole process; see that file, scripts/lib/read-outside-malloc.cjs of the repository).
const { readOutsideMalloc } = require("./read-outside-malloc.cjs");

const BUILD_ID = "__OPENCLAW_BUILD_ID__";
const BUNDLE = path.join(__dirname, "cli.cjs");

/** The top-level command (the first argument that is not an option or the value of `--profile`). */
function command(argv) {
  for (let i = 2; i < argv.length; i++) {
    if (argv[i] === "--profile") i++;
    else if (!argv[i].startsWith("-")) return argv[i];
  }
  return undefined;
}

/** The cache folder, or undefined when the cache is off. */
function cacheDir() {
  const setting = process.env.OPENCLAW_CODE_CACHE;
  if (setting === "off" || setting === "0") return undefined;
  if (setting) return path.resolve(setting);
  const base = process.env.XDG_CACHE_HOME || path.join(process.env.HOME || require("node:os").homedir(), ".cache");
  return path.join(base, "openclaw", "v8");
}

/** Writes `data` to `file` atomically (a concurrent run of the same command may write it too) and drops older builds' files. */
function writeCache(dir, file, data) {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, data, { mode: 0o600 });
  fs.renameSync(temp, file);
  for (const name of fs.readdirSync(dir)) {
    if (name.startsWith("cli-") && !name.startsWith(`cli-${BUILD_ID}-`)) fs.rmSync(path.join(dir, name), { force: true });
  }
}

/**
 * The cache file's bytes, or undefined when there is none, or when it is not the user's own or
 * others may write it: V8 runs what a cache holds, so only a file of the user's is trusted.
 */
function readCache(file) {
  let fd;
  try {
    fd = fs.openSync(file, "r");
  } catch {
    return undefined; // no cache yet for this command
  }
  try {
    const info = fs.fstatSync(fd);
    if (typeof process.getuid === "function" && (info.uid !== process.getuid() || (info.mode & 0o022) !== 0)) {
      debug("code cache %s: not the user's own or writable by others, ignored", file);
      return undefined;
    }
    return readOutsideMalloc(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** The bundle's text (ASCII: the build escapes the rest, so latin1 is exact and cheaper than UTF-8). */
function readBundle() {
  const fd = fs.openSync(BUNDLE, "r");
  try {
    return readOutsideMalloc(fd).toString("latin1");
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * With --enable-source-maps (a stack trace that names src/ files is wanted, not speed), the bundle
 * is compiled by Node's CommonJS loader, which reads its source map; node:vm's scripts get none.
 */
function compileWithSourceMaps() {
  const loader = new Module(BUNDLE, module);
  loader.filename = BUNDLE;
  loader.paths = Module._nodeModulePaths(__dirname);
  // The file is one function expression starting on line 1, so this prefix moves no line.
  loader._compile(`module.exports = ${fs.readFileSync(BUNDLE, "latin1")}`, BUNDLE);
  return loader.exports;
}

/**
 * Compiles the CommonJS bundle through the code cache; returns its wrapper function. When the
 * cache is to be written, `schedule` gets the function that writes it (default: at exit).
 */
function compileCached(name, schedule = (write) => process.once("exit", write)) {
  const dir = cacheDir();
  const file = dir && path.join(dir, `cli-${BUILD_ID}-${process.version}-${process.arch}-${name}.bin`);
  const cachedData = file && readCache(file);
  // The file is one function expression, the module's wrapper (scripts/bundle.mjs writes it), in
  // ASCII (the build escapes the rest), so latin1 is an exact and cheaper decoding.
  const script = new vm.Script(readBundle(), { filename: BUNDLE, cachedData });
  debug("code cache %s: %s", file || "off", cachedData ? (script.cachedDataRejected ? "rejected" : "used") : "none");
  if (file && (!cachedData || script.cachedDataRejected)) {
    schedule(() => {
      try {
        writeCache(dir, file, script.createCachedData());
        debug("code cache written: %s", file);
      } catch (err) {
        debug("code cache not written: %s", err?.message);
      }
    });
  }
  return script.runInThisContext();
}

/**
 * The bundle's `import()` (scripts/bundle.mjs routes its calls here; Node 20 loses a cached
 * script's own dynamic-import callback). A builtin is required, its namespace as import() would
 * give it, without starting Node's ES-module loader for it.
 */
function load(specifier, options) {
  if (typeof specifier === "string" && specifier.startsWith("node:")) {
    return Promise.resolve().then(() => {
      const builtin = require(specifier);
      return { ...builtin, default: builtin };
    });
  }
  return import(specifier, options);
}

/** Runs the bundle's wrapper function as Node runs a module's; returns the bundle's exports. */
function run(wrapper) {
  const bundle = { exports: {} };
  wrapper(bundle.exports, Module.createRequire(BUNDLE), bundle, BUNDLE, __dirname, load);
  return bundle.exports;
}

const name = command(process.argv) ?? "none";
const cacheName = /^[a-z][a-z-]{0,30}$/.test(name) ? name : "other";
if (process.sourceMapsEnabled) debug("source maps on: no code cache");
if (name === "gateway") {
  // The start-up hold (young generation, Turbofan) covers the bundle's own compile and the CLI's
  // set-up too; the gateway's command joins it, and the cache is written when it releases it.
  const startup = require("./startup-memory.cjs");
  startup.holdStartupMemory();
  const wrapper = process.sourceMapsEnabled ? compileWithSourceMaps() : compileCached(cacheName, startup.atStartupMemoryRelease);
  run(wrapper).runCli(process.argv);
} else {
  // A command is over in a fraction of a second: V8's background-scheduled young-generation
  // collection would only run (~4 ms) just before the process ends. (Collections when the young
  // generation is full still happen.)
  require("node:v8").setFlagsFromString("--no-minor-gc-task");
  // A rejection (a bug, not a user error: runCli reports those) ends the process with its stack, as an uncaught exception would.
  run(process.sourceMapsEnabled ? compileWithSourceMaps() : compileCached(cacheName)).runCli(process.argv);
}
