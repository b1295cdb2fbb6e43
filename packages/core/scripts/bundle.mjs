// After tsc: bundles the `openclaw` CLI (and through it the gateway) with esbuild into
// dist/bundle/, so a command resolves a handful of files instead of hundreds. Source maps point
// at src/. tsc's dist/ stays as it is: the library API's types and the tests use it.
//
// Outputs:
// - openclaw.cjs, the bin (scripts/bin-loader.cjs): runs every command, the gateway too, from the
//   CommonJS bundle through a V8 code cache (see that file);
// - index.js and its chunks: the ES-module bundle, code-split, the library entry;
// - cli.cjs: the CommonJS bundle of the CLI, one file (esbuild splits ES modules only);
// - zod-locales.cjs: zod's non-English locales, loaded on first use by both bundles;
// - startup-memory.cjs: the gateway's start-up memory hold, which the bin starts before cli.cjs loads;
// - read-outside-malloc.cjs: how the bin reads the bundle and its cache (from the repository's scripts/lib);
// - host/: the shim packages installed plugins get zod and the SDK from (scripts/lib/host-shims.mjs).
//
// zod and @openclaw/plugin-sdk are bundled too (loading them from node_modules was most of a
// command's start-up: ~120 files through the ESM loader). External (loaded from node_modules as
// before): native or worker-based packages (better-sqlite3, pino) and heavy optional ones loaded
// lazily (playwright-core, provider SDKs).
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Script } from "node:vm";
import { build } from "esbuild";
import { init as lexerReady, parse as lexModule } from "es-module-lexer";
import {
  LAZY_LOCALES_FILE,
  lazyChildProcessForCommanderPlugin,
  lazyBuiltinsPlugin,
  lazySqlitePlugin,
  lazyZodLocalesPlugin,
  STARTUP_MEMORY_FILE,
  sdkVersionPlugin,
  sharedStartupMemoryPlugin,
} from "./lib/esbuild-plugins.mjs";
import { HOST_SHIMS, hostModuleRegistration, hostShimPlugin, shimEntryPoints, writeShimPackages } from "./lib/host-shims.mjs";

export const EXTERNAL = [
  "better-sqlite3",
  "pino",
  "pino/*",
  "playwright-core",
  "playwright-core/*",
  "openai",
  "openai/*",
  "@anthropic-ai/sdk",
  "@anthropic-ai/sdk/*",
  "@openclaw/provider-*",
];

const root = fileURLToPath(new URL("..", import.meta.url));
const outdir = path.join(root, "dist/bundle");

/** Options every build shares. */
const SHARED_OPTIONS = {
  absWorkingDir: root,
  bundle: true,
  platform: "node",
  target: "node20.19",
  sourcemap: "linked",
  sourcesContent: false, // stack traces need the mappings only; the published package has no src/
  // Less text for V8 to parse at start-up (compiling the chunks is a large part of a command's
  // time). Identifiers stay as written (the CommonJS bundle below overrides that), so the
  // gateway's stack traces read well even without the source maps.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: "warning",
  define: { __OPENCLAW_HOST_PACKAGES__: JSON.stringify("host") },
};
const PLUGINS = [lazyZodLocalesPlugin, lazySqlitePlugin, lazyChildProcessForCommanderPlugin, lazyBuiltinsPlugin, sdkVersionPlugin];

/** The parameters the bin passes to the CommonJS bundle (scripts/bin-loader.cjs). */
const CLI_WRAPPER_HEAD = "(function (exports, require, module, __filename, __dirname, __load) {";

/** One copy of each shared package in a bundle: two would mean two instances again. */
function assertOneCopyOfShared(metafile) {
  for (const shim of HOST_SHIMS) {
    const marker = `node_modules/${shim.real}/`;
    const copies = new Set(
      Object.keys(metafile.inputs)
        .filter((input) => input.includes(marker) && !/^[\w-]+:/.test(input)) // not a plugin's virtual module
        .map((input) => input.slice(0, input.indexOf(marker) + marker.length)),
    );
    if (copies.size > 1) throw new Error(`the bundle holds ${copies.size} copies of ${shim.real}: ${[...copies].join(", ")}`);
  }
}

/**
 * esbuild escapes non-ASCII characters in strings but not in regular-expression literals (a few
 * of Readability's). `\uXXXX` means the same code unit there (a surrogate pair stays a pair, in
 * `u` mode too), so the file becomes ASCII, which the bin reads as latin1 (exact, and cheaper
 * than decoding UTF-8). An identity escape (`\»`) becomes the plain escape.
 */
function escapeNonAscii(code) {
  return code.replace(/(\\*)([^\x00-\x7f])/g, (_m, slashes, ch) => {
    const escaped = `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;
    return slashes.length % 2 === 1 ? slashes.slice(1) + escaped : slashes + escaped;
  });
}

/**
 * Node 20 loses a script's dynamic-import callback for functions restored from a code cache
 * (`import()` there fails with ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING), so the CommonJS bundle's
 * `import(` calls (external packages, plugins, builtins) become `__load(` calls: the bin's own
 * loader, passed in by scripts/bin-loader.cjs. The name has the keyword's length, so no column
 * moves and the source map stays exact. es-module-lexer finds them exactly (not in strings or
 * comments).
 */
function routeDynamicImports(code) {
  if (/\b__load\b/.test(code)) throw new Error("cli.cjs: the bundle already uses the name __load the bin's loader needs");
  const [imports] = lexModule(code);
  let out = "";
  let at = 0;
  for (const { d, ss } of imports) {
    if (d < 0) continue; // static import/export: none in a CommonJS bundle
    if (code.slice(ss, ss + 7) !== "import(") throw new Error(`cli.cjs: unexpected dynamic import at ${ss}: ${code.slice(ss, ss + 40)}`);
    out += `${code.slice(at, ss)}__load(`;
    at = ss + 7;
  }
  return out + code.slice(at);
}

await lexerReady;
rmSync(outdir, { recursive: true, force: true });
await build({
  ...SHARED_OPTIONS,
  entryPoints: [fileURLToPath(import.meta.resolve("zod/v4/locales/index.js"))],
  outfile: path.join(outdir, LAZY_LOCALES_FILE),
  format: "cjs",
});
// The gateway's start-up hold, shared by the bin and the CommonJS bundle (sharedStartupMemoryPlugin).
await build({
  ...SHARED_OPTIONS,
  entryPoints: ["src/gateway/startup-memory.ts"],
  outfile: path.join(outdir, STARTUP_MEMORY_FILE),
  format: "cjs",
});

// The ES-module bundle: the library entry, and the shims' `bundled/` twins.
const esm = await build({
  ...SHARED_OPTIONS,
  entryPoints: { index: "src/index.ts", ...shimEntryPoints() },
  outdir: "dist/bundle",
  splitting: true,
  format: "esm",
  external: EXTERNAL,
  plugins: [hostShimPlugin, ...PLUGINS],
  metafile: true,
  chunkNames: "[name]-[hash]", // beside the entry: dist/<dir>/<file>.js, the depth src/ paths like "../../package.json" assume
  // CommonJS dependencies bundled into ESM still call require() for builtins.
  banner: { js: 'import { createRequire as __openclawRequire } from "node:module"; const require = __openclawRequire(import.meta.url);' },
});
assertOneCopyOfShared(esm.metafile);

// The CommonJS bundle of the CLI: `runCli`, and the lookup of its host modules for the shims.
const cliFile = path.join(outdir, "cli.cjs");
const cjs = await build({
  ...SHARED_OPTIONS,
  stdin: {
    contents: `export { runCli } from "./src/cli/run.ts";\n${await hostModuleRegistration()}\n`,
    resolveDir: root,
    sourcefile: "cli-entry.js",
    loader: "js",
  },
  outfile: cliFile,
  format: "cjs",
  // Short names too (a third less text to read, hold and hash at every start): its stack traces
  // need the source map (NODE_OPTIONS=--enable-source-maps, which the bin then honours). That
  // holds for the gateway as well: the one stack trace it logs (a control method's unexpected
  // failure) names short functions unless source maps are on; its messages are unchanged.
  minifyIdentifiers: true,
  external: EXTERNAL,
  plugins: [sharedStartupMemoryPlugin, ...PLUGINS],
  metafile: true,
  define: {
    ...SHARED_OPTIONS.define,
    "import.meta.url": "__openclaw_import_meta_url",
    "import.meta.dirname": "__dirname",
    "import.meta.filename": "__filename",
  },
  logOverride: { "empty-import-meta": "error" }, // every use of import.meta needs a stand-in above
  banner: { js: 'var __openclaw_import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
});
assertOneCopyOfShared(cjs.metafile);
// The file holds the module's wrapper function itself (the bin compiles it as is, with no 2.6 MB
// string to concatenate first); the header shares the banner's line, so the source map's lines hold.
const cliCode = `${CLI_WRAPPER_HEAD}${routeDynamicImports(escapeNonAscii(readFileSync(cliFile, "utf8")))}\n})`;
new Script(cliCode, { filename: cliFile }); // still valid JavaScript (compiles; does not run)
writeFileSync(cliFile, cliCode);

// The bin, named for this build: its code-cache files are keyed by the CommonJS bundle's hash.
const buildId = createHash("sha256").update(cliCode).digest("hex").slice(0, 16);
const loaderSource = readFileSync(path.join(root, "scripts/bin-loader.cjs"), "utf8");
const loader = loaderSource.replace('const BUILD_ID = "__OPENCLAW_BUILD_ID__";', `const BUILD_ID = "${buildId}";`);
if (loader === loaderSource) throw new Error("scripts/bin-loader.cjs: the BUILD_ID line to fill in is missing");
writeFileSync(path.join(outdir, "openclaw.cjs"), loader);
// The bin's reads outside malloc, shared with the channels' library loader (the repository's scripts/lib).
copyFileSync(path.join(root, "../../scripts/lib/read-outside-malloc.cjs"), path.join(outdir, "read-outside-malloc.cjs"));
chmodSync(path.join(outdir, "openclaw.cjs"), 0o755);

await writeShimPackages(outdir);
