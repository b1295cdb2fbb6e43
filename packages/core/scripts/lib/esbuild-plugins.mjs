// esbuild plugins of the `openclaw` bundles (scripts/bundle.mjs): each keeps something a command
// rarely needs out of its start-up, loading it on first use instead.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** packages/core: where the stand-in modules resolve their imports from. */
const root = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Source of a module whose exported functions `names` load `specifier` (a require() path, from the
 * bundle's folder) on their first call and forward to it.
 */
function lazyFunctionsModule(specifier, names) {
  return [
    'import { createRequire } from "node:module";',
    "let real;",
    `const load = () => (real ??= createRequire(import.meta.url)(${JSON.stringify(specifier)}));`,
    ...names.map((name) => `export function ${name}(...args) { return load().${name}(...args); }`),
  ];
}

/** The file (beside the bundle) that holds zod's non-English locales. */
export const LAZY_LOCALES_FILE = "zod-locales.cjs";

/**
 * zod's locales (the error messages in ~50 languages, a third of zod's code) are rarely used and
 * would be parsed at every start: `zod/v4/locales/index.js`, as zod's own modules import it, is
 * replaced by a module whose functions load `zod-locales.cjs` (built by scripts/bundle.mjs) on their first call.
 * English, zod's default, stays in the bundle as it is.
 */
export const lazyZodLocalesPlugin = {
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
        ...lazyFunctionsModule(
          `./${LAZY_LOCALES_FILE}`,
          names.filter((n) => n !== "en"),
        ),
        `export { default as en } from ${JSON.stringify(path.join(path.dirname(args.path), "en.js"))};`,
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
export const lazySqlitePlugin = {
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
export const lazyChildProcessForCommanderPlugin = {
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

/**
 * Builtins that are many internal modules for Node to compile when they load: node:crypto (~15,
 * ~8 ms) and node:fs/promises (with its streams and readline, ~4 ms). Core's modules import them
 * at the top for an occasional hash, UUID or file write, so every command paid for them. Core's
 * own imports of these get a stand-in whose functions load the builtin on their first call. Only
 * functions are offered (lower-case names: not classes, whose `new` and `instanceof` a wrapper
 * would break): importing anything else from them fails the build.
 */
export const lazyBuiltinsPlugin = {
  name: "openclaw-lazy-builtins",
  setup(b) {
    b.onResolve({ filter: /^(node:)?(crypto|fs\/promises)$/ }, (args) =>
      args.kind === "import-statement" && !/[\\/]node_modules[\\/]/.test(args.importer)
        ? { path: args.path.replace(/^node:/, ""), namespace: "lazy-builtin" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "lazy-builtin" }, async (args) => {
      const builtin = await import(`node:${args.path}`);
      const names = Object.keys(builtin).filter((name) => /^[a-z]/.test(name) && typeof builtin[name] === "function");
      return { contents: lazyFunctionsModule(`node:${args.path}`, names).join("\n"), resolveDir: root, loader: "js" };
    });
  },
};

/**
 * The SDK reads its version from its own package.json by a path relative to its module; bundled,
 * that path would lead from the bundle's folder to core's package.json (core and the SDK are
 * released independently). The build writes the SDK's version in instead.
 */
export const sdkVersionPlugin = {
  name: "openclaw-sdk-version",
  setup(b) {
    const expression = 'createRequire(import.meta.url)("../../package.json").version';
    b.onLoad({ filter: /[\\/]plugin-sdk[\\/]dist[\\/]channel[\\/]define\.js$/ }, async (args) => {
      const code = await readFile(args.path, "utf8");
      if (!code.includes(expression)) throw new Error(`${args.path}: expected \`${expression}\` (the SDK's version) to replace`);
      const { version } = JSON.parse(await readFile(path.join(path.dirname(args.path), "../../package.json"), "utf8"));
      return { contents: code.replace(expression, JSON.stringify(version)), loader: "js" };
    });
  },
};

/** The file (beside the bundle) that holds gateway/startup-memory.ts, which the bin requires too. */
export const STARTUP_MEMORY_FILE = "startup-memory.cjs";

/**
 * The CommonJS bundle requires `startup-memory.cjs` instead of holding its own copy of
 * gateway/startup-memory.ts: the bin starts the gateway's start-up hold before the bundle is
 * compiled (scripts/bin-loader.cjs), and the gateway's command then joins that same hold, which
 * takes one instance of the module's state.
 */
export const sharedStartupMemoryPlugin = {
  name: "openclaw-shared-startup-memory",
  setup(b) {
    const source = path.join(root, "src", "gateway", "startup-memory.ts");
    b.onResolve({ filter: /(^|[\\/])startup-memory\.js$/ }, (args) =>
      path.resolve(args.resolveDir, args.path.replace(/\.js$/, ".ts")) === source
        ? { path: `./${STARTUP_MEMORY_FILE}`, external: true }
        : undefined,
    );
  },
};
