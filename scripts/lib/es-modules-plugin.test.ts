// scripts/lib/es-modules-plugin.mjs (`bundle-extension.mjs --es-modules`): a package that ships a
// CommonJS `main` and an ES `module` build is bundled from the ES build, so what the entry does not
// import is left out; without the option esbuild takes `main` (all of it).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the build scripts, without types
import { esModulesPlugin } from "./es-modules-plugin.mjs";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** node_modules/sdk with both builds (a small class and a large one in each), and entry.js importing the small one. */
function project(manifest: Record<string, unknown>): string {
  dir = mkdtempSync(path.join(tmpdir(), "es-modules-"));
  const pkg = path.join(dir, "node_modules", "sdk");
  mkdirSync(path.join(pkg, "es"), { recursive: true });
  mkdirSync(path.join(pkg, "lib"), { recursive: true });
  writeFileSync(path.join(pkg, "package.json"), JSON.stringify({ name: "sdk", ...manifest }));
  const large = `"${"large client code ".repeat(100)}"`;
  writeFileSync(
    path.join(pkg, "lib", "index.js"),
    `exports.Small = class Small { kind() { return "cjs"; } };\nexports.Large = class Large { text() { return ${large}; } };\n`,
  );
  writeFileSync(
    path.join(pkg, "es", "index.js"),
    `export class Small { kind() { return "esm"; } }\nexport class Large { text() { return ${large}; } }\n`,
  );
  writeFileSync(path.join(dir, "entry.js"), `export { Small } from "sdk";\n`);
  return dir;
}

async function bundle(root: string, esModules: string[]): Promise<string> {
  const out = path.join(root, "out.cjs");
  await build({
    absWorkingDir: root,
    entryPoints: ["entry.js"],
    outfile: out,
    bundle: true,
    format: "cjs",
    platform: "node",
    plugins: esModules.length ? [esModulesPlugin(esModules)] : [],
    logLevel: "silent",
  });
  return out;
}

describe("es-modules plugin", () => {
  it("bundles the package's ES build and leaves out what the entry does not import", async () => {
    const root = project({ main: "lib/index.js", module: "es/index.js" });
    const out = await bundle(root, ["sdk"]);
    const loaded = createRequire(out)(out) as { Small: new () => { kind(): string } };
    expect(new loaded.Small().kind()).toBe("esm");
    expect(readFileSync(out, "utf8")).not.toContain("large client code");
  });

  it("without it, esbuild takes the CommonJS main, all of it", async () => {
    const root = project({ main: "lib/index.js", module: "es/index.js" });
    const out = await bundle(root, []);
    expect(new (createRequire(out)(out) as { Small: new () => { kind(): string } }).Small().kind()).toBe("cjs");
    expect(readFileSync(out, "utf8")).toContain("large client code");
  });

  it("fails the build for a package without a module entry, naming the option", async () => {
    const root = project({ main: "lib/index.js" });
    await expect(bundle(root, ["sdk"])).rejects.toThrow('--es-modules sdk: its package.json has no "module" entry; drop the option');
  });
});
