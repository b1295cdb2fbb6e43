import { resolveConfigSource, setAtPath, updateConfigFile, UserError, type OpenClawPaths } from "../config/index.js";
import { disabledReason, readPluginSettings } from "./policy.js";
import { resolvePlugins } from "./resolve.js";

export interface SetPluginEnabledResult {
  /** The config file written. */
  file: string;
  /** `<file>.bak` when a previous file existed. */
  backupPath?: string;
  /** After the change, the setting that still keeps the plugin from loading (enable only). */
  stillDisabled?: string;
}

/** The config as it loads, for reading `plugins.*`; the raw file when includes cannot resolve. */
async function effectiveConfig(file: string, raw: unknown): Promise<unknown> {
  try {
    return await resolveConfigSource(raw, { file });
  } catch {
    return raw;
  }
}

/**
 * Sets `plugins.entries.<id>.enabled` in the main config file (a locked read-modify-write with
 * rotated `.bak` backups, see `updateConfigFile`; the file is created when missing). Throws a
 * `UserError` when no installed plugin has that id, or the file does not hold an object.
 */
export async function setPluginEnabled(
  paths: OpenClawPaths,
  id: string,
  enabled: boolean,
  options: { cwd?: string } = {},
): Promise<SetPluginEnabledResult> {
  const file = paths.configPath;
  let next: Record<string, unknown> = {};
  const { backupPath } = await updateConfigFile(file, async ({ raw: current }) => {
    if (typeof current !== "object" || current === null || Array.isArray(current)) {
      throw new UserError(`${file} does not hold an object; fix it by hand first.`);
    }
    const set = await resolvePlugins({ paths, config: await effectiveConfig(file, current), ...(options.cwd ? { cwd: options.cwd } : {}) });
    const known = new Set([
      ...set.plugins.map((p) => p.id),
      ...set.problems.filter((p) => p.level === "error" && p.pluginId).map((p) => p.pluginId!),
    ]);
    if (!known.has(id)) {
      throw new UserError(
        `No installed plugin has the id "${id}"${known.size ? `; installed: ${[...known].sort().join(", ")}` : "; none is installed (see `openclaw plugins install`)"}.`,
      );
    }
    next = setAtPath(structuredClone(current) as Record<string, unknown>, ["plugins", "entries", id, "enabled"], enabled);
    return next;
  });
  const result: SetPluginEnabledResult = { file, ...(backupPath ? { backupPath } : {}) };
  if (enabled) {
    const reason = disabledReason(id, readPluginSettings(await effectiveConfig(file, next), file));
    if (reason) result.stillDisabled = reason;
  }
  return result;
}
