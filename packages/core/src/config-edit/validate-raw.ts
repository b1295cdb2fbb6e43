// Validating config content before it is written: the checks `openclaw config set` and the
// control API's `config.validate` / `config.set` share.
import {
  notYetActiveWarnings,
  resolveConfigSource,
  securityWarnings,
  streamingWarnings,
  validateConfig,
  type ConfigProblem,
  type ConfigRegistryWithPlugins,
} from "../config/index.js";

/** Builds the registry a config is validated with (installed plugins, or the gateway's loaded ones). */
export type RegistryResolver = (resolved: unknown) => Promise<ConfigRegistryWithPlugins>;

export type Validation = { ok: true; config: unknown } | { ok: false; problems: ConfigProblem[] };

/**
 * Validates the raw content of the main file (`file`) as it would be loaded: `$include` and
 * `${VAR}` resolved (with `env`, default `process.env`), then the schema of `resolveRegistry`'s
 * registry. Plugin errors count as problems; `warnings` do not. Throws `ConfigFileError` when an
 * include or a variable cannot be resolved.
 */
export async function validateRawConfig(
  raw: unknown,
  options: { file: string; resolveRegistry: RegistryResolver; env?: NodeJS.ProcessEnv },
): Promise<{ resolved: unknown; result: Validation; warnings: string[] }> {
  const resolved = await resolveConfigSource(raw, { file: options.file, ...(options.env ? { env: options.env } : {}) });
  const plugins = await options.resolveRegistry(resolved);
  const result = validateConfig(resolved, plugins.registry);
  const problems = [...plugins.problems, ...(result.ok ? [] : result.problems)];
  const inactive = result.ok ? notYetActiveWarnings(result.config as Parameters<typeof notYetActiveWarnings>[0]) : [];
  const streaming = result.ok ? [...streamingWarnings(resolved, plugins.registry), ...securityWarnings(resolved)] : [];
  return {
    resolved,
    result: problems.length ? { ok: false, problems } : result,
    warnings: [...plugins.warnings, ...inactive, ...streaming],
  };
}
