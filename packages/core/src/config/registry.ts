import {
  applyLegacyKeyRules,
  detectLegacyKeys,
  type ChannelConfigDefinition,
  type ConfigObject,
  type LegacyFinding,
  type LegacyKeyRule,
  type MigrationOutcome,
} from "@openclaw/plugin-sdk";
import { BUILTIN_CHANNELS } from "./channels/index.js";
import { CORE_MIGRATIONS } from "./migrations.js";
import { buildConfigSchema, type ConfigSchema } from "./schema/root.js";

/**
 * The schema and doctor rules in play: core's own plus one definition per channel. Installed
 * channel plugins pass their definitions in `channels`; a plugin's definition replaces the
 * built-in one with the same id.
 */
export interface ConfigRegistry {
  channels: readonly ChannelConfigDefinition[];
  schema: ConfigSchema;
  /** Core rules first, then each channel's rules in channel order. */
  migrations: readonly LegacyKeyRule[];
  detectLegacy(config: ConfigObject): LegacyFinding[];
  migrate(config: ConfigObject): MigrationOutcome;
}

const cache = new Map<string, ConfigRegistry>();
/** The last registry built from plugin definitions; reused while the same definition objects come back. */
let lastWithPlugins: { defs: readonly ChannelConfigDefinition[]; registry: ConfigRegistry } | undefined;

const sameDefinitions = (a: readonly ChannelConfigDefinition[], b: readonly ChannelConfigDefinition[]) =>
  a.length === b.length && a.every((def, i) => def === b[i]);

export function createConfigRegistry(pluginChannels: readonly ChannelConfigDefinition[] = []): ConfigRegistry {
  if (lastWithPlugins && pluginChannels.length > 0 && sameDefinitions(lastWithPlugins.defs, pluginChannels))
    return lastWithPlugins.registry;
  const byId = new Map<string, ChannelConfigDefinition>();
  for (const def of BUILTIN_CHANNELS) byId.set(def.id, def);
  for (const def of pluginChannels) byId.set(def.id, def);
  const channels = [...byId.values()];
  const key = pluginChannels.length === 0 ? "builtin" : "";
  const cached = key ? cache.get(key) : undefined;
  if (cached) return cached;
  const migrations = [...CORE_MIGRATIONS, ...channels.flatMap((c) => c.migrations)];
  const registry: ConfigRegistry = {
    channels,
    schema: buildConfigSchema(channels),
    migrations,
    detectLegacy: (config) => detectLegacyKeys(config, migrations),
    migrate: (config) => applyLegacyKeyRules(config, migrations),
  };
  if (key) cache.set(key, registry);
  else lastWithPlugins = { defs: [...pluginChannels], registry };
  return registry;
}
