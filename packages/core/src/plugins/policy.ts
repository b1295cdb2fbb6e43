import path from "node:path";
import { expandUserPath } from "../config/index.js";
import type { PluginProblem } from "./types.js";

/** The `plugins` settings that decide discovery and loading, read leniently from any config. */
export interface PluginSettings {
  /** `plugins.enabled`; default true. */
  enabled: boolean;
  /** `plugins.allow`; undefined means every plugin may load. */
  allow?: readonly string[];
  /** `plugins.deny`; default []. */
  deny: readonly string[];
  /** `plugins.load.paths`, absolute (relative ones resolve against the config file's folder). */
  loadPaths: readonly string[];
  /** Ids with `plugins.entries.<id>.enabled: false`. */
  disabledEntries: ReadonlySet<string>;
  /** Every id under `plugins.entries`. */
  entryIds: readonly string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : undefined);

/**
 * Reads `plugins.*` from a raw or validated config. Values of the wrong type fall back to their
 * defaults (schema validation reports them); this never throws.
 */
export function readPluginSettings(config: unknown, configPath: string): PluginSettings {
  const plugins = isObject(config) && isObject(config.plugins) ? config.plugins : {};
  const entries = isObject(plugins.entries) ? plugins.entries : {};
  const base = path.dirname(configPath);
  const loadPaths = (strings(isObject(plugins.load) ? plugins.load.paths : undefined) ?? []).map((p) =>
    path.resolve(base, expandUserPath(p)),
  );
  const allow = strings(plugins.allow);
  return {
    enabled: plugins.enabled !== false,
    ...(allow ? { allow } : {}),
    deny: strings(plugins.deny) ?? [],
    loadPaths,
    disabledEntries: new Set(
      Object.entries(entries)
        .filter(([, e]) => isObject(e) && e.enabled === false)
        .map(([id]) => id),
    ),
    entryIds: Object.keys(entries),
  };
}

/** Why config keeps plugin `id` from loading, or undefined when it may load. Deny wins over allow. */
export function disabledReason(id: string, settings: PluginSettings): string | undefined {
  if (!settings.enabled) return "plugins.enabled is false";
  if (settings.deny.includes(id)) return "listed in plugins.deny";
  if (settings.allow && !settings.allow.includes(id)) return "not listed in plugins.allow";
  if (settings.disabledEntries.has(id)) return `plugins.entries.${id}.enabled is false`;
  return undefined;
}

/** A warning for each id in `plugins.allow`, `plugins.deny` or `plugins.entries` that no plugin has. */
export function unknownIdWarnings(settings: PluginSettings, knownIds: ReadonlySet<string>): PluginProblem[] {
  const out: PluginProblem[] = [];
  const check = (where: string, ids: readonly string[]) => {
    for (const id of new Set(ids)) {
      if (knownIds.has(id)) continue;
      out.push({
        level: "warning",
        pluginId: id,
        message: `${where} names "${id}", but no installed plugin has that id; fix the id or remove it (\`openclaw plugins list\` shows the installed ones).`,
      });
    }
  };
  check("plugins.allow", settings.allow ?? []);
  check("plugins.deny", settings.deny);
  check("plugins.entries", settings.entryIds);
  return out;
}
