import { pathToFileURL } from "node:url";
import type { ChannelPlugin } from "@openclaw/plugin-sdk";
import type { ChannelConfigDefinition } from "@openclaw/plugin-sdk/config";
import { UserError } from "../config/index.js";
import { asChannelPlugin, asConfigDefinition, channelPluginIssues, configDefinitionIssues } from "./shape.js";
import { reinstallCommand } from "./extensions-store.js";
import { HOST_PROVIDED } from "./host-links.js";
import { resolvePlugins, type ResolvePluginsOptions } from "./resolve.js";
import type { PluginProblem, PluginSet, ResolvedPlugin } from "./types.js";

/**
 * What the loaders accept: a resolved `PluginSet`, a list of resolved plugins, or the options to
 * resolve them with (`{ paths, config, cwd? }`; other keys are ignored).
 */
export type PluginsInput = PluginSet | readonly ResolvedPlugin[] | ResolvePluginsOptions;

async function toSet(source: PluginsInput): Promise<PluginSet | readonly ResolvedPlugin[]> {
  if (Array.isArray(source)) return source as readonly ResolvedPlugin[];
  if ("hostSdkVersion" in source && "plugins" in source) return source as PluginSet;
  return resolvePlugins(source as ResolvePluginsOptions);
}

/** Renders plugin problems as the indented list the CLI prints. */
export function formatPluginProblems(problems: readonly PluginProblem[]): string {
  const errors = problems.filter((p) => p.level === "error");
  const lines = [`Plugins cannot be loaded (${errors.length} problem${errors.length === 1 ? "" : "s"}):`];
  for (const p of errors) lines.push(`  - ${p.message}`);
  lines.push("See every installed plugin with `openclaw plugins list`.");
  return lines.join("\n");
}

/** Plugins were refused at load time; `problems` lists each with the plugin, file and fix. */
export class PluginLoadError extends UserError {
  constructor(readonly problems: PluginProblem[]) {
    super(formatPluginProblems(problems), 1);
    this.name = "PluginLoadError";
  }
}

const isSet = (v: PluginSet | readonly ResolvedPlugin[]): v is PluginSet => !Array.isArray(v);

function failure(plugin: ResolvedPlugin, file: string, what: string): PluginProblem {
  return {
    level: "error",
    pluginId: plugin.id,
    file,
    message: `plugin "${plugin.id}" (${plugin.packageName} ${plugin.version}): ${file} ${what}`,
  };
}

/** How to get a working copy of the plugin again, by where it was found. */
function reinstallHint(plugin: ResolvedPlugin): string {
  switch (plugin.source) {
    case "extensions":
      return `reinstall it with \`${reinstallCommand(plugin.packageName, plugin.installedFrom)}\``;
    case "path":
      return `rebuild it in ${plugin.rootDir}`;
    case "dependency":
      return "reinstall your project's dependencies (e.g. `npm install`)";
  }
}

/** The fix for a module that failed to import, from the error. */
function importFailureFix(plugin: ResolvedPlugin, err: NodeJS.ErrnoException): string {
  const missing = err.code === "ERR_MODULE_NOT_FOUND" ? /Cannot find package '([^']+)'/.exec(err.message)?.[1] : undefined;
  const disable = `or turn it off with \`openclaw plugins disable ${plugin.id}\``;
  if (missing && (HOST_PROVIDED as readonly string[]).includes(missing)) {
    const how =
      plugin.source === "extensions"
        ? `${reinstallHint(plugin)}, which links this OpenClaw's ${missing} beside it`
        : plugin.source === "path"
          ? `install the plugin with \`openclaw plugins install ${plugin.rootDir}\` (it then uses this OpenClaw's ${missing}), or add ${missing} to the folder's own node_modules`
          : `add ${missing} to your project's dependencies`;
    return `It cannot find ${missing}, which OpenClaw provides to plugins (a plugin declares it as a peer dependency). Fix: ${how}; ${disable}.`;
  }
  if (missing) {
    return `It needs the package ${missing}, which is not installed beside it. Fix: the plugin must list ${missing} in the "dependencies" of its package.json (ask its author, or correct it in its source), then ${reinstallHint(plugin)}; ${disable}.`;
  }
  return `Fix: ${reinstallHint(plugin)}; ${disable}.`;
}

async function importDefault(
  plugin: ResolvedPlugin,
  file: string,
): Promise<{ ok: true; value: unknown } | { ok: false; problem: PluginProblem }> {
  try {
    const mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
    if (mod.default === undefined) return { ok: false, problem: failure(plugin, file, "has no default export.") };
    return { ok: true, value: mod.default };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const what = (e?.message ?? String(err)).split("\n")[0]!.replace(/\.$/, "");
    return {
      ok: false,
      problem: {
        level: "error",
        pluginId: plugin.id,
        file,
        message: `plugin "${plugin.id}" (${plugin.packageName} ${plugin.version}) is installed, but ${file} failed to import: ${what}. ${importFailureFix(plugin, e ?? {})}`,
      },
    };
  }
}

function missingChannels(plugin: ResolvedPlugin, provided: readonly string[], file: string): PluginProblem[] {
  const missing = plugin.manifest.channels.filter((c) => !provided.includes(c));
  return missing.length ? [failure(plugin, file, `exports nothing for channel(s) ${missing.join(", ")} that the manifest lists.`)] : [];
}

async function configDefinitionsOf(plugin: ResolvedPlugin): Promise<{ definitions: ChannelConfigDefinition[]; problems: PluginProblem[] }> {
  const light = plugin.manifest.configEntry;
  const file = light ?? plugin.manifest.entry;
  const loaded = await importDefault(plugin, file);
  if (!loaded.ok) return { definitions: [], problems: [loaded.problem] };
  const exported = Array.isArray(loaded.value) ? loaded.value : [loaded.value];
  const definitions: unknown[] = light
    ? exported
    : exported.map((p) => (typeof p === "object" && p !== null ? (p as { config?: unknown }).config : p));
  const issues = definitions.flatMap((d, i) =>
    configDefinitionIssues(d, plugin.manifest.channels, exported.length > 1 ? `[${i}].${light ? "" : "config."}` : light ? "" : "config."),
  );
  if (issues.length)
    return {
      definitions: [],
      problems: [failure(plugin, file, `does not default-export a valid ChannelConfigDefinition: ${issues.join("; ")}.`)],
    };
  const valid = definitions.map(asConfigDefinition);
  const problems = missingChannels(
    plugin,
    valid.map((d) => d.id),
    file,
  );
  return problems.length ? { definitions: [], problems } : { definitions: valid, problems: [] };
}

/**
 * Imports each active plugin's light `configEntry` (falling back to `entry`) and returns the
 * config definitions, without throwing: failures are returned as error problems. Used by config
 * validation and doctor.
 */
export async function collectChannelConfigDefinitions(
  plugins: readonly ResolvedPlugin[],
): Promise<{ definitions: ChannelConfigDefinition[]; problems: PluginProblem[] }> {
  const results = await Promise.all(plugins.filter((p) => p.active).map(configDefinitionsOf));
  return { definitions: results.flatMap((r) => r.definitions), problems: results.flatMap((r) => r.problems) };
}

function refuseOnErrors(source: PluginSet | readonly ResolvedPlugin[], loadProblems: PluginProblem[]): void {
  const setErrors = isSet(source) ? source.problems.filter((p) => p.level === "error") : [];
  const all = [...setErrors, ...loadProblems];
  if (all.length) throw new PluginLoadError(all);
}

/**
 * The `ChannelConfigDefinition`s of every active plugin (importing only `configEntry`, or
 * `entry` when a plugin has none). Throws `PluginLoadError` listing every problem when a module
 * fails to import or exports the wrong shape, and, given a `PluginSet`, when the set has errors
 * (broken manifest, incompatible SDK range, two plugins for one channel).
 */
export async function loadChannelConfigDefinitions(input: PluginsInput): Promise<ChannelConfigDefinition[]> {
  const source = await toSet(input);
  const plugins = isSet(source) ? source.plugins : source;
  const { definitions, problems } = await collectChannelConfigDefinitions(plugins);
  refuseOnErrors(source, problems);
  return definitions;
}

/**
 * Imports each active plugin's `entry` and returns its `ChannelPlugin`(s), checking the shape:
 * the id is one of the manifest's channels, every required member is present, and `config` is a
 * valid definition. Throws `PluginLoadError` like `loadChannelConfigDefinitions` (so a gateway
 * never starts with a plugin that was refused).
 */
export async function loadChannelPlugins(input: PluginsInput): Promise<ChannelPlugin[]> {
  const source = await toSet(input);
  const plugins = (isSet(source) ? source.plugins : source).filter((p) => p.active);
  const results = await Promise.all(plugins.map(channelPluginsOf));
  refuseOnErrors(
    source,
    results.flatMap((r) => r.problems),
  );
  return results.flatMap((r) => r.items);
}

/** Imports a plugin's `entry` and checks that it default-exports ChannelPlugin(s) for its channels. */
async function channelPluginsOf(plugin: ResolvedPlugin): Promise<{ items: ChannelPlugin[]; problems: PluginProblem[] }> {
  const file = plugin.manifest.entry;
  const loaded = await importDefault(plugin, file);
  if (!loaded.ok) return { items: [], problems: [loaded.problem] };
  const exported = Array.isArray(loaded.value) ? loaded.value : [loaded.value];
  const issues = exported.flatMap((p, i) =>
    channelPluginIssues(p, plugin.manifest.channels).map((t) => (exported.length > 1 ? `[${i}] ${t}` : t)),
  );
  if (issues.length)
    return { items: [], problems: [failure(plugin, file, `does not default-export a valid ChannelPlugin: ${issues.join("; ")}.`)] };
  const items = exported.map(asChannelPlugin);
  const problems = missingChannels(
    plugin,
    items.map((p) => p.id),
    file,
  );
  return problems.length ? { items: [], problems } : { items, problems: [] };
}

/**
 * Imports a plugin's `configEntry` and `entry` the way the gateway does and returns the first
 * problem (a failed import, a wrong export), or undefined when it would load. Runs the plugin's
 * module code; used by `openclaw plugins list` for the plugins that are active.
 */
export async function probePlugin(plugin: ResolvedPlugin): Promise<PluginProblem | undefined> {
  const config = await configDefinitionsOf(plugin);
  if (config.problems.length) return config.problems[0];
  return (await channelPluginsOf(plugin)).problems[0];
}
