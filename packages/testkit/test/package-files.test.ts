// What `npm publish` would ship: every source a stack trace or an editor's "go to definition"
// points at (the `sources` of the packed .js.map and .d.ts.map files) is in the package, and the
// SDK is the plugin's own (a peer dependency), never a second copy.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

function packedFiles(): string[] {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts", "--offline"], { cwd: ROOT, encoding: "utf8" });
  const [pack] = JSON.parse(out) as { files: { path: string }[] }[];
  return pack!.files.map((f) => f.path);
}

it("ships the sources its source maps point at, and no tests", () => {
  const files = packedFiles();
  const shipped = new Set(files);
  const maps = files.filter((f) => f.endsWith(".map"));
  expect(maps.length).toBeGreaterThan(0);
  const missing: string[] = [];
  for (const map of maps) {
    const { sources } = JSON.parse(readFileSync(path.join(ROOT, map), "utf8")) as { sources: string[] };
    for (const source of sources) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(map), source));
      if (!shipped.has(target)) missing.push(`${map} -> ${target}`);
    }
  }
  expect(missing).toEqual([]);
  expect(files.filter((f) => f.endsWith(".test.ts") || f.includes("__fixtures__"))).toEqual([]);
});

it("takes @openclaw/plugin-sdk as a peer dependency, so a plugin's tests use the plugin's own SDK", () => {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
  expect(pkg.dependencies?.["@openclaw/plugin-sdk"]).toBeUndefined();
  expect(pkg.peerDependencies["@openclaw/plugin-sdk"]).toMatch(/^\^\d+\.\d+\.\d+$/);
});
