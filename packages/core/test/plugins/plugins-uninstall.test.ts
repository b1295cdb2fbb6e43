// `openclaw plugins uninstall` end to end with the built CLI and real npm (offline).
import { existsSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type CliHome, makeCliHome } from "./cli-home.js";
import { fixture, HOST_SDK, HOST_ZOD } from "./helpers.js";

let h: CliHome;
beforeEach(() => (h = makeCliHome()));
afterEach(() => h.cleanup());

async function install(...names: string[]): Promise<void> {
  for (const name of names) {
    const r = await h.cli("plugins", "install", fixture(name));
    expect(r.code, r.stderr).toBe(0);
  }
}

describe("openclaw plugins uninstall", () => {
  it("removes one plugin; the others keep loading with the host's SDK and zod", async () => {
    await install("fakechat", "zodchat");
    const config = { plugins: { entries: { fakechat: { enabled: true } } }, channels: { zodchat: { token: "t" } } };
    writeFileSync(h.configPath, JSON.stringify(config));

    const r = await h.cli("plugins", "uninstall", "fakechat");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      `Uninstalled plugin "fakechat" (openclaw-fakechat) from ${h.ext}. The other installed plugins are unchanged.`,
    );
    expect(r.stdout).toContain(`Your config was not changed; ${h.configPath} still has plugins.entries.fakechat`);
    expect(r.stdout).toContain("Restart the gateway to apply.");
    expect(r.stderr).not.toContain("Warning");

    expect(h.installed().sort()).toEqual(["@openclaw", "openclaw-zodchat", "zod"]);
    expect(realpathSync(path.join(h.ext, "node_modules", "@openclaw", "plugin-sdk"))).toBe(realpathSync(HOST_SDK));
    expect(realpathSync(path.join(h.ext, "node_modules", "zod"))).toBe(HOST_ZOD);
    expect(readdirSync(path.join(h.ext, "packages"))).toEqual([expect.stringMatching(/^openclaw-zodchat-/)]);
    const manifest = JSON.parse(readFileSync(path.join(h.ext, "package.json"), "utf8"));
    expect(Object.keys(manifest.dependencies)).toEqual(["openclaw-zodchat"]);
    expect(Object.keys(manifest.openclaw.installs)).toEqual(["openclaw-zodchat"]);
    expect(JSON.parse(readFileSync(h.configPath, "utf8"))).toEqual(config);

    // zodchat imports the SDK and zod: it still validates its channel.
    const validate = await h.cli("config", "validate");
    expect(validate.code, validate.stderr).toBe(0);
    expect((await h.listJson()).plugins.map((p) => [p.id, p.status])).toEqual([["zodchat", "enabled"]]);
  });

  it("takes the package name too, and warns when a configured channel is left without a plugin", async () => {
    await install("zodchat");
    writeFileSync(h.configPath, JSON.stringify({ channels: { zodchat: { token: "t" } } }));
    const r = await h.cli("plugins", "uninstall", "openclaw-zodchat");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("still has channels.zodchat");
    expect(r.stderr).toContain(
      "Warning: channels.zodchat is still configured and no plugin provides it now, so the gateway will not start: set channels.zodchat.enabled to false, remove channels.zodchat, or install the plugin again.",
    );
    expect(h.installed().sort()).toEqual(["@openclaw", "zod"]);
  });

  it("refuses an id nothing installed has, naming what is installed, and explains a plugin from plugins.load.paths", async () => {
    await install("fakechat");
    const none = await h.cli("plugins", "uninstall", "nosuch");
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(
      `No plugin installed in ${h.ext} has the id or package name "nosuch"; installed: fakechat (openclaw-fakechat).`,
    );

    writeFileSync(h.configPath, JSON.stringify({ plugins: { load: { paths: [fixture("zodchat")] } } }));
    const fromPath = await h.cli("plugins", "uninstall", "zodchat");
    expect(fromPath.code).toBe(1);
    expect(fromPath.stderr).toContain('Plugin "zodchat" was not installed with `openclaw plugins install`');
    expect(fromPath.stderr).toContain("remove that folder from plugins.load.paths");
    expect(existsSync(fixture("zodchat"))).toBe(true);

    const sdk = await h.cli("plugins", "uninstall", "@openclaw/plugin-sdk");
    expect(sdk.code).toBe(1);
    expect(realpathSync(path.join(h.ext, "node_modules", "@openclaw", "plugin-sdk"))).toBe(realpathSync(HOST_SDK));
  });

  it("removes a plugin whose files vanished, by the id recorded at install", async () => {
    await install("fakechat");
    rmSync(path.join(h.ext, "node_modules", "openclaw-fakechat"), { recursive: true });
    const r = await h.cli("plugins", "uninstall", "fakechat");
    expect(r.code, r.stderr).toBe(0);
    expect((await h.listJson()).plugins).toEqual([]);
  });
});
