// `openclaw plugins …` and the config commands, end to end with the built CLI and real npm
// (offline: local folders and tarballs without dependencies need no registry).
import { cpSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import JSON5 from "json5";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { type CliHome, makeCliHome } from "./cli-home.js";
import { fixture, HOST_SDK, HOST_ZOD, installFixtureCopy } from "./helpers.js";

let h: CliHome;
let home: string;
let stateDir: string;
let ext: string;
let configPath: string;
let env: Record<string, string>;
beforeEach(() => {
  h = makeCliHome();
  ({ home, stateDir, ext, configPath, env } = h);
});
afterEach(() => h.cleanup());

const cli = (...args: string[]) => h.cli(...args);
const listJson = () => h.listJson();
const pack = (dir: string) => h.pack(dir);
const installed = () => h.installed();

describe("openclaw plugins install / list / enable / disable", () => {
  it("installs a local plugin folder into <stateDir>/extensions, links the host SDK, lists it, and round-trips enable/disable", async () => {
    const install = await cli("plugins", "install", fixture("fakechat"));
    expect(install.code, install.stderr).toBe(0);
    expect(install.stdout).toContain('Installed plugin "fakechat" (openclaw-fakechat@1.0.0)');
    expect(install.stdout).toContain("channels.fakechat");

    // A copy (not a link back to the source folder), and the SDK is the host's own package.
    const pluginDir = path.join(ext, "node_modules", "openclaw-fakechat");
    expect(lstatSync(pluginDir).isDirectory()).toBe(true);
    const sdkLink = path.join(ext, "node_modules", "@openclaw", "plugin-sdk");
    expect(lstatSync(sdkLink).isSymbolicLink()).toBe(true);
    expect(realpathSync(sdkLink)).toBe(realpathSync(HOST_SDK));
    expect(readdirSync(path.join(ext, "node_modules", "@openclaw"))).toEqual(["plugin-sdk"]);
    expect(realpathSync(path.join(ext, "node_modules", "zod"))).toBe(HOST_ZOD);

    const list = await listJson();
    expect(list.problems).toEqual([]);
    expect(list.plugins).toEqual([
      expect.objectContaining({
        id: "fakechat",
        packageName: "openclaw-fakechat",
        version: "1.0.0",
        source: "extensions",
        channels: ["fakechat"],
        status: "enabled",
        active: true,
        sdk: { range: "^0.1.0", host: list.hostSdkVersion, compatible: true },
        shadowed: [],
      }),
    ]);

    const off = await cli("plugins", "disable", "fakechat");
    expect(off.code, off.stderr).toBe(0);
    expect(JSON5.parse(readFileSync(configPath, "utf8"))).toEqual({ plugins: { entries: { fakechat: { enabled: false } } } });
    expect((await listJson()).plugins[0]).toMatchObject({
      status: "disabled",
      active: false,
      disabledReason: "plugins.entries.fakechat.enabled is false",
    });
    const text = await cli("plugins", "list");
    expect(text.stdout).toContain("fakechat  openclaw-fakechat@1.0.0  [extensions]  disabled (plugins.entries.fakechat.enabled is false)");

    const on = await cli("plugins", "enable", "fakechat");
    expect(on.code, on.stderr).toBe(0);
    expect((await listJson()).plugins[0]).toMatchObject({ status: "enabled", active: true });

    const unknown = await cli("plugins", "disable", "nope");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No installed plugin has the id "nope"; installed: fakechat');
  });

  it("installs from a tarball", async () => {
    const install = await cli("plugins", "install", pack(fixture("fakechat")));
    expect(install.code, install.stderr).toBe(0);
    expect((await listJson()).plugins.map((p) => [p.id, p.source])).toEqual([["fakechat", "extensions"]]);
  });

  it("refuses a folder that is not an OpenClaw plugin before installing anything", async () => {
    const r = await cli("plugins", "install", fixture("not-a-plugin"));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("not-an-openclaw-plugin (");
    expect(r.stderr).toContain('is not an OpenClaw plugin: its package.json has no "openclaw.plugin" block');
    expect(r.stderr).toContain("Nothing was installed");
    expect(installed()).toEqual([]);
  });

  it("refuses a plugin folder whose SDK range excludes the host's, naming both versions", async () => {
    const r = await cli("plugins", "install", fixture("futurechat"));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("@openclaw/plugin-sdk ^9.0.0");
    expect(r.stderr).toContain("this OpenClaw provides @openclaw/plugin-sdk 0.1.0");
    expect(installed()).toEqual([]);
  });

  it("refuses (and removes) a tarball that is not an OpenClaw plugin", async () => {
    const r = await cli("plugins", "install", pack(fixture("not-a-plugin")));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('not-an-openclaw-plugin is not an OpenClaw plugin: its package.json has no "openclaw.plugin" block');
    expect(r.stderr).toContain("Nothing was installed (not-an-openclaw-plugin was removed again)");
    expect(installed().sort()).toEqual(["@openclaw", "zod"]);
  });

  it("an incompatible update is refused and the installed version is restored (still a copy, not a link)", async () => {
    expect((await cli("plugins", "install", fixture("fakechat"))).code).toBe(0);
    const v2 = path.join(home, "fakechat-v2");
    cpSync(fixture("fakechat"), v2, { recursive: true });
    const pkg = JSON.parse(readFileSync(path.join(v2, "package.json"), "utf8"));
    pkg.version = "2.0.0";
    pkg.openclaw.plugin.sdk = "^9.0.0";
    writeFileSync(path.join(v2, "package.json"), JSON.stringify(pkg));
    const r = await cli("plugins", "install", pack(v2));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("The previously installed openclaw-fakechat was restored.");
    expect((await listJson()).plugins.map((p) => [p.id, p.version, p.status])).toEqual([["fakechat", "1.0.0", "enabled"]]);
    const restored = lstatSync(path.join(ext, "node_modules", "openclaw-fakechat"));
    expect(restored.isSymbolicLink()).toBe(false);
    expect(restored.isDirectory()).toBe(true);
  });

  it("lists a plugin found in the project's dependencies (run from inside the project)", async () => {
    const project = path.join(home, "project");
    mkdirSync(path.join(project, "node_modules"), { recursive: true });
    writeFileSync(
      path.join(project, "package.json"),
      JSON.stringify({ name: "p", private: true, dependencies: { "openclaw-fakechat": "1.0.0" } }),
    );
    installFixtureCopy(path.join(project, "node_modules"), "fakechat", "openclaw-fakechat");
    const r = await runCli(["plugins", "list", "--json"], { home, env, cwd: path.join(project) });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).plugins.map((p: any) => [p.id, p.source])).toEqual([["fakechat", "dependency"]]);
  });
});

describe("installed plugins in config validate and doctor", () => {
  it("the plugin's schema validates its channel and doctor --fix migrates the plugin's own retired key", async () => {
    expect((await cli("plugins", "install", fixture("fakechat"))).code).toBe(0);
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(configPath, "{ channels: { fakechat: { streamMode: 'off', fakeLiveTools: false } } }\n");

    const bad = await cli("config", "validate");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("channels.fakechat.fakeLiveTools");
    expect(bad.stderr).toContain("openclaw doctor --fix");

    const fix = await cli("doctor", "--fix", "--non-interactive");
    expect(fix.stdout).toContain("channels.fakechat.fakeLiveTools -> channels.fakechat.streaming.preview.toolProgress");
    expect(JSON5.parse(readFileSync(configPath, "utf8")).channels).toEqual({
      fakechat: { streaming: { mode: "off", preview: { toolProgress: false } } },
    });

    const good = await cli("config", "validate");
    expect(good.code, good.stderr).toBe(0);
    expect(good.stderr).toBe("");

    writeFileSync(configPath, "{ channels: { fakechat: { tokn: 'x', streaming: { mode: 'progress' } } } }\n");
    const mode = await cli("config", "validate");
    expect(mode.code).toBe(1);
    expect(mode.stderr).toContain(
      'channels.fakechat.streaming.mode: the string "progress" is not allowed. Fix: use one of: "off", "partial".',
    );
    expect(mode.stderr).toContain('channels.fakechat.tokn: unknown key. Fix: did you mean "token"?');

    const set = await cli("config", "set", "channels.fakechat.token", "abc");
    expect(set.code, set.stderr).toBe(0);
  });

  it("config validate warns (stderr, exit 0) for a configured channel whose plugin is not installed", async () => {
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(configPath, "{ channels: { telegram: { botToken: 'x' } } }\n");
    const r = await cli("config", "validate");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("Config OK");
    expect(r.stderr).toContain(
      "Warning: channels.telegram is configured but no installed plugin provides it; install it with `openclaw plugins install telegram`",
    );
    const json = await cli("config", "validate", "--json");
    expect(JSON.parse(json.stdout)).toMatchObject({ valid: true, warnings: [expect.stringContaining("channels.telegram is configured")] });
  });
});
