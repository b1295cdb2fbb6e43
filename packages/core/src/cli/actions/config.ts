// `openclaw config validate|get|set|unset|schema`, loaded only when one of them runs.
import {
  ConfigError,
  ConfigFileError,
  configJsonSchema,
  formatProblems,
  getAtPath,
  parseCliValue,
  parseConfigPath,
  readConfigSource,
  resolveConfigSource,
  setAtPath,
  unsetAtPath,
  UserError,
  type ConfigProblem,
} from "../../config/index.js";
import { resolveConfigRegistry } from "../../plugins/index.js";
import { redactSecrets } from "../../redaction/index.js";
import type { CliContext } from "../context.js";
import { changeConfig, validateRaw } from "../config-change.js";
import { formatValue, writeJson, writeLine } from "../output.js";

/** `config validate`: lists every problem and sets exit code 1 when there is any. */
export async function validateConfigCommand(ctx: CliContext, opts: { json?: boolean }): Promise<void> {
  const file = ctx.paths().configPath;
  let problems: ConfigProblem[] = [];
  let warnings: string[] = [];
  let exists = false;
  try {
    const source = await readConfigSource(file);
    exists = source.exists;
    const checked = await validateRaw(ctx.paths(), source.raw);
    warnings = checked.warnings;
    if (!checked.result.ok) problems = checked.result.problems;
  } catch (err) {
    if (!(err instanceof ConfigFileError)) throw err;
    problems = err.problems.map((p) => ({ kind: "invalid" as const, path: p.path ?? "", message: p.message }));
    exists = true;
    if (!opts.json) throw err;
  }
  for (const warning of warnings) writeLine(ctx.stderr, `Warning: ${warning}`);
  if (opts.json) {
    writeJson(ctx.stdout, { valid: problems.length === 0, file, exists, problems, warnings });
  } else if (problems.length > 0) {
    writeLine(ctx.stderr, formatProblems(file, problems));
  } else {
    writeLine(ctx.stdout, exists ? `Config OK: ${file}` : `No config file at ${file}; the safe defaults are in effect (valid).`);
  }
  if (problems.length > 0) process.exitCode = 1;
}

/**
 * `config get`: the effective value; on an invalid config, the configured value and a warning.
 * Secrets are shown as `***` (by key, header name and value, as the control API's `config.get`)
 * unless `showSecrets` is set.
 */
export async function getConfigValue(ctx: CliContext, pathText: string, opts: { json?: boolean; showSecrets?: boolean }): Promise<void> {
  const segments = parseConfigPath(pathText);
  // Redacted as a whole before the path is read, so a key's meaning (a header name) is known.
  const view = (config: unknown) => getAtPath(opts.showSecrets ? config : redactSecrets(config), segments);
  let value: unknown;
  try {
    const loaded = await ctx.loadConfig();
    value = view(loaded.config);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    // Reading is a diagnostic: show the configured value, but say the config is invalid.
    const file = ctx.paths().configPath;
    const source = await readConfigSource(file);
    value = view(await resolveConfigSource(source.raw, { file }));
    writeLine(ctx.stderr, `Warning: ${file} is invalid (run \`openclaw config validate\`); showing the configured value.`);
  }
  if (value === undefined) {
    throw new UserError(`${pathText} is not set in ${ctx.paths().configPath} and has no default.`);
  }
  if (opts.json) writeJson(ctx.stdout, value);
  else writeLine(ctx.stdout, formatValue(value));
}

/** `config set`: writes the file (with a backup) unless the change adds a problem. */
export async function setConfigValue(ctx: CliContext, pathText: string, valueText: string): Promise<void> {
  const segments = parseConfigPath(pathText);
  const value = parseCliValue(valueText);
  await changeConfig(ctx, `Set ${pathText}`, ({ raw }) => {
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      throw new UserError(`${ctx.paths().configPath} does not hold an object; fix it by hand first.`);
    }
    return setAtPath(structuredClone(raw) as Record<string, unknown>, segments, value);
  });
}

/** `config unset`: removes a key; a key that is not set is a UserError. */
export async function unsetConfigValue(ctx: CliContext, pathText: string): Promise<void> {
  const segments = parseConfigPath(pathText);
  await changeConfig(ctx, `Removed ${pathText}`, ({ exists, raw }) => {
    const next = structuredClone(raw) as Record<string, unknown>;
    if (!exists || !unsetAtPath(next, segments)) {
      throw new UserError(`${pathText} is not set in ${ctx.paths().configPath}; nothing to remove.`);
    }
    return next;
  });
}

/** `config schema`: the JSON Schema users point editors at, with the installed channel plugins' keys. */
export async function printConfigSchema(ctx: CliContext): Promise<void> {
  const paths = ctx.paths();
  const source = await readConfigSource(paths.configPath);
  const resolved = source.exists ? await resolveConfigSource(source.raw, { file: paths.configPath }).catch(() => source.raw) : {};
  const { registry } = await resolveConfigRegistry(resolved, paths);
  writeJson(ctx.stdout, configJsonSchema(registry));
}
