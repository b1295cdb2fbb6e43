import type { ChannelConfigDefinition } from "@openclaw/plugin-sdk/config";
import {
  createConfigRegistry,
  loadConfig,
  readConfigSource,
  resolveConfigSource,
  updateConfigFile,
  type OpenClawConfig,
  type OpenClawPaths,
} from "../config/index.js";
import type { GatewayLogger } from "./types.js";

/** The config file before validation: what plugin discovery reads. */
export async function readRawConfig(paths: OpenClawPaths, env: NodeJS.ProcessEnv): Promise<Record<string, unknown>> {
  const source = await readConfigSource(paths.configPath);
  if (!source.exists) return {};
  const resolved = await resolveConfigSource(source.raw, { file: paths.configPath, env });
  return resolved !== null && typeof resolved === "object" && !Array.isArray(resolved) ? (resolved as Record<string, unknown>) : {};
}

export interface StartupConfig {
  config: OpenClawConfig;
  /** One line per retired key the safe migrations rewrote (empty when nothing changed). */
  migrated: string[];
  /** `<config>.bak` when the file was rewritten. */
  backupPath?: string;
}

/**
 * Loads the config the way the gateway starts with it: first the safe doctor migrations run on
 * the file as written (so `${VAR}` and `$include` stay as they are); when they change anything the
 * file is rewritten under its lock with a backup (`<file>.bak`) and each change is logged (the
 * file is not locked when nothing changes, so a read-only config folder works); then the config is
 * validated with the channel definitions of the loaded plugins. Throws the `ConfigError` (a
 * UserError listing every problem) when the config is still invalid.
 */
export async function loadStartupConfig(input: {
  paths: OpenClawPaths;
  env: NodeJS.ProcessEnv;
  channels: readonly ChannelConfigDefinition[];
  log: GatewayLogger;
}): Promise<StartupConfig> {
  const { paths, env, channels, log } = input;
  const file = paths.configPath;
  const source = await readConfigSource(file);
  const result: Omit<StartupConfig, "config"> = { migrated: [] };
  if (isObject(source.raw)) {
    const registry = createConfigRegistry(channels);
    const migrate = (raw: Record<string, unknown>) => {
      const migrated = structuredClone(raw);
      return { migrated, outcome: registry.migrate(migrated) };
    };
    let { outcome } = migrate(source.raw);
    for (const problem of outcome.problems) log.warn(`config: ${problem} (in ${file}); fix it by hand`);
    if (outcome.changes.length > 0) {
      // Migrate again under the lock, on the file as it is now: another process may have changed it.
      const { written, backupPath } = await updateConfigFile(file, ({ raw }) => {
        if (!isObject(raw)) return undefined;
        const again = migrate(raw);
        outcome = again.outcome;
        return outcome.changes.length > 0 ? again.migrated : undefined;
      });
      if (written) {
        for (const change of outcome.changes) log.info(`config migrated: ${change}`);
        log.info(`config: rewrote ${file}${backupPath ? `; the previous version is kept as ${backupPath}` : ""}`);
        result.migrated = outcome.changes;
        if (backupPath) result.backupPath = backupPath;
      }
    }
  }
  const loaded = await loadConfig(paths, { env, channels });
  for (const warning of loaded.warnings) log.warn(`config: ${warning}`);
  return { config: loaded.config, ...result };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
