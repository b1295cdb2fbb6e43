// `scripts/bundle-extension.mjs --code-cache <module>` on a small extension: the module is bundled
// alone as dist/bundle/<name>.cjs, the extension's imports of it (static and dynamic) load that file
// through the code cache, and a module that would be in two copies fails the build.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const BUNDLE_EXTENSION = fileURLToPath(new URL("../bundle-extension.mjs", import.meta.url));

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** An extension folder: package.json, src/*.ts, and node_modules/big-lib (CommonJS, with state). */
function extension(src: Record<string, string>): string {
  dir = mkdtempSync(path.join(tmpdir(), "code-cache-plugin-"));
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "fixture-extension", version: "1.0.0", type: "module" }));
  mkdirSync(path.join(dir, "node_modules", "big-lib"), { recursive: true });
  writeFileSync(
    path.join(dir, "node_modules", "big-lib", "package.json"),
    JSON.stringify({ name: "big-lib", version: "2.0.0", license: "MIT", main: "index.js" }),
  );
  writeFileSync(path.join(dir, "node_modules", "big-lib", "LICENSE"), "MIT licence of big-lib");
  writeFileSync(
    path.join(dir, "node_modules", "big-lib", "index.js"),
    `let created = 0;
exports.create = () => ++created;
exports.VERSION = "2.0.0";
exports.later = () => import("node:path").then((p) => typeof p.join);
`,
  );
  mkdirSync(path.join(dir, "src"));
  writeFileSync(path.join(dir, "src", "config.ts"), "export default {};\n");
  for (const [name, text] of Object.entries(src)) {
    mkdirSync(path.dirname(path.join(dir, "src", name)), { recursive: true });
    writeFileSync(path.join(dir, "src", name), text);
  }
  return dir;
}

function bundle(root: string, args: string[]) {
  return spawnSync(process.execPath, [BUNDLE_EXTENSION, ...args], { cwd: root, encoding: "utf8" });
}

function runEntry(root: string) {
  const result = spawnSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `const m = await import(${JSON.stringify(path.join(root, "dist/bundle/index.js"))}); console.log(JSON.stringify(await m.default()));`,
    ],
    { env: { ...process.env, OPENCLAW_CODE_CACHE: path.join(root, "cache"), NODE_DEBUG: "openclaw" }, encoding: "utf8" },
  );
  expect(result.status, result.stderr).toBe(0);
  return { value: JSON.parse(result.stdout), debug: result.stderr };
}

describe("bundle-extension --code-cache", () => {
  it("bundles the module alone as CommonJS; static and dynamic imports share its one instance, through the cache", () => {
    const root = extension({
      "lib.ts": `export { create, VERSION, later } from "big-lib";\n`,
      "index.ts": `import { create, VERSION } from "./lib.js";
import { createDeep } from "./sub/deep.js";
export default async function () {
  const lazy = await import("./lib.js");
  return { first: create(), second: lazy.create(), third: createDeep(), version: VERSION, later: await lazy.later() };
}
`,
      "sub/deep.ts": `import { create } from "../lib.js";\nexport const createDeep = () => create();\n`,
    });
    const built = bundle(root, ["--code-cache", "./lib.js"]);
    expect(built.status, built.stderr).toBe(0);
    const files = readdirSync(path.join(root, "dist/bundle"));
    expect(files).toContain("lib.cjs");
    // The library's code is in lib.cjs only, and its licence is in the notices.
    const esm = files.filter((f) => f.endsWith(".js")).map((f) => readFileSync(path.join(root, "dist/bundle", f), "utf8"));
    expect(esm.some((text) => text.includes("created"))).toBe(false);
    expect(readFileSync(path.join(root, "dist/bundle/lib.cjs"), "utf8")).toContain("created");
    expect(readFileSync(path.join(root, "dist/bundle/THIRD-PARTY-NOTICES.md"), "utf8")).toContain("## big-lib@2.0.0 (MIT)");

    const first = runEntry(root);
    expect(first.value).toEqual({ first: 1, second: 2, third: 3, version: "2.0.0", later: "function" });
    expect(first.debug).toMatch(/code cache .*lib-.*: none/);
    const second = runEntry(root);
    expect(second.value).toEqual(first.value);
    expect(second.debug).toMatch(/code cache .*lib-.*: used/);
  });

  it("takes a package name as well (its exports become the default export, as import() gives a CommonJS package's)", () => {
    const root = extension({
      "index.ts": `export default async function () {
  const mod = await import("big-lib");
  return { version: mod.default.VERSION, created: mod.default.create() };
}
`,
    });
    const built = bundle(root, ["--code-cache", "big-lib"]);
    expect(built.status, built.stderr).toBe(0);
    expect(existsSync(path.join(root, "dist/bundle/big-lib.cjs"))).toBe(true);
    expect(runEntry(root).value).toEqual({ version: "2.0.0", created: 1 });
  });

  it("fails when the module holds other files of the extension (their state would exist twice)", () => {
    const root = extension({
      "state.ts": "export const counter = { n: 0 };\n",
      "lib.ts": `export { counter } from "./state.js";\nexport { create } from "big-lib";\n`,
      "index.ts": `import { counter } from "./state.js";\nimport { create } from "./lib.js";\nexport default async () => ({ n: counter.n, c: create() });\n`,
    });
    const built = bundle(root, ["--code-cache", "./lib.js"]);
    expect(built.status).not.toBe(0);
    expect(built.stderr).toContain("--code-cache ./lib.js: lib.cjs would hold files of the extension besides the module itself");
    expect(built.stderr).toContain("src/state.ts");
  });

  it("fails when the module imports a package the host shares with plugins (the SDK, zod)", () => {
    const root = extension({
      "lib.ts": `export { z } from "zod";\nexport { create } from "big-lib";\n`,
      "index.ts": `import { create } from "./lib.js";\nexport default async () => ({ c: create() });\n`,
    });
    const built = bundle(root, ["--code-cache", "./lib.js"]);
    expect(built.status).not.toBe(0);
    expect(built.stderr).toContain("--code-cache ./lib.js: lib.cjs would require zod, which the gateway provides as ES modules");
  });

  it("fails when the rest of the bundle imports the library by another path too", () => {
    const root = extension({
      "lib.ts": `export { create } from "big-lib";\n`,
      "index.ts": `import { create } from "./lib.js";\nimport { VERSION } from "big-lib";\nexport default async () => ({ c: create(), v: VERSION });\n`,
    });
    const built = bundle(root, ["--code-cache", "./lib.js"]);
    expect(built.status).not.toBe(0);
    expect(built.stderr).toContain(
      "--code-cache ./lib.js: the bundle imports files of lib.cjs by another path too (node_modules/big-lib/index.js)",
    );
  });
});
