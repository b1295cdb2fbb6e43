// The WhatsApp fixture plugin (what end-to-end tests and bench/channels-connect.mjs load into a
// gateway) runs the channel as users get it: the published bundle, with Baileys inside it, and the
// relay's client, which loads neither Baileys nor the fake. A module of Baileys' own package in
// the process means the plugin under test is not the published one.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The files Node's CommonJS loader holds after importing `specifier` in a fresh process. */
function commonJsFilesAfterImport(specifier: string): string[] {
  const script = `
    const { createRequire } = await import("node:module");
    await import(${JSON.stringify(specifier)});
    console.log(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, OPENCLAW_FAKE_WHATSAPP_URL: "ws://127.0.0.1:9" },
  });
  return JSON.parse(out) as string[];
}

const fromBaileysPackage = (files: string[]) => files.filter((f) => /[/\\]node_modules[/\\]baileys[/\\]/.test(f));

it("the relay's client loads no Baileys", () => {
  const files = commonJsFilesAfterImport(new URL("../dist/whatsapp/relay-client.js", import.meta.url).href);
  expect(fromBaileysPackage(files)).toEqual([]);
});

it("the fixture plugin runs the channel's published bundle, not Baileys' package", () => {
  const files = commonJsFilesAfterImport(new URL("../whatsapp-fixture-plugin/index.js", import.meta.url).href);
  expect(fromBaileysPackage(files)).toEqual([]);
  // The real relay module (with the fake) does load Baileys, so the check can fail.
  expect(fromBaileysPackage(commonJsFilesAfterImport(new URL("../dist/whatsapp/relay.js", import.meta.url).href)).length).toBeGreaterThan(
    0,
  );
});

it("the channel's bundle compiles Baileys through the code cache: the first load writes it, the next uses it", () => {
  const cache = mkdtempSync(path.join(tmpdir(), "whatsapp-code-cache-"));
  try {
    const load = () => {
      const result = spawnSync(
        process.execPath,
        [
          "--input-type=module",
          "-e",
          `await import(${JSON.stringify(new URL("../whatsapp-fixture-plugin/index.js", import.meta.url).href)});`,
        ],
        {
          cwd: ROOT,
          encoding: "utf8",
          env: { ...process.env, OPENCLAW_FAKE_WHATSAPP_URL: "ws://127.0.0.1:9", OPENCLAW_CODE_CACHE: cache, NODE_DEBUG: "openclaw" },
        },
      );
      expect(result.status, result.stderr).toBe(0);
      return result.stderr;
    };
    expect(load()).toMatch(/code cache written: .*lib-[0-9a-f]+-/);
    expect(readdirSync(cache)).toHaveLength(1);
    expect(load()).toMatch(/code cache .*lib-[0-9a-f]+-.*: used/);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
});

it("OPENCLAW_FAKE_WHATSAPP_CHANNEL points the fixture at another copy of the channel (an installed one)", () => {
  const copy = mkdtempSync(path.join(tmpdir(), "whatsapp-channel-copy-"));
  try {
    mkdirSync(path.join(copy, "dist", "bundle"), { recursive: true });
    writeFileSync(
      path.join(copy, "dist", "bundle", "index.js"),
      "export const createWhatsAppPlugin = (options) => ({ from: 'the copy', linkPollMs: options.linkPollMs });\n",
    );
    writeFileSync(path.join(copy, "dist", "bundle", "config.js"), "export default { from: 'the copy' };\n");
    const fixture = (file: string) => JSON.stringify(new URL(`../whatsapp-fixture-plugin/${file}`, import.meta.url).href);
    const out = execFileSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const [p, c] = await Promise.all([import(${fixture("index.js")}), import(${fixture("config.js")})]);
         console.log(JSON.stringify([p.default, c.default]));`,
      ],
      { cwd: ROOT, encoding: "utf8", env: { ...process.env, OPENCLAW_FAKE_WHATSAPP_CHANNEL: copy } },
    );
    expect(JSON.parse(out)).toEqual([{ from: "the copy", linkPollMs: 200 }, { from: "the copy" }]);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
});
