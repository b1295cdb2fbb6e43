// Installed plugins that stop loading: `plugins list` shows them as broken with the reason, and
// "installed but failed to import" never reads like "not installed".
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type CliHome, makeCliHome } from "./cli-home.js";
import { fixture } from "./helpers.js";

let h: CliHome;
beforeEach(() => (h = makeCliHome()));
afterEach(() => h.cleanup());

const installedDir = (name: string) => path.join(h.ext, "node_modules", name);

async function install(...names: string[]): Promise<void> {
  for (const name of names) {
    const r = await h.cli("plugins", "install", fixture(name));
    expect(r.code, r.stderr).toBe(0);
  }
}

/** Makes a module of an installed plugin import a package that is not there. */
function importMissingPackage(packageName: string, file: string): string {
  const full = path.join(installedDir(packageName), file);
  writeFileSync(full, `import "left-pad-that-is-not-there";\n${readFileSync(full, "utf8")}`);
  return full;
}

describe("openclaw plugins list shows plugins that no longer load", () => {
  it("as broken, with the reason and the fix, instead of hiding them", async () => {
    await install("fakechat", "zodchat");
    rmSync(path.join(installedDir("openclaw-fakechat"), "config.js"));
    const entry = importMissingPackage("openclaw-zodchat", "index.js");

    const text = await h.cli("plugins", "list");
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain("  fakechat  openclaw-fakechat@1.0.0  [extensions]  broken\n");
    expect(text.stdout).toContain('openclaw.plugin.configEntry "./config.js" does not exist (is the plugin built?)');
    expect(text.stdout).toContain("  zodchat  openclaw-zodchat@1.0.0  [extensions]  broken\n");
    expect(text.stdout).toContain(
      `broken: plugin "zodchat" (openclaw-zodchat 1.0.0) is installed, but ${entry} failed to import: Cannot find package 'left-pad-that-is-not-there'`,
    );
    expect(text.stdout).toContain(
      `the plugin must list left-pad-that-is-not-there in the "dependencies" of its package.json (ask its author, or correct it in its source), then reinstall it with \`openclaw plugins install ${fixture("zodchat")}\``,
    );
    // Shown on its row, not again under Problems.
    expect(text.stdout.split("does not exist (is the plugin built?)").length).toBe(2);

    const json = await h.listJson();
    expect(json.plugins.map((p) => [p.id, p.status, p.active])).toEqual([
      ["fakechat", "broken", false],
      ["zodchat", "broken", false],
    ]);
    expect(json.plugins[1]!.broken).toContain("failed to import");

    // Its folder vanished: still listed, with how to reinstall or remove it.
    rmSync(installedDir("openclaw-fakechat"), { recursive: true });
    const gone = await h.listJson();
    expect(gone.plugins[0]).toMatchObject({ id: "fakechat", packageName: "openclaw-fakechat", status: "broken", source: "extensions" });
    expect(gone.plugins[0]!.broken).toBe(
      `openclaw-fakechat (plugin "fakechat") is installed (listed in ${path.join(h.ext, "package.json")}) but its folder ${installedDir("openclaw-fakechat")} is missing. Fix: reinstall it with \`openclaw plugins install ${fixture("fakechat")}\`, or remove it with \`openclaw plugins uninstall openclaw-fakechat\`.`,
    );
  });
});

describe("not installed vs installed but failing to import", () => {
  it("a configured channel whose installed plugin fails to import gets the import error, not 'not installed'", async () => {
    await install("zodchat");
    const config = importMissingPackage("openclaw-zodchat", "config.js");
    writeFileSync(h.configPath, JSON.stringify({ channels: { zodchat: { token: "t" } } }));

    const validate = await h.cli("config", "validate");
    expect(validate.code).toBe(1);
    expect(validate.stderr).toContain(
      `plugin "zodchat" (openclaw-zodchat 1.0.0) is installed, but ${config} failed to import: Cannot find package 'left-pad-that-is-not-there'`,
    );
    expect(validate.stderr).not.toContain("no channel named");
    expect(validate.stderr).not.toContain("no installed plugin provides");

    const gateway = await h.cli("gateway", "--port", "0");
    expect(gateway.code).toBe(1);
    // The gateway imports the entry, which imports the config module: the error names both.
    expect(gateway.stderr).toContain(
      `is installed, but ${path.join(installedDir("openclaw-zodchat"), "index.js")} failed to import: Cannot find package 'left-pad-that-is-not-there' imported from ${config}`,
    );
    expect(gateway.stderr).not.toContain("no installed plugin provides");
    expect(gateway.stderr).not.toContain("listening");
  });

  it("a plugin that cannot find the host-provided zod is told to reinstall (which links it)", async () => {
    await install("zodchat");
    rmSync(path.join(h.ext, "node_modules", "zod"));
    writeFileSync(h.configPath, JSON.stringify({ channels: { zodchat: { token: "t" } } }));
    const validate = await h.cli("config", "validate");
    expect(validate.code).toBe(1);
    expect(validate.stderr).toContain("failed to import: Cannot find package 'zod'");
    expect(validate.stderr).toContain(
      `It cannot find zod, which OpenClaw provides to plugins (a plugin declares it as a peer dependency). Fix: reinstall it with \`openclaw plugins install ${fixture("zodchat")}\`, which links this OpenClaw's zod beside it`,
    );
  });

  it("a configured first-party channel with no plugin says how to install it by short name", async () => {
    mkdirSync(h.stateDir, { recursive: true });
    writeFileSync(h.configPath, JSON.stringify({ channels: { telegram: { botToken: "123456:ABCDEF" } } }));
    const gateway = await h.cli("gateway", "--port", "0");
    expect(gateway.code).toBe(1);
    expect(gateway.stderr).toContain(
      "channels.telegram is configured but no installed plugin provides it; install it with `openclaw plugins install telegram`",
    );
  });
});
