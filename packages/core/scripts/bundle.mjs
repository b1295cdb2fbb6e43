// After tsc: bundles the `openclaw` CLI (and through it the gateway) with esbuild into
// dist/bundle/, so a command resolves a handful of files instead of hundreds. Lazy command
// imports stay lazy (code splitting: `--version` loads the entry chunk only). tsc's dist/ stays
// as it is: the library API and the tests use it. Source maps point at src/.
//
// zod and @openclaw/plugin-sdk are bundled too (loading them from node_modules was most of a
// command's start-up: ~120 files through the ESM loader). Installed plugins must still share the
// host's copies (`instanceof` on the SDK's errors, one zod), so the build also writes shim
// packages, dist/bundle/host/zod and dist/bundle/host/plugin-sdk: a package.json naming the real
// package and version, and entry files that re-export the very chunks the bin uses.
// plugins/host-links.ts links those shims into <stateDir>/extensions/node_modules when it runs
// from the bundle (`__OPENCLAW_HOST_PACKAGES__` below), and the real packages when it runs from
// tsc's dist.
//
// External (loaded from node_modules as before): native or worker-based packages (better-sqlite3,
// pino) and heavy optional ones loaded lazily (playwright-core, provider SDKs).
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

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

const zodLocaleFiles = readdirSync(path.dirname(fileURLToPath(import.meta.resolve("zod/v4/locales/index.js")))).filter(
  (f) => f.endsWith(".js") && f !== "index.js",
);

/**
 * The shim packages: for each, its folder under dist/bundle/host, the real package it stands for,
 * and its `exports` (subpath -> the module it re-exports; zod's are all of zod's own subpaths).
 * `require` of a zod subpath (a CommonJS plugin) gets zod's CommonJS build from core's own
 * dependency, as it did before the bin bundled zod; the SDK has no CommonJS build.
 */
export const HOST_SHIMS = [
  {
    dir: "zod",
    real: "zod",
    requireFromCore: true,
    exports: Object.fromEntries(
      [".", "./v4", "./v4/core", "./mini", "./v4/mini", "./v4-mini", "./locales", "./v4/locales", "./v3", "./compile"]
        .concat(zodLocaleFiles.map((f) => `./v4/locales/${f}`))
        .map((subpath) => [subpath, subpath === "." ? "zod" : `zod/${subpath.slice(2)}`]),
    ),
  },
  {
    dir: "plugin-sdk",
    real: "@openclaw/plugin-sdk",
    exports: { ".": "@openclaw/plugin-sdk", "./config": "@openclaw/plugin-sdk/config", "./testing": "@openclaw/plugin-sdk/testing" },
  },
];

const root = fileURLToPath(new URL("..", import.meta.url));
const outdir = path.join(root, "dist/bundle");
/** `./v4/core` -> `v4_core` (file name in the shim package, no extension). */
const shimFile = (subpath) => (subpath === "." ? "index" : subpath.slice(2).replace(/\.js$/, "").replaceAll("/", "_"));
const shimEntries = {};
for (const shim of HOST_SHIMS) {
  for (const [subpath, specifier] of Object.entries(shim.exports)) {
    shimEntries[`host/${shim.dir}/${shimFile(subpath)}`] = `openclaw-host-shim:${specifier}`;
  }
}

/** Serves `openclaw-host-shim:<specifier>` as a module re-exporting everything `<specifier>` exports. */
const hostShimPlugin = {
  name: "openclaw-host-shim",
  setup(b) {
    b.onResolve({ filter: /^openclaw-host-shim:/ }, (args) => ({
      path: args.path.slice("openclaw-host-shim:".length),
      namespace: "host-shim",
    }));
    b.onLoad({ filter: /.*/, namespace: "host-shim" }, async (args) => {
      const mod = await import(args.path);
      const lines = [`export * from ${JSON.stringify(args.path)};`];
      if ("default" in mod) lines.push(`export { default } from ${JSON.stringify(args.path)};`);
      return { contents: lines.join("\n"), resolveDir: root, loader: "js" };
    });
  },
};

/**
 * zod's locales (the error messages in ~50 languages, a third of zod's code) are rarely used and
 * would be parsed at every start: `zod/v4/locales/index.js`, as zod's own modules import it, is
 * replaced by a module whose functions load `zod-locales.cjs` (built below) on their first call.
 * English, zod's default, stays in the bundle as it is.
 */
const LAZY_LOCALES_FILE = "zod-locales.cjs";
const lazyZodLocalesPlugin = {
  name: "openclaw-lazy-zod-locales",
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core|mini)[\\/]/.test(args.importer)
        ? { path: path.join(path.dirname(args.importer), args.path), namespace: "lazy-zod-locales" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "lazy-zod-locales" }, async (args) => {
      const names = Object.keys(await import(pathToFileURL(args.path).href));
      const lines = [
        'import { createRequire } from "node:module";',
        `const file = ${JSON.stringify(`./${LAZY_LOCALES_FILE}`)};`,
        "let loaded;",
        "const load = () => (loaded ??= createRequire(import.meta.url)(file));",
        `export { default as en } from ${JSON.stringify(path.join(path.dirname(args.path), "en.js"))};`,
        ...names.filter((n) => n !== "en").map((n) => `export function ${n}(...args) { return load().${n}(...args); }`),
      ];
      return { contents: lines.join("\n"), resolveDir: path.dirname(args.path), loader: "js" };
    });
  },
};

/**
 * Lazy SQLite: core's modules `import Database from "better-sqlite3"` (the only form they use) at
 * the top, so every command that merely might open a database paid for loading better-sqlite3
 * and its native add-on (~25 ms: the CommonJS translator, `bindings` probing for the .node file).
 * In the bin that import gets a stand-in: the same constructor (`new Database(...)`,
 * `instanceof`, static members) that requires the real package on first use.
 */
const lazySqlitePlugin = {
  name: "openclaw-lazy-better-sqlite3",
  setup(b) {
    b.onResolve({ filter: /^better-sqlite3$/ }, () => ({ path: "better-sqlite3", namespace: "lazy-sqlite" }));
    b.onLoad({ filter: /.*/, namespace: "lazy-sqlite" }, () => ({
      contents: [
        'import { createRequire } from "node:module";',
        "let real;",
        'const load = () => (real ??= createRequire(import.meta.url)("better-sqlite3"));',
        "const Database = new Proxy(function Database() {}, {",
        "  construct: (_target, args) => new (load())(...args),",
        "  apply: (_target, self, args) => load().apply(self, args),",
        "  get: (_target, key) => Reflect.get(load(), key),",
        "  has: (_target, key) => Reflect.has(load(), key),",
        "});",
        "export default Database;",
      ].join("\n"),
      resolveDir: root,
      loader: "js",
    }));
  },
};

/**
 * commander requires node:child_process when it loads (for executable subcommands, which the CLI
 * does not use); loading that builtin costs a few ms on every command. Commander gets a stand-in
 * that requires it on first use.
 */
const lazyChildProcessForCommanderPlugin = {
  name: "openclaw-lazy-child-process-for-commander",
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: "child_process", namespace: "lazy-child-process" } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "lazy-child-process" }, () => ({
      contents: 'let real; module.exports = new Proxy({}, { get: (_t, key) => (real ??= require("node:child_process"))[key] });',
      resolveDir: root,
      loader: "js",
    }));
  },
};

/** Options both builds (the zod locales file and the bin) share. */
const SHARED_OPTIONS = {
  bundle: true,
  platform: "node",
  target: "node20.19",
  sourcemap: "linked",
  sourcesContent: false, // stack traces need the mappings only; the published package has no src/
  // Less text for V8 to parse at start-up (compiling the chunks is a large part of a command's
  // time). Identifiers stay as written, so stack traces read well even without the source maps.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: "warning",
};

rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: [fileURLToPath(import.meta.resolve("zod/v4/locales/index.js"))],
  outfile: path.join(outdir, LAZY_LOCALES_FILE),
  format: "cjs",
  ...SHARED_OPTIONS,
});
const result = await build({
  absWorkingDir: root,
  entryPoints: { openclaw: "src/cli/main.ts", index: "src/index.ts", ...shimEntries },
  outdir: "dist/bundle",
  splitting: true,
  format: "esm",
  ...SHARED_OPTIONS,
  external: EXTERNAL,
  plugins: [hostShimPlugin, lazyZodLocalesPlugin, lazySqlitePlugin, lazyChildProcessForCommanderPlugin],
  metafile: true,
  define: { __OPENCLAW_HOST_PACKAGES__: JSON.stringify("host") },
  chunkNames: "[name]-[hash]", // beside the entry: dist/<dir>/<file>.js, the depth src/ paths like "../../package.json" assume
  // CommonJS dependencies bundled into ESM still call require() for builtins.
  banner: { js: 'import { createRequire as __openclawRequire } from "node:module"; const require = __openclawRequire(import.meta.url);' },
});
chmodSync(path.join(outdir, "openclaw.js"), 0o755);

// One copy of each shared package in the bundle: two would mean two instances again.
for (const shim of HOST_SHIMS) {
  const marker = `node_modules/${shim.real}/`;
  const copies = new Set(
    Object.keys(result.metafile.inputs)
      .filter((input) => input.includes(marker) && !/^[\w-]+:/.test(input)) // not a plugin's virtual module
      .map((input) => input.slice(0, input.indexOf(marker) + marker.length)),
  );
  if (copies.size > 1) throw new Error(`the bundle holds ${copies.size} copies of ${shim.real}: ${[...copies].join(", ")}`);
}

for (const shim of HOST_SHIMS) {
  const realPkg = JSON.parse(readFileSync(fileURLToPath(import.meta.resolve(`${shim.real}/package.json`)), "utf8"));
  const dir = path.join(outdir, "host", shim.dir);
  mkdirSync(dir, { recursive: true });
  const exports = {};
  for (const [subpath, specifier] of Object.entries(shim.exports)) {
    const file = shimFile(subpath);
    if (!shim.requireFromCore) {
      exports[subpath] = `./${file}.js`;
      continue;
    }
    // dist/bundle/host/<dir> -> the package root of @openclaw/core, whose dependency this is.
    const forward = `const { createRequire } = require("node:module");\nconst core = require("node:path").join(__dirname, "..", "..", "..", "..", "package.json");\nmodule.exports = require(createRequire(core).resolve(${JSON.stringify(specifier)}));\n`;
    writeFileSync(path.join(dir, `${file}.cjs`), forward);
    exports[subpath] = { import: `./${file}.js`, require: `./${file}.cjs` };
  }
  const pkg = {
    name: realPkg.name,
    version: realPkg.version,
    description: `This OpenClaw's bundled ${realPkg.name}, shared with installed plugins (re-exports the bin's own modules).`,
    type: "module",
    exports: { ...exports, "./package.json": "./package.json" },
  };
  writeFileSync(path.join(dir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
}
