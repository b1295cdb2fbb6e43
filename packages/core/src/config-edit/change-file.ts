import { formatProblems, updateConfigFile, UserError, type ConfigProblem, type ConfigSource } from "../config/index.js";
import { validateRawConfig, type RegistryResolver } from "./validate-raw.js";

/** A validated write refused because the change adds problems; `problems` are the new ones. */
export class ConfigChangeRefused extends UserError {
  constructor(
    message: string,
    readonly problems: ConfigProblem[],
  ) {
    super(message);
  }
}

const problemKey = (p: ConfigProblem) => `${p.path}\u0000${p.message}`;

export interface ChangeConfigOptions {
  file: string;
  resolveRegistry: RegistryResolver;
  env?: NodeJS.ProcessEnv;
  /** Runs after the check, just before the write (files the new content points at, such as secret files). */
  beforeWrite?: () => Promise<void>;
}

/** What a validated write did. */
export interface ChangeConfigResult {
  /** `<file>.bak` when a previous file was kept. */
  backupPath?: string;
  /** Problems the file had before and still has (the change added none). */
  remaining: ConfigProblem[];
}

/**
 * Changes the main file under its lock (`updateConfigFile`: atomic, with rotated backups):
 * `change` gets the file as written and returns the new content, which is written only when it
 * adds no new problem to those the current content already had. Otherwise throws a UserError
 * (`ConfigChangeRefused`) that starts with "Not written: <what> would make the config invalid."
 * and lists the new problems. `change` may throw (e.g. a UserError) to refuse; nothing is written then.
 */
export async function changeConfigFile(
  what: string,
  change: (source: ConfigSource) => Record<string, unknown> | Promise<Record<string, unknown>>,
  options: ChangeConfigOptions,
): Promise<ChangeConfigResult> {
  const { file } = options;
  let remaining: ConfigProblem[] = [];
  const { backupPath } = await updateConfigFile(file, async (source) => {
    const next = await change(source);
    let before: ConfigProblem[] = [];
    try {
      const b = await validateRawConfig(source.raw, options);
      if (!b.result.ok) before = b.result.problems;
    } catch {
      // An unresolvable current file: judge the new content on its own.
    }
    const after = await validateRawConfig(next, options);
    if (!after.result.ok) {
      const known = new Set(before.map(problemKey));
      const added = after.result.problems.filter((p) => !known.has(problemKey(p)));
      if (added.length > 0) {
        throw new ConfigChangeRefused(`Not written: ${what} would make the config invalid.\n${formatProblems(file, added)}`, added);
      }
      remaining = after.result.problems;
    }
    await options.beforeWrite?.();
    return next;
  });
  return { ...(backupPath ? { backupPath } : {}), remaining };
}
