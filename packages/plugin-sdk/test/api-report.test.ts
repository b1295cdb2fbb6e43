// The public API of @openclaw/plugin-sdk is pinned by etc/plugin-sdk.api.md: any change to the
// contract shows in review, and a breaking one needs a major changeset.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ESM script without declarations.
import { ENTRY_POINTS as POINTS, extract } from "../scripts/api-report.mjs";

const ENTRY_POINTS = POINTS as { entry: string; report: string }[];

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));
const distEntry = join(packageDir, "dist", "index.d.ts");
const CHANGED =
  "the public API of @openclaw/plugin-sdk changed: run `pnpm --filter @openclaw/plugin-sdk api:update`, review etc/plugin-sdk.api.md, and add a changeset (major if anything was removed or changed)";

/** Newest modification time of the SDK's shipped sources (tests and fixtures excluded). */
function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "__fixtures__") newest = Math.max(newest, newestSource(path));
    } else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) {
      newest = Math.max(newest, statSync(path).mtimeMs);
    }
  }
  return newest;
}

const tempDir = mkdtempSync(join(tmpdir(), "plugin-sdk-api-"));
afterAll(() => rmSync(tempDir, { recursive: true, force: true }));

/**
 * The built `dist/index.d.ts` (`pnpm test` builds first). When dist is missing or older than a
 * source file (vitest run without a build), declarations are emitted into a temporary folder
 * instead, so the check never compares a stale build.
 */
function freshDeclarations(): string {
  let built = 0;
  try {
    built = statSync(distEntry).mtimeMs;
  } catch {
    // not built
  }
  if (built >= newestSource(join(packageDir, "src"))) return distEntry;
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const outDir = join(tempDir, "dts");
  try {
    execFileSync(
      process.execPath,
      [tsc, "-p", join(packageDir, "tsconfig.json"), "--outDir", outDir, "--emitDeclarationOnly", "--declarationMap", "false"],
      {
        stdio: "pipe",
      },
    );
  } catch (error) {
    // tsc still emits when some file has a type error; the typecheck task reports those.
    try {
      statSync(join(outDir, "index.d.ts"));
    } catch {
      throw error;
    }
  }
  return join(outDir, "index.d.ts");
}

describe("the public API reports (one per entry point)", () => {
  it.each(ENTRY_POINTS)("the API report $report (etc/<report>.api.md) matches the declarations of $entry", async (point) => {
    const entry = freshDeclarations();
    const { changed, problems } = extract(point, { dist: dirname(entry), localBuild: false, tempFolder: tempDir });
    expect(changed, CHANGED).toBe(false);
    expect(problems, "API Extractor reported problems").toEqual([]);
  });

  it.each(ENTRY_POINTS)("the API report $report documents every exported symbol", ({ report }) => {
    const lines = readFileSync(join(packageDir, "etc", `${report}.api.md`), "utf8").split("\n");
    const undocumented = lines.flatMap((line, i) =>
      line === "// (undocumented)" && lines[i + 1]?.startsWith("export ") ? [lines[i + 1]!] : [],
    );
    expect(undocumented).toEqual([]);
  });
});
