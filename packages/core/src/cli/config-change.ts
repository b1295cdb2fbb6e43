// The validated, atomic change of the main config file that `config set|unset` and
// `openclaw onboard` share: written under the file's lock, only when it adds no problem.
import {
  notYetActiveWarnings,
  streamingWarnings,
  securityWarnings,
  formatProblems,
  resolveConfigSource,
  UserError,
  validateConfig,
  updateConfigFile,
  type ConfigProblem,
  type ConfigSource,
  type OpenClawPaths,
} from "../config/index.js";
import { resolveConfigRegistry } from "../plugins/index.js";
import type { CliContext } from "./context.js";
import { writeLine } from "./output.js";

type Validation = { ok: true; config: unknown } | { ok: false; problems: ConfigProblem[] };

/**
 * Validates the raw content of the main file as it would be loaded: the built-in schema plus the
 * installed plugins' channel definitions. Plugin errors count as problems; `warnings` are not.
 */
export async function validateRaw(
  paths: OpenClawPaths,
  raw: unknown,
): Promise<{ resolved: unknown; result: Validation; warnings: string[] }> {
  const file = paths.configPath;
  const resolved = await resolveConfigSource(raw, { file });
  const plugins = await resolveConfigRegistry(resolved, paths);
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

const problemKey = (p: ConfigProblem) => `${p.path}\u0000${p.message}`;

/**
 * Changes the main file under its lock (`updateConfigFile`): `change` gets the file as written
 * and returns the new content, which is written only when it adds no new problem to those the
 * current content already had. `beforeWrite` runs after the check, just before the write (files
 * the new content points at, such as secret files).
 */
export async function changeConfigFile(
  ctx: CliContext,
  what: string,
  change: (source: ConfigSource) => Record<string, unknown> | Promise<Record<string, unknown>>,
  options: { beforeWrite?: () => Promise<void> } = {},
): Promise<void> {
  const file = ctx.paths().configPath;
  let remaining: ConfigProblem[] = [];
  const { backupPath } = await updateConfigFile(file, async (source) => {
    const next = await change(source);
    let before: ConfigProblem[] = [];
    try {
      const b = await validateRaw(ctx.paths(), source.raw);
      if (!b.result.ok) before = b.result.problems;
    } catch {
      // An unresolvable current file: judge the new content on its own.
    }
    const after = await validateRaw(ctx.paths(), next);
    if (!after.result.ok) {
      const known = new Set(before.map(problemKey));
      const added = after.result.problems.filter((p) => !known.has(problemKey(p)));
      if (added.length > 0) {
        throw new UserError(`Not written: ${what} would make the config invalid.\n${formatProblems(file, added)}`);
      }
      remaining = after.result.problems;
    }
    await options.beforeWrite?.();
    return next;
  });
  writeLine(ctx.stdout, `${what} in ${file}${backupPath ? ` (previous version kept as ${backupPath})` : ""}`);
  if (remaining.length > 0) {
    writeLine(ctx.stderr, `Warning: the config still has problems it had before:\n${formatProblems(file, remaining)}`);
  }
}
