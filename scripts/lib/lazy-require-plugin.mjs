// An esbuild plugin for scripts/bundle-extension.mjs (`--lazy <package>`): a CommonJS
// `require("<package>")` inside the bundled library returns a stand-in, and the package's code runs
// on the first use of the stand-in (a property read, a call), not when the requiring module loads.
// For packages a library requires at the top but uses only in some calls (e.g. Baileys requires
// axios for media and version checks, never to connect): start-up skips evaluating them.
//
// Only `require()` calls are redirected (an `import` of the package stays as it is), and only for
// packages that are plain CommonJS (no `__esModule` flag: the stand-in answers that flag without
// loading, and the build checks it by loading the package once). Everything reached through the
// stand-in is the real module's: `stand.get(...)`, `stand(...)`, `new stand.Axios()`, `key in
// stand`, `Object.keys(stand)` (which loads it).
import { createRequire } from "node:module";
import { exactFilter } from "./exact-filter.mjs";

const NAMESPACE = "openclaw-lazy-require";

/** The plugin for these package names (exact specifiers, as the library writes them). */
export function lazyRequirePlugin(names) {
  const filter = exactFilter(names);
  return {
    name: "lazy-require",
    setup(build) {
      build.onResolve({ filter }, async (args) => {
        // Skipped: imports, the stand-in's own require, and the nested resolve below (which runs
        // this callback again).
        if (args.kind !== "require-call" || args.namespace === NAMESPACE || args.pluginData?.lazyResolve) return undefined;
        const real = await build.resolve(args.path, {
          resolveDir: args.resolveDir,
          kind: args.kind,
          importer: args.importer,
          pluginData: { lazyResolve: true },
        });
        if (real.errors.length > 0) return { errors: real.errors };
        return { path: real.path, namespace: NAMESPACE, pluginData: { specifier: args.path, resolveDir: args.resolveDir } };
      });
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => {
        const real = createRequire(args.path)(args.path);
        if (real?.__esModule) {
          return {
            errors: [
              {
                text: `--lazy ${args.pluginData.specifier}: ${args.path} sets __esModule; only plain CommonJS packages can be required lazily. Drop the --lazy.`,
              },
            ],
          };
        }
        const shape = { isFunction: typeof real === "function", hasDefault: real != null && "default" in Object(real) };
        return { contents: standIn(args.path, shape), resolveDir: args.pluginData.resolveDir, loader: "js" };
      });
    },
  };
}

/**
 * The stand-in module: a Proxy that requires the real module (bundled by its path) on first use.
 * `__esModule` and `"default" in` (what CommonJS interop helpers ask at require time, e.g.
 * node-fetch's `_interopDefault`) are answered from the build's look at the module, without loading.
 */
function standIn(realPath, { isFunction, hasDefault }) {
  return `let real;
const load = () => (real ??= require(${JSON.stringify(realPath)}));
const target = ${isFunction ? "function () {}" : "{}"};
const configurable = (d) => (d === undefined ? d : { ...d, configurable: true });
module.exports = new Proxy(target, {
  get: (_, key) => (key === "__esModule" ? undefined : Reflect.get(load(), key)),
  set: (_, key, value) => Reflect.set(load(), key, value),
  has: (_, key) => (key === "__esModule" ? false : key === "default" && real === undefined ? ${hasDefault} : Reflect.has(load(), key)),
  ownKeys: () => [...new Set([...Reflect.ownKeys(load()), ...Reflect.ownKeys(target).filter((k) => !Reflect.getOwnPropertyDescriptor(target, k).configurable)])],
  getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(target, key)?.configurable === false ? Reflect.getOwnPropertyDescriptor(target, key) : configurable(Reflect.getOwnPropertyDescriptor(load(), key)),
  getPrototypeOf: () => Reflect.getPrototypeOf(load()),
  apply: (_, self, args) => Reflect.apply(load(), self, args),
  construct: (_, args) => Reflect.construct(load(), args),
});
`;
}
