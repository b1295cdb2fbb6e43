import { realpathSync } from "node:fs";
import path from "node:path";
import { ConfigFileError, type ConfigProblem } from "./errors.js";
import { missingVariableProblems, substituteTree, type MissingVariable } from "./env-substitution.js";
import { resolveIncludeRoots } from "./include-files.js";
import { expandIncludes } from "./includes.js";

export interface ResolveConfigSourceOptions {
  /** Path of the main config file; includes resolve against its folder. */
  file: string;
  /** Variables for `${VAR}` and `OPENCLAW_INCLUDE_ROOTS`; defaults to `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Produces the effective config object from the parsed main file (`readConfigSource().raw`):
 *
 * 1. `$include` (a path or a list of paths, at any object level) is replaced by the included
 *    JSON5 files, read relative to the including file's real folder. A list is deep-merged in
 *    order (objects merge, arrays and scalars are replaced); sibling keys are merged on top.
 *    Limits: 10 nested levels, no cycles, 2 MB per file, and each file's real path must be in the
 *    main config folder or under a folder in `OPENCLAW_INCLUDE_ROOTS` (path-delimiter separated).
 * 2. `${VAR}` in every string value is replaced by the variable's value; `$${VAR}` is the literal
 *    `${VAR}`; an unset or empty variable is an error.
 *
 * Does not mutate `raw`. Throws one `ConfigFileError` listing every problem found.
 */
export async function resolveConfigSource(raw: unknown, options: ResolveConfigSourceOptions): Promise<unknown> {
  const env = options.env ?? process.env;
  const file = path.resolve(options.file);
  let real = file;
  try {
    real = realpathSync(file);
  } catch {
    // A missing main file is fine (safe defaults); cycles are tracked by its resolved path then.
  }
  const problems: ConfigProblem[] = [];
  const roots = await resolveIncludeRoots(file, env);
  const expanded = await expandIncludes(raw, { file, real }, roots, env, problems);
  const missing: MissingVariable[] = [];
  const value = substituteTree(expanded, env, file, missing);
  problems.push(...missingVariableProblems(missing));
  if (problems.length > 0) throw new ConfigFileError(file, problems);
  return value;
}
