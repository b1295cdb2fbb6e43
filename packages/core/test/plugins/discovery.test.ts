import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PLUGIN_SDK_VERSION } from "@openclaw/plugin-sdk";
import { extensionsDir, resolvePlugins, type ResolvePluginsOptions } from "../../src/plugins/index.js";
import { fixture, makeSandbox, pluginBlock, writePackage, writeProject, type Sandbox } from "./helpers.js";

let sb: Sandbox;
beforeEach(() => (sb = makeSandbox()));
afterEach(() => sb.cleanup());

const resolve = (config: unknown = {}, extra: Partial<ResolvePluginsOptions> = {}) =>
  resolvePlugins({ paths: sb.paths, config, cwd: sb.project, hostPackageJson: sb.hostPackageJson, cache: false, ...extra });

const extNodeModules = () => path.join(extensionsDir(sb.paths.stateDir), "node_modules");

describe("discovery", () => {
  it("finds nothing (and reports nothing) when no plugin is installed", async () => {
    const set = await resolve();
    expect(set.plugins).toEqual([]);
    expect(set.problems).toEqual([]);
    expect(set.hostSdkVersion).toBe(PLUGIN_SDK_VERSION);
  });

  it("finds the project's dependencies through node_modules, skipping ordinary packages", async () => {
    writeProject(sb.project, {
      "@acme/openclaw-echo": { name: "@acme/openclaw-echo", version: "2.1.0", plugin: pluginBlock("echo") },
      lodash: { name: "lodash" },
    });
    const nested = path.join(sb.project, "src", "deep");
    mkdirSync(nested, { recursive: true });
    const set = await resolve({}, { cwd: nested }); // the nearest package.json above cwd
    expect(set.plugins.map((p) => [p.id, p.packageName, p.version, p.source])).toEqual([
      ["echo", "@acme/openclaw-echo", "2.1.0", "dependency"],
    ]);
    expect(set.plugins[0]!.rootDir).toBe(realpathSync(path.join(sb.project, "node_modules", "@acme", "openclaw-echo")));
    expect(set.plugins[0]!.active).toBe(true);
  });

  it("finds the host package's dependencies (a workspace that depends on @openclaw/telegram)", async () => {
    const host = path.dirname(sb.hostPackageJson);
    writeFileSync(
      sb.hostPackageJson,
      JSON.stringify({ name: "@openclaw/core", version: "0.1.0", dependencies: { "@openclaw/telegram": "workspace:^" } }),
    );
    writePackage(path.join(host, "node_modules", "@openclaw", "telegram"), { name: "@openclaw/telegram", plugin: pluginBlock("telegram") });
    const set = await resolve();
    expect(set.plugins.map((p) => [p.id, p.source])).toEqual([["telegram", "dependency"]]);
  });

  it("finds packages in <stateDir>/extensions/node_modules, scoped or not", async () => {
    writePackage(path.join(extNodeModules(), "openclaw-echo"), { name: "openclaw-echo", plugin: pluginBlock("echo") });
    writePackage(path.join(extNodeModules(), "@acme", "openclaw-relay"), { name: "@acme/openclaw-relay", plugin: pluginBlock("relay") });
    writePackage(path.join(extNodeModules(), "left-pad"), { name: "left-pad" });
    const set = await resolve();
    expect(set.plugins.map((p) => [p.id, p.packageName, p.source])).toEqual([
      ["echo", "openclaw-echo", "extensions"],
      ["relay", "@acme/openclaw-relay", "extensions"],
    ]);
  });

  it("finds plugins.load.paths entries: a plugin folder itself or a folder of plugin folders (relative to the config file)", async () => {
    const many = path.join(sb.root, "my-plugins");
    writePackage(path.join(many, "a"), { name: "plugin-a", plugin: pluginBlock("alpha") });
    writePackage(path.join(many, "b"), { name: "plugin-b", plugin: pluginBlock("beta") });
    const single = writePackage(path.join(sb.root, "single"), { name: "plugin-c", plugin: pluginBlock("gamma") });
    const set = await resolve({ plugins: { load: { paths: ["../my-plugins", single, path.join(sb.root, "nowhere")] } } });
    expect(set.plugins.map((p) => [p.id, p.source])).toEqual([
      ["alpha", "path"],
      ["beta", "path"],
      ["gamma", "path"],
    ]);
    expect(set.problems).toEqual([
      expect.objectContaining({ level: "warning", message: expect.stringContaining("nowhere is not a folder") }),
    ]);
  });

  it("same id in several places: load paths beat extensions beat dependencies; the losers are listed", async () => {
    writeProject(sb.project, { "echo-dep": { name: "echo-dep", version: "1.0.0", plugin: pluginBlock("echo") } });
    writePackage(path.join(extNodeModules(), "echo-ext"), { name: "echo-ext", version: "2.0.0", plugin: pluginBlock("echo") });
    const local = writePackage(path.join(sb.root, "echo-local"), { name: "echo-local", version: "3.0.0", plugin: pluginBlock("echo") });

    const all = await resolve({ plugins: { load: { paths: [local] } } });
    expect(all.plugins).toHaveLength(1);
    expect(all.plugins[0]).toMatchObject({ id: "echo", packageName: "echo-local", source: "path" });
    expect(all.plugins[0]!.shadowed.map((s) => [s.packageName, s.version, s.source])).toEqual([
      ["echo-ext", "2.0.0", "extensions"],
      ["echo-dep", "1.0.0", "dependency"],
    ]);

    const noPath = await resolve();
    expect(noPath.plugins[0]).toMatchObject({ packageName: "echo-ext", source: "extensions" });
    expect(noPath.plugins[0]!.shadowed.map((s) => s.source)).toEqual(["dependency"]);
  });

  it("reports a broken manifest as an error naming the file and the field, without running its code", async () => {
    const set = await resolve({ plugins: { load: { paths: [fixture("broken-manifest")] } } });
    expect(set.plugins).toEqual([]);
    expect(set.problems).toHaveLength(1);
    const [problem] = set.problems;
    expect(problem!.level).toBe("error");
    expect(problem!.file).toBe(path.join(realpathSync(fixture("broken-manifest")), "package.json"));
    expect(problem!.message).toContain(problem!.file!);
    expect(problem!.message).toContain("openclaw.plugin.sdk is missing");
  });

  it.each([
    [{ plugin: pluginBlock("echo", { kind: "tool" }) }, 'openclaw.plugin.kind must be "channel", got "tool"'],
    [{ plugin: pluginBlock("echo", { sdk: "not a range" }) }, 'openclaw.plugin.sdk "not a range" is not a valid semver range'],
    [{ plugin: pluginBlock("echo", { entry: "./dist/missing.js" }) }, 'openclaw.plugin.entry "./dist/missing.js" does not exist'],
    [{ plugin: pluginBlock("echo", { entry: "../outside.js" }) }, "must be a relative path inside the package"],
    [{ plugin: pluginBlock("Echo Chat") }, "openclaw.plugin.id must be lowercase"],
    [{ plugin: pluginBlock("echo", { channels: [] }) }, "openclaw.plugin.channels must list at least one channel id"],
    [{ plugin: pluginBlock("echo"), manifest: null }, "openclaw.plugin.json is missing"],
    [{ plugin: pluginBlock("echo"), manifest: { id: "other", configSchema: {} } }, 'id "other" differs from openclaw.plugin.id "echo"'],
    [{ plugin: pluginBlock("echo"), manifest: { id: "echo" } }, "configSchema is missing"],
  ])("broken manifest %#: %s", async (pkg, expected) => {
    writePackage(path.join(extNodeModules(), "bad"), { name: "bad", ...pkg });
    const set = await resolve();
    expect(set.plugins).toEqual([]);
    expect(set.problems.map((p) => p.level)).toEqual(["error"]);
    expect(set.problems[0]!.message).toContain(expected);
  });
});

describe("policy", () => {
  beforeEach(() => {
    for (const id of ["alpha", "beta", "gamma"])
      writePackage(path.join(extNodeModules(), `p-${id}`), { name: `p-${id}`, plugin: pluginBlock(id) });
  });
  const states = async (plugins: unknown) =>
    Object.fromEntries((await resolve({ plugins })).plugins.map((p) => [p.id, p.enabled ? "on" : p.disabledReason]));

  it("loads every plugin by default", async () => {
    expect(await states(undefined)).toEqual({ alpha: "on", beta: "on", gamma: "on" });
  });

  it("plugins.enabled: false loads none", async () => {
    expect(await states({ enabled: false })).toEqual({
      alpha: "plugins.enabled is false",
      beta: "plugins.enabled is false",
      gamma: "plugins.enabled is false",
    });
  });

  it("allow keeps only the listed ids; deny wins over allow; entries.<id>.enabled: false turns one off", async () => {
    expect(
      await states({ allow: ["alpha", "beta"], deny: ["beta"], entries: { alpha: { enabled: false }, gamma: { enabled: true } } }),
    ).toEqual({
      alpha: "plugins.entries.alpha.enabled is false",
      beta: "listed in plugins.deny",
      gamma: "not listed in plugins.allow",
    });
    expect(await states({ deny: ["gamma"] })).toEqual({ alpha: "on", beta: "on", gamma: "listed in plugins.deny" });
  });

  it("unknown ids in allow, deny and entries are warnings, not errors", async () => {
    const set = await resolve({ plugins: { allow: ["alpha", "nope"], deny: ["ghost"], entries: { phantom: { enabled: true } } } });
    expect(set.problems.map((p) => [p.level, p.pluginId])).toEqual([
      ["warning", "nope"],
      ["warning", "ghost"],
      ["warning", "phantom"],
    ]);
    expect(set.problems[0]!.message).toContain('plugins.allow names "nope", but no installed plugin has that id');
  });

  it("two active plugins claiming one channel is an error", async () => {
    writePackage(path.join(extNodeModules(), "p-alpha2"), { name: "p-alpha2", plugin: pluginBlock("alpha2", { channels: ["alpha"] }) });
    const set = await resolve();
    expect(set.problems.filter((p) => p.level === "error").map((p) => p.message)).toEqual([
      expect.stringContaining('channel "alpha" is provided by two plugins'),
    ]);
    const fixed = await resolve({ plugins: { entries: { alpha2: { enabled: false } } } });
    expect(fixed.problems).toEqual([]);
  });
});

describe("SDK compatibility", () => {
  it("refuses an enabled plugin whose range excludes the host's version, naming both versions and the fixes", async () => {
    const set = await resolve({ plugins: { load: { paths: [fixture("futurechat")] } } });
    const plugin = set.plugins[0]!;
    expect(plugin).toMatchObject({ id: "futurechat", enabled: true, compatible: false, active: false });
    const errors = set.problems.filter((p) => p.level === "error");
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toContain("@openclaw/plugin-sdk ^9.0.0");
    expect(errors[0]!.message).toContain(`@openclaw/plugin-sdk ${PLUGIN_SDK_VERSION}`);
    expect(errors[0]!.message).toContain("update OpenClaw (@openclaw/core)");
    expect(errors[0]!.message).toContain("openclaw plugins disable futurechat");
  });

  it("tells an old plugin to update itself when the host is newer than its range", async () => {
    writePackage(path.join(extNodeModules(), "old"), { name: "openclaw-old", plugin: pluginBlock("old", { sdk: "<0.1.0" }) });
    const set = await resolve({}, { hostSdkVersion: "0.1.0" });
    expect(set.problems[0]!.message).toContain(
      "update the plugin to a release built for @openclaw/plugin-sdk 0.1.0 (`openclaw plugins install openclaw-old@latest`)",
    );
  });

  it("a disabled incompatible plugin is not an error", async () => {
    const set = await resolve({ plugins: { load: { paths: [fixture("futurechat")] }, entries: { futurechat: { enabled: false } } } });
    expect(set.problems).toEqual([]);
    expect(set.plugins[0]).toMatchObject({ compatible: false, enabled: false, active: false });
  });

  it("accepts prerelease hosts inside the range", async () => {
    writePackage(path.join(extNodeModules(), "pre"), { name: "pre", plugin: pluginBlock("pre", { sdk: "^0.2.0" }) });
    const set = await resolve({}, { hostSdkVersion: "0.2.1-next.3" });
    expect(set.plugins[0]!.compatible).toBe(true);
  });
});
