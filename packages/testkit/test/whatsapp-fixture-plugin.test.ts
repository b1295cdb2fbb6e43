// The WhatsApp fixture plugin (what end-to-end tests and bench/channels-connect.mjs load into a
// gateway) runs the channel as users get it: the published bundle, with Baileys inside it, and the
// relay's client, which loads neither Baileys nor the fake. A module of Baileys' own package in
// the process means the plugin under test is not the published one.
import { execFileSync } from "node:child_process";
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
