// The host shim packages (dist/bundle/host/zod and dist/bundle/host/plugin-sdk). The bin carries
// its own zod and @openclaw/plugin-sdk; installed plugins must get exactly those instances
// (`instanceof` on the SDK's errors, one zod), so plugins/host-links.ts links these packages into
// <stateDir>/extensions/node_modules when it runs from the bin (`__OPENCLAW_HOST_PACKAGES__`).
//
// The bin runs one of two bundles (scripts/bin-loader.cjs): the ES-module one (the gateway) or the
// CommonJS one (every other command). Each entry file of a shim package therefore exports the
// module of whichever bundle runs: the CommonJS bundle registers a lookup of its modules at
// `globalThis[Symbol.for("openclaw.hostModule")]`; without it (the gateway, or a process that is not
// the bin) the file imports its twin under `bundled/`, an entry of the ES-module build that
// re-exports that build's own chunks.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const HOST_MODULE_KEY = "openclaw.hostModule";

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

/** Every module specifier a shim package stands for. */
export const HOST_SPECIFIERS = HOST_SHIMS.flatMap((shim) => Object.values(shim.exports));

/** `./v4/core` -> `v4_core` (file name in the shim package, no extension). */
const shimFile = (subpath) => (subpath === "." ? "index" : subpath.slice(2).replace(/\.js$/, "").replaceAll("/", "_"));

/** Entry points of the ES-module build: `host/<dir>/bundled/<file>` -> a module re-exporting the specifier. */
export function shimEntryPoints() {
  const entries = {};
  for (const shim of HOST_SHIMS) {
    for (const [subpath, specifier] of Object.entries(shim.exports)) {
      entries[`host/${shim.dir}/bundled/${shimFile(subpath)}`] = `openclaw-host-shim:${specifier}`;
    }
  }
  return entries;
}

/** Serves `openclaw-host-shim:<specifier>` as a module re-exporting everything `<specifier>` exports. */
export const hostShimPlugin = {
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
      return { contents: lines.join("\n"), resolveDir: b.initialOptions.absWorkingDir, loader: "js" };
    });
  },
};

/**
 * Modules whose instance does not matter, which the CommonJS bundle therefore does not carry (the
 * shims import the ES-module twins): zod's locales (functions returning message tables; the
 * ~50 non-English ones are a third of zod) and zod/v3 (its own API, sharing nothing with v4).
 */
const IDENTITY_FREE = /^zod\/(v3|locales|v4\/locales(\/.*)?)$/;

/**
 * Source of the CommonJS bundle's registration of its host modules: `import()` of a bundled
 * module resolves to the bundle's own instance (its namespace; the module is evaluated on first
 * use), so every specifier maps to what the bundle itself uses. Specifiers whose modules export
 * exactly the same values (zod and zod/v4; zod/mini, zod/v4/mini and zod/v4-mini) share one
 * namespace: each namespace the bundle carries costs every command a getter per export at start.
 */
export async function hostModuleRegistration() {
  const carried = [];
  const cases = [];
  for (const specifier of HOST_SPECIFIERS.filter((s) => !IDENTITY_FREE.test(s))) {
    const mod = await import(specifier);
    const same = carried.find((c) => sameExports(c.mod, mod));
    if (!same) carried.push({ specifier, mod });
    cases.push(`    case ${JSON.stringify(specifier)}: return import(${JSON.stringify(same?.specifier ?? specifier)});`);
  }
  return [
    `globalThis[Symbol.for(${JSON.stringify(HOST_MODULE_KEY)})] = (specifier) => {`,
    "  switch (specifier) {",
    ...cases,
    "    default: return undefined;",
    "  }",
    "};",
  ].join("\n");
}

function sameExports(a, b) {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
}

/** One shim entry file: the running bundle's module, exported under each of its names. */
async function entryFile(specifier, file) {
  const names = Object.keys(await import(specifier));
  const locals = names.map((name, i) => [`e${i}`, name]);
  return [
    `const m = await (globalThis[Symbol.for(${JSON.stringify(HOST_MODULE_KEY)})]?.(${JSON.stringify(specifier)}) ?? import("./bundled/${file}.js"));`,
    `const { ${locals.map(([local, name]) => `${JSON.stringify(name)}: ${local}`).join(", ")} } = m;`,
    `export { ${locals.map(([local, name]) => `${local} as ${JSON.stringify(name)}`).join(", ")} };`,
    "",
  ].join("\n");
}

/** Writes each shim package's package.json and entry files into `outdir`/host. */
export async function writeShimPackages(outdir) {
  for (const shim of HOST_SHIMS) {
    const realPkg = JSON.parse(readFileSync(fileURLToPath(import.meta.resolve(`${shim.real}/package.json`)), "utf8"));
    const dir = path.join(outdir, "host", shim.dir);
    mkdirSync(dir, { recursive: true });
    const exports = {};
    for (const [subpath, specifier] of Object.entries(shim.exports)) {
      const file = shimFile(subpath);
      writeFileSync(path.join(dir, `${file}.js`), await entryFile(specifier, file));
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
      description: `This OpenClaw's bundled ${realPkg.name}, shared with installed plugins (re-exports the running bin's own modules).`,
      type: "module",
      exports: { ...exports, "./package.json": "./package.json" },
    };
    writeFileSync(path.join(dir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  }
}
