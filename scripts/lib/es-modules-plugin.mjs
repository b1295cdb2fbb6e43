// An esbuild plugin for scripts/bundle-extension.mjs (`--es-modules <package>`): the package is
// bundled from its ES modules (its package.json `module` entry) instead of its CommonJS `main`, so
// esbuild leaves out what the extension does not import (the Lark SDK: 0.6 MB with its long
// connection alone, against 2.7 MB for its whole CommonJS build). For libraries that ship both
// builds without an `exports` map, where esbuild's node default takes `main`.
import { readFileSync } from "node:fs";
import path from "node:path";
import { exactFilter } from "./exact-filter.mjs";

/** The plugin for these package names (exact specifiers). */
export function esModulesPlugin(names) {
  const filter = exactFilter(names);
  return {
    name: "es-modules",
    setup(build) {
      build.onResolve({ filter }, async (args) => {
        if (args.pluginData?.esModulesResolve) return undefined;
        const manifest = await build.resolve(`${args.path}/package.json`, {
          resolveDir: args.resolveDir,
          kind: "require-call",
          pluginData: { esModulesResolve: true },
        });
        if (manifest.errors.length > 0) return { errors: manifest.errors };
        const entry = JSON.parse(readFileSync(manifest.path, "utf8")).module;
        if (typeof entry !== "string") {
          return { errors: [{ text: `--es-modules ${args.path}: its package.json has no "module" entry; drop the option` }] };
        }
        return { path: path.join(path.dirname(manifest.path), entry) };
      });
    },
  };
}
