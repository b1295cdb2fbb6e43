import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError, createConfigRegistry, validateConfig } from "../../src/config/index.js";
import {
  loadChannelConfigDefinitions,
  loadChannelPlugins,
  loadConfigWithPlugins as loadConfig,
  missingChannelPlugins,
  PluginLoadError,
  resolvePlugins,
  type ResolvePluginsOptions,
} from "../../src/plugins/index.js";
import { fixture, makeSandbox, pluginBlock, writePackage, type Sandbox } from "./helpers.js";

let sb: Sandbox;
beforeEach(() => (sb = makeSandbox()));
afterEach(() => sb.cleanup());

const resolve = (config: unknown, extra: Partial<ResolvePluginsOptions> = {}) =>
  resolvePlugins({ paths: sb.paths, config, cwd: sb.project, hostPackageJson: sb.hostPackageJson, cache: false, ...extra });
const withFixtures = (...names: string[]) => ({ plugins: { load: { paths: names.map(fixture) } } });

describe("loading plugins", () => {
  it("imports the light configEntry for config definitions, and entry for the channel plugin", async () => {
    const set = await resolve(withFixtures("fakechat"));
    const defs = await loadChannelConfigDefinitions(set);
    expect(defs.map((d) => [d.id, d.packageName])).toEqual([["fakechat", "openclaw-fakechat"]]);

    const [plugin] = await loadChannelPlugins(set);
    expect(plugin!.id).toBe("fakechat");
    expect(plugin!.config.capabilities.textLimit).toBe(1000);
    expect(plugin!.listAccounts({ accounts: { work: {} } }, {})).toEqual(["default", "work"]);
    const stop = new AbortController();
    const outbound = await plugin!.connect({
      accountId: "default",
      account: {},
      signal: stop.signal,
      receive: async () => undefined,
      status: () => undefined,
      log: console as never,
      credentialsDir: "/nonexistent",
      cursor: { get: () => undefined, set: () => undefined },
    });
    expect(
      await outbound.sendText({ chat: { kind: "direct", id: "1" } }, "hi", {
        signal: new AbortController().signal,
        priority: "final",
        format: "plain",
        idempotencyKey: "k",
      }),
    ).toEqual({ messageId: "default-1" });
    stop.abort();
    await outbound.closed;
  });

  it("accepts the options to resolve with (as the gateway passes them)", async () => {
    const plugins = await loadChannelPlugins({
      paths: sb.paths,
      config: withFixtures("fakechat"),
      cwd: sb.project,
      hostPackageJson: sb.hostPackageJson,
      cache: false,
    });
    expect(plugins.map((p) => p.id)).toEqual(["fakechat"]);
  });

  it("refuses to load when a plugin is incompatible, without importing its code", async () => {
    const set = await resolve(withFixtures("fakechat", "futurechat"));
    const err = await loadChannelPlugins(set).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PluginLoadError);
    const message = (err as Error).message;
    expect(message).toContain("^9.0.0");
    expect(message).toContain("0.1.0");
    expect(message).not.toContain("must never be imported");
    // Turned off, the refusal goes away and the other plugin loads.
    const off = await resolve({
      plugins: { ...withFixtures("fakechat", "futurechat").plugins, entries: { futurechat: { enabled: false } } },
    });
    expect((await loadChannelPlugins(off)).map((p) => p.id)).toEqual(["fakechat"]);
  });

  it("falls back to entry when there is no configEntry", async () => {
    const dir = writePackage(path.join(sb.root, "noconfig"), {
      name: "noconfig",
      plugin: { ...pluginBlock("fakechat"), entry: "./index.js" },
    });
    writeFileSync(path.join(dir, "index.js"), `export { default } from ${JSON.stringify(path.join(fixture("fakechat"), "index.js"))};\n`);
    const defs = await loadChannelConfigDefinitions(await resolve({ plugins: { load: { paths: [dir] } } }));
    expect(defs.map((d) => d.id)).toEqual(["fakechat"]);
  });

  it("names the plugin, the file and each wrong member of a bad export", async () => {
    const dir = writePackage(path.join(sb.root, "bad"), { name: "openclaw-bad", plugin: pluginBlock("bad") });
    writeFileSync(
      path.join(dir, "index.js"),
      'export default { id: "other", meta: { label: "Bad" }, config: { capabilities: { chatTypes: [], edit: "yes" } }, start() {} };\n',
    );
    const err = (await loadChannelPlugins(await resolve({ plugins: { load: { paths: [dir] } } })).catch(
      (e: unknown) => e,
    )) as PluginLoadError;
    expect(err).toBeInstanceOf(PluginLoadError);
    expect(err.problems).toHaveLength(1);
    const text = err.problems[0]!.message;
    expect(text).toContain('plugin "bad" (openclaw-bad 1.0.0)');
    expect(text).toContain(path.join(dir, "index.js"));
    for (const bit of [
      'id "other" is not one of the manifest\'s channels',
      "listAccounts must be a function (missing)",
      "meta.docsPath must be a string (missing)",
      "config.capabilities.edit must be a boolean",
      "config.capabilities.textLimit must be a positive integer (missing)",
      "specificationVersion must be 2",
      "connect must be a function (missing)",
      "config.schema must be an object (missing)",
    ]) {
      expect(text).toContain(bit);
    }
  });

  it("reports a module that fails to import, with the plugin named", async () => {
    const dir = writePackage(path.join(sb.root, "throws"), { name: "openclaw-throws", plugin: pluginBlock("throws") });
    writeFileSync(path.join(dir, "index.js"), 'throw new Error("kaboom");\n');
    const err = (await loadChannelConfigDefinitions(await resolve({ plugins: { load: { paths: [dir] } } })).catch(
      (e: unknown) => e,
    )) as PluginLoadError;
    expect(err.message).toContain('plugin "throws"');
    expect(err.message).toContain("kaboom");
    expect(err.message).toContain("openclaw plugins disable throws");
  });
});

describe("config definitions from an installed plugin join validation and doctor", () => {
  it("validates and migrates the plugin's channel with its own retired key", async () => {
    const defs = await loadChannelConfigDefinitions(await resolve(withFixtures("fakechat")));
    const registry = createConfigRegistry(defs);
    const config = { channels: { fakechat: { streamMode: "off", fakeLiveTools: false, accounts: { b: { blockStreaming: true } } } } };
    const before = validateConfig(structuredClone(config), registry);
    expect(before.ok).toBe(false);
    if (!before.ok)
      expect(before.problems.map((p) => p.path)).toEqual([
        "channels.fakechat.streamMode",
        "channels.fakechat.fakeLiveTools",
        "channels.fakechat.accounts.b.blockStreaming",
      ]);
    const migrated = structuredClone(config);
    const outcome = registry.migrate(migrated);
    expect(outcome.changes).toContain("channels.fakechat.fakeLiveTools -> channels.fakechat.streaming.preview.toolProgress");
    expect(migrated.channels.fakechat).toEqual({
      streaming: { mode: "off", preview: { toolProgress: false } },
      accounts: { b: { streaming: { block: { enabled: true } } } },
    });
    expect(validateConfig(migrated, registry).ok).toBe(true);
  });

  it("loadConfig discovers the plugins the config selects and validates their channels", async () => {
    const write = (config: unknown) => writeFileSync(sb.paths.configPath, JSON.stringify(config));
    write({ ...withFixtures("fakechat"), channels: { fakechat: { streaming: { mode: "partial" } } } });
    const loaded = await loadConfig(sb.paths, { cwd: sb.project });
    expect(loaded.config.channels).toHaveProperty("fakechat");
    expect(loaded.warnings).toEqual([]);

    write({ ...withFixtures("fakechat"), channels: { fakechat: { streaming: { mode: "quiet" } } } });
    const bad = await loadConfig(sb.paths, { cwd: sb.project }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(ConfigError);
    expect((bad as ConfigError).problems.map((p) => p.path)).toEqual(["channels.fakechat.streaming.mode"]);

    // Without the plugin, the channel is unknown.
    write({ channels: { fakechat: {} } });
    const unknown = (await loadConfig(sb.paths, { cwd: sb.project }).catch((e: unknown) => e)) as ConfigError;
    expect(unknown.problems[0]!.message).toContain('no channel named "fakechat"');

    // Turned off, its config is kept (not "unknown") and a warning says how to turn it on.
    write({
      plugins: { ...withFixtures("fakechat").plugins, entries: { fakechat: { enabled: false } } },
      channels: { fakechat: { anything: 1 } },
    });
    const off = await loadConfig(sb.paths, { cwd: sb.project });
    expect(off.warnings).toEqual([
      expect.stringContaining('channels.fakechat is configured but its plugin "fakechat" (openclaw-fakechat) is turned off'),
    ]);
    expect(off.warnings[0]).toContain("openclaw plugins enable fakechat");
  });

  it("loadConfig refuses a config whose enabled plugin is incompatible", async () => {
    writeFileSync(sb.paths.configPath, JSON.stringify(withFixtures("futurechat")));
    const err = (await loadConfig(sb.paths, { cwd: sb.project }).catch((e: unknown) => e)) as ConfigError;
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toContain('plugins: plugin "futurechat"');
    expect(err.message).toContain("^9.0.0");
  });
});

describe("missingChannelPlugins", () => {
  it("names the package to install for each configured channel without a plugin", async () => {
    const set = await resolve(withFixtures("fakechat"));
    const config = { channels: { telegram: { botToken: "x" }, matrix: { enabled: false }, fakechat: {} } };
    expect(missingChannelPlugins(config, set)).toEqual([
      {
        channel: "telegram",
        packageName: "@openclaw/telegram",
        reason: "not-installed",
        message: "channels.telegram is configured but no installed plugin provides it; install it with `openclaw plugins install telegram`",
      },
    ]);
    expect(missingChannelPlugins({}, set)).toEqual([]);
  });

  it("says when the plugin is installed but refused", async () => {
    const set = await resolve(withFixtures("futurechat"));
    const [missing] = missingChannelPlugins({ channels: { futurechat: {} } }, set);
    expect(missing).toMatchObject({ channel: "futurechat", reason: "incompatible", packageName: "openclaw-futurechat" });
    expect(missing!.message).toContain("^9.0.0");
  });
});
