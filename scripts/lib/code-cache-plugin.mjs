// For scripts/bundle-extension.mjs (`--code-cache <module>`): a module the extension imports (a
// platform library, or a file of the extension that only re-exports one) is bundled alone as
// CommonJS into dist/bundle/<name>.cjs, and every import of it in the extension's bundle gets a
// small ES module instead that loads that file through a V8 code cache
// (scripts/lib/code-cached-require.mjs, bundled in). ES modules cannot use a code cache on Node 20
// without an experimental flag; a CommonJS file compiled by `vm.Script` can.
//
// The library must be on its own: the build fails when the .cjs holds a file of the extension
// other than the module itself, or when the rest of the bundle also holds one of the library's
// files (two copies of one module would mean two states). Dynamic `import()`s inside the library
// become `require()`s (Node 20 loses a cached script's dynamic-import callback); an `import()`
// hidden in an `eval` string cannot be seen and fails at run time, as it would for a package
// that is not installed.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { escapeRegExp } from "./exact-filter.mjs";

const NAMESPACE = "openclaw-code-cache";
const RUNTIME = fileURLToPath(new URL("code-cached-require.mjs", import.meta.url));

/** The .cjs file's name for a module specifier: `./baileys.js` -> baileys, `@larksuiteoapi/node-sdk` -> larksuiteoapi-node-sdk. */
export function cachedFileName(specifier) {
  const base = specifier
    .replace(/^\.\//, "")
    .replace(/\.[cm]?[jt]s$/, "")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return `${base}.cjs`;
}

/** Inputs of a metafile that are files of packages (under node_modules/). */
const isPackageFile = (input) => input.includes("node_modules/");
// Files of the build's own plugins that a library's module is replaced with (e.g.
// protobuf-static-facade.cjs): library code too, not the extension's.
const HELPERS = path.dirname(fileURLToPath(import.meta.url));
const isLibraryFile = (input, workingDir) => isPackageFile(input) || path.resolve(workingDir, input).startsWith(`${HELPERS}${path.sep}`);

/**
 * Builds each module into `<outdir>/<name>.cjs` and returns the esbuild plugin for the main build,
 * `check(mainMetafile)`, which fails the build on shared files, and `merged(mainMetafile)`.
 * `hostShared`: the packages the host provides (kept external, never required from the .cjs);
 * `options`: the options every output of the extension shares (working folder, externals, --lazy
 * plugins, minify and source-map settings); `hideFetchGlobals`: those of `specifiers` whose
 * top-level code runs with the fetch API's globals undefined (code-cached-require.mjs).
 */
export async function codeCachePlugin({ outdir, specifiers, resolveDir, hostShared, options, hideFetchGlobals = [] }) {
  const notCached = hideFetchGlobals.filter((s) => !specifiers.includes(s));
  if (notCached.length)
    throw new Error(`--hide-fetch-globals ${notCached.join(", ")}: not a --code-cache module; add --code-cache ${notCached[0]}`);
  const modules = new Map();
  for (const specifier of specifiers) {
    const file = cachedFileName(specifier);
    const cjs = await build({
      ...options,
      stdin: { contents: `module.exports = require(${JSON.stringify(specifier)});`, resolveDir, sourcefile: `${file}-entry.js` },
      outfile: path.join(outdir, file),
      format: "cjs",
      supported: { "dynamic-import": false },
    });
    // The names the module exports as an ES module (none for a CommonJS package: `default` then).
    const esm = await build({
      ...options,
      stdin: { contents: `export * from ${JSON.stringify(specifier)};`, resolveDir, sourcefile: `${file}-names.js` },
      format: "esm",
      sourcemap: false,
      write: false,
      logLevel: "silent",
    });
    const names = Object.values(esm.metafile.outputs).flatMap((o) => o.exports);
    const inputs = Object.keys(cjs.metafile.inputs).filter((i) => !i.endsWith("-entry.js"));
    const own = inputs.filter((i) => !isLibraryFile(i, options.absWorkingDir));
    if (own.length > 1) {
      throw new Error(
        `--code-cache ${specifier}: ${file} would hold files of the extension besides the module itself (${own.join(", ")}), a second copy of their state. Import only the library in that module.`,
      );
    }
    // The host's packages (the SDK, zod) are ES modules the gateway shares with its plugins; a
    // CommonJS require() of them would load another copy.
    const hostImports = Object.values(cjs.metafile.outputs)
      .flatMap((o) => o.imports)
      .filter((i) => i.external && hostShared.some((name) => i.path === name || i.path.startsWith(`${name}/`)))
      .map((i) => i.path);
    if (hostImports.length) {
      throw new Error(
        `--code-cache ${specifier}: ${file} would require ${[...new Set(hostImports)].join(", ")}, which the gateway provides as ES modules (a require() would load a second copy). Import those outside that module.`,
      );
    }
    modules.set(specifier, {
      file,
      names,
      inputs: new Set(inputs.filter((i) => isLibraryFile(i, options.absWorkingDir))),
      metafile: cjs.metafile,
    });
  }
  // Candidates by name (a relative module may be imported as ../x.js from a subfolder), then kept
  // only when they resolve to the module's own file.
  const patterns = specifiers.map((s) => (s.startsWith(".") ? `(^|/)${escapeRegExp(path.posix.basename(s))}$` : `^${escapeRegExp(s)}$`));
  const filter = new RegExp(patterns.join("|"));
  const matchers = patterns.map((p) => new RegExp(p));
  const specifierOf = (requested) => specifiers.find((_, i) => matchers[i].test(requested));
  const plugin = {
    name: "code-cache",
    setup(b) {
      // The module itself, by its resolved path: the same specifier elsewhere (a library's own
      // `./x.js`) is another file.
      const targets = new Map();
      const resolved = async (args) => {
        const r = await b.resolve(args.path, {
          resolveDir: args.resolveDir,
          kind: args.kind,
          importer: args.importer,
          pluginData: { codeCacheResolve: true },
        });
        return r.errors.length ? undefined : r.path;
      };
      b.onResolve({ filter }, async (args) => {
        if (args.namespace === NAMESPACE || args.pluginData?.codeCacheResolve) return undefined;
        const specifier = specifierOf(args.path);
        if (specifier === undefined) return undefined;
        if (!targets.has(specifier)) targets.set(specifier, await resolved({ path: specifier, resolveDir, kind: "import-statement" }));
        const target = targets.get(specifier);
        return target && (await resolved(args)) === target ? { path: specifier, namespace: NAMESPACE } : undefined;
      });
      b.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => {
        const { file, names } = modules.get(args.path);
        const named = names.filter((n) => n !== "default");
        const lines = [
          `import { codeCachedRequire } from ${JSON.stringify(RUNTIME)};`,
          `const m = codeCachedRequire(new URL(${JSON.stringify(`./${file}`)}, import.meta.url)${hideFetchGlobals.includes(args.path) ? ", { hideFetchGlobals: true }" : ""});`,
          names.includes("default") ? "export default m.default;" : "export default m;",
        ];
        if (named.length) lines.push(`export const { ${named.join(", ")} } = m;`);
        return { contents: lines.join("\n"), resolveDir: path.dirname(RUNTIME), loader: "js" };
      });
    },
  };
  /** Fails when the main bundle holds a file that is also in one of the .cjs files. */
  function check(metafile) {
    for (const [specifier, { file, inputs }] of modules) {
      const shared = Object.keys(metafile.inputs).filter((i) => inputs.has(i));
      if (shared.length) {
        throw new Error(
          `--code-cache ${specifier}: the bundle imports files of ${file} by another path too (${shared.slice(0, 3).join(", ")}${shared.length > 3 ? ", ..." : ""}): two copies of one module. Import them only through ${specifier}.`,
        );
      }
    }
  }
  /** The main build's metafile with the .cjs files' inputs and outputs added (for notices and import checks). */
  function merged(metafile) {
    const all = [metafile, ...[...modules.values()].map((m) => m.metafile)];
    return { inputs: Object.assign({}, ...all.map((m) => m.inputs)), outputs: Object.assign({}, ...all.map((m) => m.outputs)) };
  }
  return { plugin, check, merged };
}
