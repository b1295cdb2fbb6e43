// `openclaw plugins list|install|uninstall|enable|disable`, loaded only when one of them runs.
import { ConfigFileError, readConfigSource, resolveConfigSource, type OpenClawPaths } from "../../config/index.js";
import {
  type BrokenPlugin,
  extensionsDir,
  firstPartyChannel,
  installPlugin,
  type PluginProblem,
  type PluginSet,
  probePlugin,
  type ResolvedPlugin,
  resolvePlugins,
  setPluginEnabled,
  uninstallPlugin,
} from "../../plugins/index.js";
import type { CliContext } from "../context.js";
import { writeJson, writeLine } from "../output.js";
import { withProgress } from "../progress.js";

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

type PluginStatus = "enabled" | "disabled" | "incompatible" | "broken";

/** A row of `plugins list`: a resolved plugin (with the problem its modules have), or a broken package. */
type Row = { kind: "plugin"; plugin: ResolvedPlugin; problem?: PluginProblem } | { kind: "broken"; broken: BrokenPlugin };

function statusOf(row: Row): PluginStatus {
  if (row.kind === "broken" || row.problem) return "broken";
  if (!row.plugin.enabled) return "disabled";
  return row.plugin.compatible ? "enabled" : "incompatible";
}

function statusText(row: Row): string {
  const status = statusOf(row);
  if (status === "disabled" && row.kind === "plugin") return `disabled (${row.plugin.disabledReason})`;
  if (status === "incompatible") return "refused (incompatible SDK range)";
  return status;
}

function rowJson(row: Row, host: string) {
  const status = statusOf(row);
  if (row.kind === "broken") {
    const b = row.broken;
    return {
      id: b.id ?? null,
      packageName: b.packageName,
      version: b.version ?? null,
      source: b.source,
      rootDir: b.rootDir,
      channels: [],
      status,
      active: false,
      broken: b.problem.message,
    };
  }
  const p = row.plugin;
  return {
    id: p.id,
    packageName: p.packageName,
    version: p.version,
    source: p.source,
    rootDir: p.rootDir,
    channels: p.manifest.channels,
    status,
    enabled: p.enabled,
    ...(p.disabledReason ? { disabledReason: p.disabledReason } : {}),
    active: p.active && !row.problem,
    ...(row.problem ? { broken: row.problem.message } : {}),
    sdk: { range: p.manifest.sdk, host, compatible: p.compatible },
    shadowed: p.shadowed,
    ...(p.installedFrom ? { installedFrom: p.installedFrom } : {}),
  };
}

/** Every plugin found plus every broken package, sorted by id; the active plugins' modules are imported to see that they load. */
async function listRows(set: PluginSet): Promise<Row[]> {
  const plugins = await Promise.all(
    set.plugins.map(async (plugin): Promise<Row> => {
      const problem = plugin.active ? await probePlugin(plugin) : undefined;
      return problem ? { kind: "plugin", plugin, problem } : { kind: "plugin", plugin };
    }),
  );
  const broken = set.broken.map((b): Row => ({ kind: "broken", broken: b }));
  const key = (r: Row) => (r.kind === "plugin" ? r.plugin.id : (r.broken.id ?? r.broken.packageName));
  return [...plugins, ...broken].sort((a, b) => key(a).localeCompare(key(b)));
}

function printList(ctx: CliContext, set: PluginSet, rows: readonly Row[], paths: OpenClawPaths): void {
  const out = ctx.stdout;
  if (rows.length === 0) {
    writeLine(
      out,
      `No plugins found. Install one with \`openclaw plugins install <channel | folder | tarball>\` (into ${extensionsDir(paths.stateDir)}).`,
    );
  } else {
    writeLine(out, `Plugins (this OpenClaw provides @openclaw/plugin-sdk ${set.hostSdkVersion}):`);
  }
  for (const row of rows) {
    if (row.kind === "broken") {
      const b = row.broken;
      writeLine(out, `  ${b.id ?? b.packageName}  ${b.packageName}${b.version ? `@${b.version}` : ""}  [${b.source}]  broken`);
      writeLine(out, `    broken: ${b.problem.message}`);
      writeLine(out, `    folder: ${b.rootDir}`);
      continue;
    }
    const p = row.plugin;
    writeLine(out, `  ${p.id}  ${p.packageName}@${p.version}  [${p.source}]  ${statusText(row)}`);
    writeLine(out, `    channels: ${p.manifest.channels.join(", ")}`);
    writeLine(out, `    sdk: ${p.manifest.sdk} (${p.compatible ? "compatible" : `does not include ${set.hostSdkVersion}`})`);
    if (row.problem) writeLine(out, `    broken: ${row.problem.message}`);
    writeLine(out, `    folder: ${p.rootDir}`);
    for (const s of p.shadowed) writeLine(out, `    shadows: ${s.packageName}@${s.version} [${s.source}] ${s.rootDir} (not loaded)`);
  }
  // Problems already shown on a broken row are not repeated.
  const shown = new Set(rows.flatMap((r) => (r.kind === "broken" ? [r.broken.problem] : [])));
  const problems = set.problems.filter((p) => !shown.has(p));
  if (problems.length > 0) {
    writeLine(out, "");
    writeLine(out, "Problems:");
    for (const problem of problems) writeLine(out, `  ${problem.level}: ${problem.message}`);
  }
}

/**
 * `plugins list [--json]`: every plugin found, whether it loads and why, and the problems. The
 * active plugins' modules are imported, so one that no longer loads shows as `broken`, with why.
 */
export async function listPluginsCommand(ctx: CliContext, opts: { json?: boolean }): Promise<void> {
  const paths = ctx.paths();
  const set = await resolvePlugins({ paths, config: await lenientConfig(ctx, paths) });
  const rows = await listRows(set);
  if (opts.json) {
    writeJson(ctx.stdout, {
      hostSdkVersion: set.hostSdkVersion,
      extensionsDir: extensionsDir(paths.stateDir),
      plugins: rows.map((r) => rowJson(r, set.hostSdkVersion)),
      problems: [...set.problems, ...rows.flatMap((r) => (r.kind === "plugin" && r.problem ? [r.problem] : []))],
    });
  } else {
    printList(ctx, set, rows, paths);
  }
}

/** `plugins install <spec>`: packed into `<stateDir>/extensions`, checked, with the host's SDK and zod linked. */
export async function installPluginCommand(ctx: CliContext, spec: string): Promise<void> {
  const paths = ctx.paths();
  const tty = (ctx.stderr as { isTTY?: boolean }).isTTY === true;
  const result = await withProgress(
    ctx.stderr,
    `Installing ${spec}`,
    (progress) =>
      installPlugin({
        paths,
        spec,
        // On a terminal npm's last line turns beside the spinner; piped, its output passes as it is.
        onOutput: (text) => {
          const line = text.trim().split("\n").pop();
          if (!tty) ctx.stderr.write(text);
          else if (line) progress.update(`Installing ${spec}: ${line.slice(0, 70)}`);
        },
      }),
    { done: (r) => `Installed ${r.plugin.packageName}@${r.plugin.version}` },
  );
  const { plugin, record } = result;
  for (const w of result.warnings) writeLine(ctx.stderr, `Warning: ${w}`);
  const from =
    record.kind === "registry"
      ? ""
      : ` from ${record.kind === "first-party" ? `this checkout's ${firstPartyChannel(record.from)?.folder}` : record.from}`;
  writeLine(ctx.stdout, `Installed plugin "${plugin.id}" (${plugin.packageName}@${plugin.version})${from} into ${result.extensionsDir}.`);
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

/** `plugins uninstall <id>`: removes an installed plugin; reports what in the config still refers to it. */
export async function uninstallPluginCommand(ctx: CliContext, target: string): Promise<void> {
  const paths = ctx.paths();
  const result = await uninstallPlugin({
    paths,
    target,
    config: await lenientConfig(ctx, paths),
    onOutput: (text) => ctx.stderr.write(text),
  });
  const label = result.id ? `plugin "${result.id}" (${result.packageName})` : result.packageName;
  writeLine(ctx.stdout, `Uninstalled ${label} from ${result.extensionsDir}. The other installed plugins are unchanged.`);
  if (result.configReferences.length > 0) {
    writeLine(
      ctx.stdout,
      `Your config was not changed; ${paths.configPath} still has ${result.configReferences.join(", ")} (kept for a reinstall; remove with \`openclaw config unset <path>\` if you are done with it).`,
    );
  }
  for (const channel of result.orphanedChannels) {
    writeLine(
      ctx.stderr,
      `Warning: channels.${channel} is still configured and no plugin provides it now, so the gateway will not start: set channels.${channel}.enabled to false, remove channels.${channel}, or install the plugin again.`,
    );
  }
  writeLine(ctx.stdout, "Restart the gateway to apply.");
}
