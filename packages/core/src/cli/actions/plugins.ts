// `openclaw plugins list|install|enable|disable`, loaded only when one of them runs.
import { ConfigFileError, readConfigSource, resolveConfigSource, type OpenClawPaths } from "../../config/index.js";
import {
  extensionsDir,
  installPlugin,
  resolvePlugins,
  setPluginEnabled,
  type PluginSet,
  type ResolvedPlugin,
} from "../../plugins/index.js";
import type { CliContext } from "../context.js";
import { writeJson, writeLine } from "../output.js";

/**
 * The config as far as `plugins.*` goes. These are diagnostic commands: an invalid or unreadable
 * config must not stop them, so problems fall back to the raw file or to `{}` with a warning.
 */
async function lenientConfig(ctx: CliContext, paths: OpenClawPaths): Promise<unknown> {
  let raw: unknown = {};
  try {
    raw = (await readConfigSource(paths.configPath)).raw;
    return await resolveConfigSource(raw, { file: paths.configPath });
  } catch (err) {
    if (!(err instanceof ConfigFileError)) throw err;
    writeLine(ctx.stderr, `Warning: ${err.message.split("\n")[0]} (reading plugins.* as far as possible)`);
    return raw;
  }
}

function statusOf(p: ResolvedPlugin): string {
  if (!p.enabled) return `disabled (${p.disabledReason})`;
  if (!p.compatible) return "refused (incompatible SDK range)";
  return "enabled";
}

function pluginJson(p: ResolvedPlugin, host: string) {
  return {
    id: p.id,
    packageName: p.packageName,
    version: p.version,
    source: p.source,
    rootDir: p.rootDir,
    channels: p.manifest.channels,
    status: !p.enabled ? "disabled" : p.compatible ? "enabled" : "incompatible",
    enabled: p.enabled,
    ...(p.disabledReason ? { disabledReason: p.disabledReason } : {}),
    active: p.active,
    sdk: { range: p.manifest.sdk, host, compatible: p.compatible },
    shadowed: p.shadowed,
  };
}

function printList(ctx: CliContext, set: PluginSet, paths: OpenClawPaths): void {
  const out = ctx.stdout;
  if (set.plugins.length === 0) {
    writeLine(out, `No plugins found. Install one with \`openclaw plugins install <package>\` (into ${extensionsDir(paths.stateDir)}).`);
  } else {
    writeLine(out, `Plugins (this OpenClaw provides @openclaw/plugin-sdk ${set.hostSdkVersion}):`);
    for (const p of set.plugins) {
      writeLine(out, `  ${p.id}  ${p.packageName}@${p.version}  [${p.source}]  ${statusOf(p)}`);
      writeLine(out, `    channels: ${p.manifest.channels.join(", ")}`);
      writeLine(out, `    sdk: ${p.manifest.sdk} (${p.compatible ? "compatible" : `does not include ${set.hostSdkVersion}`})`);
      writeLine(out, `    folder: ${p.rootDir}`);
      for (const s of p.shadowed) writeLine(out, `    shadows: ${s.packageName}@${s.version} [${s.source}] ${s.rootDir} (not loaded)`);
    }
  }
  if (set.problems.length > 0) {
    writeLine(out, "");
    writeLine(out, "Problems:");
    for (const problem of set.problems) writeLine(out, `  ${problem.level}: ${problem.message}`);
  }
}

/** `plugins list [--json]`: every plugin found, whether it loads and why, and the problems. */
export async function listPluginsCommand(ctx: CliContext, opts: { json?: boolean }): Promise<void> {
  const paths = ctx.paths();
  const set = await resolvePlugins({ paths, config: await lenientConfig(ctx, paths) });
  if (opts.json) {
    writeJson(ctx.stdout, {
      hostSdkVersion: set.hostSdkVersion,
      extensionsDir: extensionsDir(paths.stateDir),
      plugins: set.plugins.map((p) => pluginJson(p, set.hostSdkVersion)),
      problems: set.problems,
    });
  } else {
    printList(ctx, set, paths);
  }
}

/** `plugins install <spec>`: npm into `<stateDir>/extensions`, checked, with the host SDK linked. */
export async function installPluginCommand(ctx: CliContext, spec: string): Promise<void> {
  const paths = ctx.paths();
  const result = await installPlugin({ paths, spec, onOutput: (text) => ctx.stderr.write(text) });
  const { plugin } = result;
  for (const w of result.warnings) writeLine(ctx.stderr, `Warning: ${w}`);
  writeLine(ctx.stdout, `Installed plugin "${plugin.id}" (${plugin.packageName}@${plugin.version}) into ${result.extensionsDir}.`);
  writeLine(
    ctx.stdout,
    `It provides the channel${plugin.manifest.channels.length === 1 ? "" : "s"} ${plugin.manifest.channels.join(", ")}.`,
  );

  const set = await resolvePlugins({ paths, config: await lenientConfig(ctx, paths) });
  const now = set.plugins.find((p) => p.id === plugin.id);
  if (now && now.rootDir !== plugin.rootDir) {
    writeLine(
      ctx.stderr,
      `Warning: another plugin with the id "${plugin.id}" (${now.packageName}@${now.version}, ${now.source}) takes precedence, so this one will not load.`,
    );
  } else if (now && !now.enabled) {
    writeLine(ctx.stderr, `Warning: it will not load until you change the config: ${now.disabledReason}.`);
  }
  const channel = plugin.manifest.channels[0]!;
  writeLine(
    ctx.stdout,
    `Configure it under channels.${channel} in ${paths.configPath}, e.g. \`openclaw config set channels.${channel}.dmPolicy pairing\`,`,
  );
  writeLine(ctx.stdout, "then check with `openclaw config validate` and (re)start the gateway.");
}

/** `plugins enable|disable <id>`: writes `plugins.entries.<id>.enabled`. */
export async function setPluginEnabledCommand(ctx: CliContext, id: string, enabled: boolean): Promise<void> {
  const result = await setPluginEnabled(ctx.paths(), id, enabled);
  writeLine(
    ctx.stdout,
    `Plugin "${id}" ${enabled ? "enabled" : "disabled"}: set plugins.entries.${id}.enabled = ${enabled} in ${result.file}${result.backupPath ? ` (previous version kept as ${result.backupPath})` : ""}. Restart the gateway to apply.`,
  );
  if (result.stillDisabled) writeLine(ctx.stderr, `Warning: "${id}" still will not load: ${result.stillDisabled}.`);
}
