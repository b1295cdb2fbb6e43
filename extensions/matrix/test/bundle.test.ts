// The published bundle (dist/bundle, what `openclaw plugins install matrix` installs): matrix-js-sdk
// is compiled through the V8 code cache (dist/bundle/matrix-sdk.cjs), and its Rust crypto's
// WebAssembly package is not loaded until an account turns encryption on.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const ENTRY = new URL("../dist/bundle/index.js", import.meta.url).href;

/** Imports the bundle's entry in a fresh node; returns its stderr and the CommonJS files it then held. */
function importBundle(env: Record<string, string>): { stderr: string; files: string[] } {
  const script = `
    const { createRequire } = await import("node:module");
    await import(${JSON.stringify(ENTRY)});
    console.log(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));`;
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, ...env },
  });
  expect(result.status, result.stderr).toBe(0);
  return { stderr: result.stderr, files: JSON.parse(result.stdout) as string[] };
}

it("compiles matrix-js-sdk through the code cache: the first load writes it, the next uses it", () => {
  const cache = mkdtempSync(path.join(tmpdir(), "matrix-code-cache-"));
  try {
    const env = { OPENCLAW_CODE_CACHE: cache, NODE_DEBUG: "openclaw" };
    expect(importBundle(env).stderr).toMatch(/code cache written: .*lib-[0-9a-f]+-/);
    expect(readdirSync(cache)).toHaveLength(1);
    expect(importBundle(env).stderr).toMatch(/code cache .*lib-[0-9a-f]+-.*: used/);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
});

it("loads no Rust crypto until encryption is used", () => {
  const { files } = importBundle({ OPENCLAW_CODE_CACHE: "off" });
  expect(files.filter((f) => f.includes("matrix-sdk-crypto-wasm"))).toEqual([]);
});
