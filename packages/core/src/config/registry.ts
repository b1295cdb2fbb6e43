import {
  applyLegacyKeyRules,
  type ChannelConfigDefinition,
  type ConfigObject,
  compileChannelMigrations,
  detectLegacyKeys,
  type LegacyFinding,
  type LegacyKeyRule,
  type MigrationOutcome,
} from "@openclaw/plugin-sdk/config";
import { FIRST_PARTY_CHANNELS } from "./first-party-channels.js";
import { CORE_MIGRATIONS } from "./migrations.js";
import { buildConfigSchema, type ConfigSchema } from "./schema/root.js";

/** A channel whose plugin is not installed: known by name, its keys checked once it is. */
export interface UninstalledChannel {
  id: string;
  label: string;
  packageName: string;
}

/**
 * The schema and doctor rules in play: core's own, the definitions of the installed channel
 * plugins, and for first-party channels whose plugin is not installed, their doctor rules (data
 * from the first-party table) and a permissive schema (their keys are checked once installed).
 */
export interface ConfigRegistry {
  /** Definitions of the installed channel plugins. */
  channels: readonly ChannelConfigDefinition[];
  /** First-party channels without an installed plugin. */
  uninstalled: readonly UninstalledChannel[];
  schema: ConfigSchema;
  /** Core rules first, then each channel's rules in channel order. */
  migrations: readonly LegacyKeyRule[];
  detectLegacy(config: ConfigObject): LegacyFinding[];
  migrate(config: ConfigObject): MigrationOutcome;
}

let builtin: ConfigRegistry | undefined;
/** The last registry built from plugin definitions; reused while the same definition objects come back. */
let lastWithPlugins: { defs: readonly ChannelConfigDefinition[]; registry: ConfigRegistry } | undefined;

const sameDefinitions = (a: readonly ChannelConfigDefinition[], b: readonly ChannelConfigDefinition[]) =>
  a.length === b.length && a.every((def, i) => def === b[i]);

/**
 * Builds (or reuses) the registry for the given installed channel definitions. `inactive` names
 * channels of installed plugins that are turned off: like uninstalled first-party channels, their
 * keys are accepted as they are (the missing-plugin warning says why they do not run).
 */
export function createConfigRegistry(
  pluginChannels: readonly ChannelConfigDefinition[] = [],
  inactive: readonly UninstalledChannel[] = [],
): ConfigRegistry {
  if (pluginChannels.length === 0 && inactive.length === 0 && builtin) return builtin;
  if (lastWithPlugins && inactive.length === 0 && pluginChannels.length > 0 && sameDefinitions(lastWithPlugins.defs, pluginChannels)) {
    return lastWithPlugins.registry;
  }
  const byId = new Map<string, ChannelConfigDefinition>();
  for (const def of pluginChannels) byId.set(def.id, def);
  const channels = [...byId.values()];
  const uninstalled: UninstalledChannel[] = [
    ...FIRST_PARTY_CHANNELS.filter((c) => !byId.has(c.id)).map(({ id, label, packageName }) => ({ id, label, packageName })),
  ];
  for (const c of inactive) if (!byId.has(c.id) && !uninstalled.some((u) => u.id === c.id)) uninstalled.push(c);
  const migrations = [
    ...CORE_MIGRATIONS,
    ...FIRST_PARTY_CHANNELS.flatMap((c) => (byId.has(c.id) ? [] : compileChannelMigrations(c.id, c.migrations))),
    ...channels.flatMap((c) => compileChannelMigrations(c.id, c.migrations)),
  ];
  const registry: ConfigRegistry = {
    channels,
    uninstalled,
    schema: buildConfigSchema(channels, uninstalled),
    migrations,
    detectLegacy: (config) => detectLegacyKeys(config, migrations),
    migrate: (config) => applyLegacyKeyRules(config, migrations),
  };
  if (inactive.length > 0) return registry;
  if (pluginChannels.length === 0) builtin = registry;
  else lastWithPlugins = { defs: [...pluginChannels], registry };
  return registry;
}
