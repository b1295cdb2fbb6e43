// The validated, atomic change of the main config file as the CLI makes it (`config set|unset`,
// `openclaw onboard`): `config-edit`'s locked write with the installed plugins' schema, then one
// line saying what was written and where.
import { formatProblems, type ConfigSource, type OpenClawPaths } from "../config/index.js";
import { changeConfigFile, validateRawConfig } from "../config-edit/index.js";
import { resolveConfigRegistry } from "../plugins/index.js";
import type { CliContext } from "./context.js";
import { writeLine } from "./output.js";

/** The registry of the installed plugins, as `openclaw` loads them. */
const installedPlugins = (paths: OpenClawPaths) => (resolved: unknown) => resolveConfigRegistry(resolved, paths);

/** Validates the raw content of the main file as it would be loaded, with the installed plugins. */
export function validateRaw(paths: OpenClawPaths, raw: unknown) {
  return validateRawConfig(raw, { file: paths.configPath, resolveRegistry: installedPlugins(paths) });
}

/**
 * Writes a change through the validated, locked write (see `changeConfigFile`) and reports it.
 * `beforeWrite` runs after the check, just before the write (e.g. secret files the content names).
 */
export async function changeConfig(
  ctx: CliContext,
  what: string,
  change: (source: ConfigSource) => Record<string, unknown> | Promise<Record<string, unknown>>,
  options: { beforeWrite?: () => Promise<void> } = {},
): Promise<void> {
  const paths = ctx.paths();
  const file = paths.configPath;
  const { backupPath, remaining } = await changeConfigFile(what, change, {
    file,
    resolveRegistry: installedPlugins(paths),
    ...(options.beforeWrite ? { beforeWrite: options.beforeWrite } : {}),
  });
  writeLine(ctx.stdout, `${what} in ${file}${backupPath ? ` (previous version kept as ${backupPath})` : ""}`);
  if (remaining.length > 0) {
    writeLine(ctx.stderr, `Warning: the config still has problems it had before:\n${formatProblems(file, remaining)}`);
  }
}
