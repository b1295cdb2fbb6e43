// After tsc: bundles the `openclaw` CLI (and through it the gateway) with esbuild into
// dist/bundle/, so a command resolves a handful of files instead of hundreds. Lazy command
// imports stay lazy (code splitting: `--version` loads the entry chunk only). tsc's dist/ stays
// as it is: the library API and the tests use it. Source maps point at src/.
//
// External (loaded from node_modules as before):
// - @openclaw/plugin-sdk and zod: the host shares its copies with installed plugins
//   (plugins/host-links.ts), so `instanceof` and zod schemas stay one instance;
// - native or worker-based packages (better-sqlite3, pino) and heavy optional ones loaded lazily
//   (playwright-core, provider SDKs).
import { chmodSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

export const EXTERNAL = [
  "@openclaw/plugin-sdk",
  "@openclaw/plugin-sdk/*",
  "zod",
  "zod/*",
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
// Chunk names carry content hashes: without a clean folder every rebuild would leave the old ones
// behind (and in the published package).
rmSync(new URL("../dist/bundle/", import.meta.url), { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { openclaw: "src/cli/main.ts", index: "src/index.ts" },
  outdir: "dist/bundle",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20.19",
  sourcemap: "linked",
  sourcesContent: false, // stack traces need the mappings only; the published package has no src/
  external: EXTERNAL,
  chunkNames: "[name]-[hash]", // beside the entry: dist/<dir>/<file>.js, the depth src/ paths like "../../package.json" assume
  // CommonJS dependencies bundled into ESM still call require() for builtins.
  banner: { js: 'import { createRequire as __openclawRequire } from "node:module"; const require = __openclawRequire(import.meta.url);' },
  logLevel: "warning",
});
chmodSync(new URL("../dist/bundle/openclaw.js", import.meta.url), 0o755);
