// The path an outside author follows today (README, "Writing or installing a plugin"): pack the
// SDK from a clone, build the plugin against it, pack the plugin, `openclaw plugins install` the
// tarball. The installed plugin then uses the host's SDK and zod, not the ones it was built with.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { type CliHome, makeCliHome } from "./cli-home.js";
import { fixture, HOST_SDK, HOST_ZOD, resolvedFrom } from "./helpers.js";

let h: CliHome;
beforeEach(() => (h = makeCliHome()));
afterEach(() => h.cleanup());

it("pnpm pack of the SDK, a plugin built against it, npm pack, then plugins install of the tarball", async () => {
  // 1. In the clone: `pnpm --filter @openclaw/plugin-sdk pack` (here: pnpm pack in its folder).
  const tarballs = path.join(h.home, "tarballs");
  mkdirSync(tarballs);
  execFileSync("pnpm", ["pack", "--pack-destination", tarballs], { cwd: HOST_SDK, stdio: "ignore" });
  const sdkTarball = readdirSync(tarballs).find((n) => n.endsWith(".tgz"))!;
  expect(sdkTarball).toMatch(/^openclaw-plugin-sdk-\d+\.\d+\.\d+\.tgz$/);

  // 2. The author's project: the SDK from that tarball (what `npm install -D <sdk.tgz>` unpacks)
  //    and zod as dev dependencies, both also peer dependencies of the plugin.
  const author = path.join(h.home, "openclaw-zodchat");
  cpSync(fixture("zodchat"), author, { recursive: true });
  const sdkCopy = path.join(author, "node_modules", "@openclaw", "plugin-sdk");
  mkdirSync(sdkCopy, { recursive: true });
  execFileSync("tar", ["-xzf", path.join(tarballs, sdkTarball), "-C", sdkCopy, "--strip-components=1"]);
  symlinkSync(HOST_ZOD, path.join(author, "node_modules", "zod"), "dir");
  // The author's own check that the plugin loads against the packed SDK.
  const probe = "const { default: c } = await import('./config.js'); process.stdout.write(c.id);";
  expect(execFileSync(process.execPath, ["--input-type=module", "-e", probe], { cwd: author, encoding: "utf8" })).toBe("zodchat");

  // 3. `npm pack` the plugin and install the tarball.
  const install = await h.cli("plugins", "install", h.pack(author));
  expect(install.code, install.stderr).toBe(0);
  expect(install.stdout).toContain('Installed plugin "zodchat" (openclaw-zodchat@1.0.0)');
  const installed = path.join(h.ext, "node_modules", "openclaw-zodchat");
  expect(resolvedFrom(installed, "@openclaw/plugin-sdk")).toBe(realpathSync(HOST_SDK));
  expect(resolvedFrom(installed, "zod")).toBe(HOST_ZOD);

  writeFileSync(h.configPath, JSON.stringify({ channels: { zodchat: { token: "t" } } }));
  const validate = await h.cli("config", "validate");
  expect(validate.code, validate.stderr).toBe(0);
  expect((await h.listJson()).plugins.map((p) => [p.id, p.status])).toEqual([["zodchat", "enabled"]]);
});
