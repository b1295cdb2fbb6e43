#!/usr/bin/env node
// After tsc: bundles a channel extension with its platform library (esbuild) into dist/bundle/,
// the files the published package runs (`exports` and `openclaw.plugin.entry` point there). One
// file per entry plus shared chunks resolves and compiles several times faster than the library's
// hundreds of modules through Node's loader, and npm installs none of the library's dependency
// tree (development configs, type packages, optional decoders the channel never loads).
//
// Stays external (a bare import the host or npm resolves):
// - @openclaw/plugin-sdk and zod: the gateway's own copies (one instance for `instanceof` and schemas);
// - what the extension names with --external (packages that load files by path, like WebAssembly,
//   and optional ones the library loads when installed), which must then be one of its
//   dependencies or peer dependencies: the build fails otherwise;
// - what it names with --optional: packages the library imports only when the user installed them
//   (e.g. baileys' sharp and jimp for thumbnails), left for Node to find at run time or not.
// --lazy <package>: bundled, but the library's `require("<package>")` returns a stand-in that runs
// the package's code on first use (scripts/lib/lazy-require-plugin.mjs): for packages a library
// requires at the top and uses only in some calls, so loading the channel does not evaluate them.
// --es-modules <package>: the package is bundled from its ES modules (`module` entry), so what the
// extension does not import is left out (scripts/lib/es-modules-plugin.mjs).
// --code-cache <module>: a module the extension imports (a large platform library, or a file of
// the extension that only re-exports one) is bundled alone as CommonJS into dist/bundle/<name>.cjs
// and loaded through a V8 code cache, which skips most of its compile time at later starts
// (scripts/lib/code-cache-plugin.mjs).
// --hide-fetch-globals <module>: a --code-cache module whose top-level code runs with the fetch
// API's globals (fetch, Request, Response, Headers, FormData) undefined: for libraries that only
// feature-detect them at load (axios), so loading them does not make Node load undici.
// Minified (whitespace and syntax; names kept) with linked source maps without sources: loaded
// source text stays in V8's heap, so less of it is less memory; `--enable-source-maps` maps stack
// traces back to the libraries' own files. The licences of the bundled packages go to
// dist/bundle/THIRD-PARTY-NOTICES.md.
//
//   node ../../scripts/bundle-extension.mjs [--external <package>]... [--optional <package>]... [--lazy <package>]...
//     [--es-modules <package>]... [--code-cache <module>]...
//   (in the extension's folder)
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";
import { codeCachePlugin } from "./lib/code-cache-plugin.mjs";
import { esModulesPlugin } from "./lib/es-modules-plugin.mjs";
import { lazyRequirePlugin } from "./lib/lazy-require-plugin.mjs";

const { values } = parseArgs({
  options: {
    external: { type: "string", multiple: true, default: [] },
    optional: { type: "string", multiple: true, default: [] },
    lazy: { type: "string", multiple: true, default: [] },
    "code-cache": { type: "string", multiple: true, default: [] },
    "es-modules": { type: "string", multiple: true, default: [] },
    "hide-fetch-globals": { type: "string", multiple: true, default: [] },
  },
});
const root = process.cwd();
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
const outdir = path.join(root, "dist/bundle");
const HOST_SHARED = ["@openclaw/plugin-sdk", "zod"];
const externalNames = [...HOST_SHARED, ...values.external];
const external = [...externalNames, ...values.optional].flatMap((name) => [name, `${name}/*`]);

const libraryPlugins = [
  ...(values.lazy.length > 0 ? [lazyRequirePlugin(values.lazy)] : []),
  ...(values["es-modules"].length > 0 ? [esModulesPlugin(values["es-modules"])] : []),
];
// The options of every output: the channel's ES modules and the code-cached CommonJS libraries.
const COMMON_OPTIONS = {
  absWorkingDir: root,
  bundle: true,
  platform: "node",
  target: "node20.19",
  external,
  metafile: true,
  keepNames: true, // libraries compare constructor names (node-fetch: "AbortSignal"); renaming breaks them
  legalComments: "none", // collected whole in THIRD-PARTY-NOTICES.md instead
  // Whitespace and syntax minified, names kept: V8 keeps every loaded module's source text in the
  // heap, so a third less source is a third less of that memory (WhatsApp's bundle: 6.5 -> 4.0 MB,
  // the heap after loading it 26 -> 18 MB). Linked source maps (mappings only, like core's bin):
  // `NODE_OPTIONS=--enable-source-maps` maps stack traces back to the libraries' files and lines.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: "linked",
  sourcesContent: false,
  plugins: libraryPlugins,
  logLevel: "warning",
};

rmSync(outdir, { recursive: true, force: true });
const codeCache =
  values["code-cache"].length > 0 || values["hide-fetch-globals"].length > 0
    ? await codeCachePlugin({
        outdir,
        specifiers: values["code-cache"],
        hostShared: HOST_SHARED,
        resolveDir: path.join(root, "src"),
        options: COMMON_OPTIONS,
        hideFetchGlobals: values["hide-fetch-globals"],
      })
    : undefined;
const result = await build({
  ...COMMON_OPTIONS,
  entryPoints: { index: "src/index.ts", config: "src/config.ts" },
  outdir: "dist/bundle",
  splitting: true,
  format: "esm",
  chunkNames: "[name]-[hash]",
  // CommonJS libraries bundled into ESM still use require() for Node's built-ins, and __dirname.
  inject: [fileURLToPath(new URL("lib/esm-dirname-shim.mjs", import.meta.url))],
  define: { __dirname: "__openclawDirname", __filename: "__openclawFilename" },
  banner: { js: 'import { createRequire as __openclawRequire } from "node:module"; const require = __openclawRequire(import.meta.url);' },
  plugins: [...(codeCache ? [codeCache.plugin] : []), ...libraryPlugins],
});

codeCache?.check(result.metafile);
const metafile = codeCache ? codeCache.merged(result.metafile) : result.metafile;
checkImports(metafile);
writeNotices(metafile);

/** Every bare import left in the bundle must be a built-in or a (peer) dependency of the package. */
function checkImports(metafile) {
  const provided = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]);
  const builtins = new Set(builtinModules);
  const missing = new Set();
  for (const [file, output] of Object.entries(metafile.outputs)) {
    for (const { path: specifier, external } of output.imports) {
      if (!external || specifier.startsWith("node:") || builtins.has(specifier)) continue;
      const parts = specifier.split("/");
      const name = specifier.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
      // Other external imports are ones esbuild could not resolve inside a try/catch: optional
      // packages the library uses when installed (e.g. ws's bufferutil).
      if (externalNames.includes(name) && !provided.has(name)) missing.add(`${name} (${path.basename(file)})`);
    }
  }
  if (missing.size) {
    console.error(`${pkg.name}: dist/bundle imports packages that ${path.join(root, "package.json")} does not list in`);
    console.error(`"dependencies" or "peerDependencies": ${[...missing].join(", ")}.`);
    console.error("Add them there, or let scripts/bundle-extension.mjs bundle them (drop their --external).");
    process.exit(1);
  }
}

/** The name, version, licence and licence text of every package whose code is in the bundle. */
function writeNotices(metafile) {
  const packages = new Map();
  for (const input of Object.keys(metafile.inputs)) {
    const at = input.lastIndexOf("node_modules/");
    if (at < 0) continue;
    const rest = input.slice(at + "node_modules/".length).split("/");
    const name = rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
    const dir = path.resolve(root, input.slice(0, at + "node_modules/".length) + name);
    if (!packages.has(name)) packages.set(name, dir);
  }
  const sections = [...packages.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, dir]) => {
      const meta = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
      const licenceFile = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
      const text = licenceFile && existsSync(path.join(dir, licenceFile)) ? readFileSync(path.join(dir, licenceFile), "utf8").trim() : "";
      return `## ${name}@${meta.version} (${meta.license ?? "see package"})\n\n${text || "(no licence file in the package)"}\n`;
    });
  writeFileSync(
    path.join(outdir, "THIRD-PARTY-NOTICES.md"),
    `# Third-party notices for ${pkg.name}\n\ndist/bundle/ contains code of these packages, under their licences.\n\n${sections.join("\n")}`,
  );
}
